"""Helpers for the event-store tests: sample records, reading a match's state, a scorer that
plays legal cards. Raw tampering with stored rows is tests/support/event_table.py's."""

from support import SEATS, expected, sample  # noqa: F401 - re-exported
from support.once import fresh_users  # noqa: F401 - re-exported
from support.world import legal_play, play_legal_cards, state_of  # noqa: F401 - re-exported

from games.models import Match, MatchEvent, MatchProjection

SEATED = dict(zip(SEATS, ("north", "east", "south", "west")))  # usernames of the conftest users


def store_people() -> dict:
    """Four seated players (each with a player profile), a scorer and a stranger, by name."""
    from django.contrib.auth import get_user_model

    from games.write import services

    make = get_user_model().objects.create_user  # no password: hashing one is slow
    made = {name: make(name) for name in ("north", "east", "south", "west", "scorer", "stranger")}
    for name in ("north", "east", "south", "west"):
        services.player_for_user(made[name])
    return made


def new_server_match(users) -> Match:
    """A server-dealt match with a scorer, its first deal dealt."""
    from games.write import services

    match = services.match_create(
        actor=users["north"], first_dealer="N", dealing=Match.Dealing.SERVER, scorer="scorer", seats=SEATED
    )
    services.deal_start(match_id=match.pk, actor=users["north"])
    return Match.objects.get(pk=match.pk)


def stored_state(match) -> dict:
    """Everything a command may write for one match, to compare before and after."""
    projection = MatchProjection.objects.get(pk=match.pk)
    return {
        "events": list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "hash")),
        "version": Match.objects.get(pk=match.pk).version,
        "projection": (projection.version, projection.head_hash, projection.snapshot, projection.summary),
        "deal_scores": list(match.deal_scores.order_by("number", "seat").values()),
    }
