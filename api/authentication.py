"""Authentication for the match endpoints: DRF's token authentication, with the user's player
profile read by the same query.

Every request about a match asks who the user is at the table (``games.domain.roles.role_of``
reads ``user.player``): loading the profile with the token (a LEFT JOIN on a unique key) spares
each of them a query of its own. The statement is hand-written once (``games.sql``): every card
play runs it. Other endpoints keep DRF's lookup, which needs no player.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games import sql

from . import oauth


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with ``user.player`` loaded in the token's query."""

    def authenticate_credentials(self, key):
        token = sql.token_with_user_and_player(Token, key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


# The schema's "tokenAuth" scheme stands for both classes: the same header, the same tokens.
set_override(PlayerTokenAuthentication, "suppress_collision_warning", True)


class BearerTokenAuthentication(OAuth2Authentication):
    """``Authorization: Bearer <token>``: an OAuth access token or a personal access token
    (docs/oauth.md), both django-oauth-toolkit access tokens kept only as checksums. What it may
    do is bounded by its scopes (``api.permissions.TokenHasScope``)."""

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None and found[1].application_id is None:  # a personal token: no app
            oauth.token_used(access_token=found[1])  # "last used" on the page of personal tokens
        return found


# The schema's "oauth2" scheme (with the scope of each operation) is api.oauth_scopes.BearerScheme.
import api.oauth_scopes  # noqa: E402, F401  registers BearerScheme before any schema is generated
