"""Authentication for the match endpoints: DRF's token authentication, with the user's player
profile read by the same query.

Every request about a match asks who the user is at the table (``games.roles.role_of``
reads ``user.player``): loading the profile with the token (a LEFT JOIN on a unique key) spares
each of them a query of its own. The statement is compiled once (``games.compiled``): every card
play runs it. Other endpoints keep DRF's lookup, which needs no player.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games import compiled
from games.models import Player


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with ``user.player`` loaded in the token's query."""

    def authenticate_credentials(self, key):
        with connection.cursor() as cursor:
            cursor.execute(_token_sql(connection.vendor), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = _token_with_user_and_player(row)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


def _token_with_user_and_player(row: tuple) -> Token:
    User = get_user_model()
    tokens, users = compiled.width(Token), compiled.width(User)
    token = compiled.instance(Token, "t", row[:tokens])
    user = compiled.instance(User, "u", row[tokens : tokens + users])
    player_row = row[tokens + users :]
    player = compiled.instance(Player, "p", player_row) if player_row[0] is not None else None
    Token.user.field.set_cached_value(token, user)
    User.player.related.set_cached_value(user, player)  # None: ``user.player`` raises as usual
    return token


@functools.cache
def _token_sql(vendor: str) -> str:
    User = get_user_model()
    return (
        f"SELECT {compiled.columns(Token, 't')}, {compiled.columns(User, 'u')}, {compiled.columns(Player, 'p')} "
        f"FROM {compiled.table(Token)} t INNER JOIN {compiled.table(User)} u "
        f"ON u.{compiled.column(User, 'id')} = t.{compiled.column(Token, 'user')} "
        f"LEFT JOIN {compiled.table(Player)} p "
        f"ON p.{compiled.column(Player, 'user')} = u.{compiled.column(User, 'id')} "
        f"WHERE t.{compiled.column(Token, 'key')} = %s"
    )


# The schema's "tokenAuth" scheme stands for both classes: the same header, the same tokens.
set_override(PlayerTokenAuthentication, "suppress_collision_warning", True)
