"""How the event log names a person (issue 28): by his player's ``public_id``, never his name.

Every user who acts on a match — a player, the scorer, an arbiter — has a player row (made on
first use), so his name lives there, mutable and erasable, and the log holds a random id."""

from __future__ import annotations

from games.models import Player


def player_of(user) -> Player:
    """The user's player profile, created on first use (a guest profile of the same name is claimed)."""
    player = getattr(user, "player", None)
    if player is not None:
        return player
    player, _ = Player.objects.get_or_create(username=user.get_username())
    if player.user_id is None:
        player.user = user
        player.save(update_fields=["user"])
    user.player = player  # later calls in this request ask no more
    return player


def person_ref(user) -> str | None:
    """What an event names ``user`` by: his player's public id (None for no user)."""
    return None if user is None else player_of(user).public_id
