"""Webhooks for paper-sheet deals (issue 13): a deal filed whole has ended as soon as it is filed."""

from games.event_types import CardPlayed, DealStarted, DealTallied
from games.models import Match
from webhooks.events import ended_deals


def test_a_tallied_deal_ends_when_it_is_filed_live_or_in_a_record():
    summary = {"deals": [{"number": 1}, {"number": 2}, {"number": 3}]}
    live = [DealTallied(number=3, kind="rozbojnik", entry="tally", tally={})]
    imported = [
        DealStarted(number=1, kind="rozbojnik", dealer="N", leader="E", compensating=False, hands={}),
        CardPlayed(seat="E", card="2C"),
        DealTallied(number=2, kind="rozbojnik", entry="points", points={}),
        DealTallied(number=3, kind="rozbojnik", entry="points", points={}),
    ]

    assert ended_deals(Match.Dealing.RECORDED, live, summary, False) == [3]
    assert ended_deals(Match.Dealing.RECORDED, imported, summary, False) == [1, 2, 3]
