"""Helpers for the event-store tests: sample records, reading a match's state, a scorer that
plays legal cards. Raw tampering with stored rows is tests/support/event_table.py's."""

from support import SEATS, expected, sample  # noqa: F401 - re-exported

from games import services
from games.engine import MatchState
from games.engine.match import restore
from games.models import Match, MatchEvent, MatchProjection

SEATED = dict(zip(SEATS, ("north", "east", "south", "west")))  # usernames of the conftest users


def state_of(match) -> MatchState:
    """The engine state from the match's read model."""
    return restore(MatchProjection.objects.get(pk=match.pk).snapshot)


def legal_play(match) -> tuple[str, str]:
    """(seat, card): the seat on turn and its first legal card."""
    deal = state_of(match).deal
    seat = deal.to_play
    return seat.name, str(deal.legal_cards(seat)[0])


def play_legal_cards(match, actor, count: int) -> None:
    for _ in range(count):
        seat, card = legal_play(match)
        services.card_play(match_id=match.pk, actor=actor, card=card, seat=seat)


def stored_state(match) -> dict:
    """Everything a command may write for one match, to compare before and after."""
    projection = MatchProjection.objects.get(pk=match.pk)
    return {
        "events": list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "hash")),
        "version": Match.objects.get(pk=match.pk).version,
        "projection": (projection.version, projection.head_hash, projection.snapshot, projection.summary),
        "deal_scores": list(match.deal_scores.order_by("number", "seat").values()),
    }
