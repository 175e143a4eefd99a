"""Webhooks for paper-sheet deals (issue 13): a deal filed whole has ended as soon as it is filed."""

from games.models import Match, MatchEvent
from webhooks.events import ended_deals

T = MatchEvent.Type


def test_a_tallied_deal_ends_when_it_is_filed_live_or_in_a_record():
    summary = {"deals": [{"number": 1}, {"number": 2}, {"number": 3}]}
    live = [MatchEvent(type=T.DEAL_TALLIED, payload={"number": 3, "tally": {}})]
    imported = [
        MatchEvent(type=T.DEAL_STARTED, payload={"number": 1}),
        MatchEvent(type=T.CARD_PLAYED, payload={}),
        MatchEvent(type=T.DEAL_TALLIED, payload={"number": 2, "points": {}}),
        MatchEvent(type=T.DEAL_TALLIED, payload={"number": 3, "points": {}}),
    ]

    assert ended_deals(Match.Dealing.RECORDED, live, summary, False) == [3]
    assert ended_deals(Match.Dealing.RECORDED, imported, summary, False) == [1, 2, 3]
