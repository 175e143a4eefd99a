"""Authentication for the match endpoints: DRF's token authentication, with the user's player
profile read by the same query.

Every request about a match asks who the user is at the table (``games.selectors.viewer_role``
reads ``user.player``): loading the profile with the token (a LEFT JOIN on a unique key) spares
each of them a query of its own. Other endpoints keep DRF's lookup, which needs no player.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from rest_framework import authentication, exceptions


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with ``user.player`` loaded in the token's query."""

    def authenticate_credentials(self, key):
        model = self.get_model()
        try:
            token = model.objects.select_related("user", "user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


# The schema's "tokenAuth" scheme stands for both classes: the same header, the same tokens.
set_override(PlayerTokenAuthentication, "suppress_collision_warning", True)
