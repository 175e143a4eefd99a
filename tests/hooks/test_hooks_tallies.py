"""Webhooks for paper-sheet deals (issue 13): a deal filed whole has ended as soon as it is filed."""

import pytest
from hooks_helpers import PLAYERS, hooks_world, simulated
from support.world import file_by_points, season_match

from games.domain.event_types import CardPlayed, DealStarted, DealTallied
from games.engine import record as records
from games.engine.replay import replay
from games.models import Match
from webhooks.events import ended_deals


def test_a_tallied_deal_ends_when_it_is_filed_live_or_in_a_record():
    summary = {"deals": [{"number": 1}, {"number": 2}, {"number": 3}]}
    live = [DealTallied(number=3, kind="rozbojnik", entry="tally", tally={})]
    imported = [
        DealStarted(number=1, kind="rozbojnik", dealer="N", leader="E", compensating=False, hands=None),
        CardPlayed(seat="E", card="2C"),
        DealTallied(number=2, kind="rozbojnik", entry="points", points={}),
        DealTallied(number=3, kind="rozbojnik", entry="points", points={}),
    ]

    assert ended_deals(Match.Dealing.RECORDED, live, summary, False) == [3]
    assert ended_deals(Match.Dealing.RECORDED, imported, summary, False) == [1, 2, 3]


# --- a season match filed live, deal by deal, from its paper sheet -------------------------------------


@pytest.fixture
def world(django_user_model):
    return hooks_world()


def test_a_season_match_filed_deal_by_deal_announces_every_deal_and_its_end(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    """Issue 29: a deal filed from the paper sheet (R33: its points) is a finished deal like any
    other — ``deal.finished`` for each, and ``match.finished`` when the last one ends the match."""
    hook(["deal.finished", "match.finished"])
    record = simulated(3)
    played = replay(records.decode(record)).summary()["deals"]
    match = season_match(world, PLAYERS)

    with django_capture_on_commit_callbacks(execute=True):
        file_by_points(match, record, world.users["sam"])

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    types = [r.headers["X-Kierki-Event"] for r in receiver.received]
    assert types == ["deal.finished"] * len(played) + ["match.finished"]
    assert [r.json()["data"]["deal"] for r in receiver.of_type("deal.finished")] == [d["number"] for d in played]
    assert receiver.received[-1].json()["data"]["totals"] == match.projection.summary["totals"]
