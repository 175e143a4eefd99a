"""Helpers for the event-store tests: sample records, reading a match's state, a scorer that
plays legal cards. Raw tampering with stored rows is tests/support/event_table.py's."""

from support import SEATS, expected, sample  # noqa: F401 - re-exported
from support.world import legal_play, play_legal_cards, state_of  # noqa: F401 - re-exported

from games.models import Match, MatchEvent, MatchProjection

SEATED = dict(zip(SEATS, ("north", "east", "south", "west")))  # usernames of the conftest users


def stored_state(match) -> dict:
    """Everything a command may write for one match, to compare before and after."""
    projection = MatchProjection.objects.get(pk=match.pk)
    return {
        "events": list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "hash")),
        "version": Match.objects.get(pk=match.pk).version,
        "projection": (projection.version, projection.head_hash, projection.snapshot, projection.summary),
        "deal_scores": list(match.deal_scores.order_by("number", "seat").values()),
    }
