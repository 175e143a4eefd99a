"""The API token with its user and his player profile, in one statement (every card play runs it).

The token model is the caller's (DRF's ``Token``, from api/authentication.py): ``games`` imports
nothing of the API's frameworks."""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import connection, models

from games.models import Player
from games.sql import rows


def token_with_user_and_player(token_model: type[models.Model], key: str):
    """The token ``key`` of ``token_model`` (a model with a ``key`` and a ``user`` foreign key),
    with ``token.user`` and ``token.user.player`` loaded (a LEFT JOIN on a unique key: a user
    without a profile has ``player`` unset, and reading it raises as usual); None if there is none."""
    Token = token_model  # noqa: N806 - the model, named as the ORM names it
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(Token, connection.vendor), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    User = get_user_model()
    tokens, users = rows.width(Token), rows.width(User)
    token = rows.instance(Token, "t", row[:tokens])
    user = rows.instance(User, "u", row[tokens : tokens + users])
    player_row = row[tokens + users :]
    player = rows.instance(Player, "p", player_row) if player_row[0] is not None else None
    Token.user.field.set_cached_value(token, user)
    User.player.related.set_cached_value(user, player)  # None: ``user.player`` raises as usual
    return token


@functools.cache
def _token_sql(token_model: type[models.Model], vendor: str) -> str:
    Token = token_model  # noqa: N806
    User = get_user_model()
    return (
        f"SELECT {rows.columns(Token, 't')}, {rows.columns(User, 'u')}, {rows.columns(Player, 'p')} "
        f"FROM {rows.table(Token)} t INNER JOIN {rows.table(User)} u "
        f"ON u.{rows.column(User, 'id')} = t.{rows.column(Token, 'user')} "
        f"LEFT JOIN {rows.table(Player)} p "
        f"ON p.{rows.column(Player, 'user')} = u.{rows.column(User, 'id')} "
        f"WHERE t.{rows.column(Token, 'key')} = %s"
    )
