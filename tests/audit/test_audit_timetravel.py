"""GET /api/v1/matches/{id}/state/?at=SEQ: the state right after event SEQ, every hand as it
stood then; arbiters and the scorer at any point, players only where nothing is still hidden."""

import pytest
from audit_helpers import SEATS, server_deal_played, simulated, url

from games.engine import MatchState, Ruleset, Seat
from games.engine.cards import BY_NAME
from games.models import MatchEvent
from games.write import services as games

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


def at(client, match, seq):
    return client.get(url(match.pk, "state"), {"at": seq})


def _replayed(record: dict, deal_index: int, plays: int):
    """The engine's own state after ``plays`` cards of deal ``deal_index`` (0-based) of ``record``."""
    rules = Ruleset.from_options(record["ruleset"]["options"])
    state = MatchState.start(rules, Seat[record["first_dealer"]])
    for index, deal in enumerate(record["deals"][: deal_index + 1]):
        state = state.start_deal([[BY_NAME[c] for c in deal["hands"][s]] for s in SEATS])
        count = len(deal["plays"]) if index < deal_index else plays
        for card in deal["plays"][:count]:
            state = state.play(BY_NAME[card])
    return state


def test_every_event_of_a_sample_deal_shows_the_state_replay_gives_for_that_prefix(season_match, clients):
    record = simulated(3)
    match = season_match(seed=3)
    dealt_at = (
        MatchEvent.objects.filter(match=match, type=T.DEAL_STARTED).order_by("seq").values_list("seq", flat=True)[1]
    )  # deal 2: after a whole deal, so totals and the schedule matter too

    for plays in range(0, 53):
        seq = dealt_at + plays
        response = at(clients["ari"], match, seq)
        assert response.status_code == 200, response.content
        body = response.json()
        expected = _replayed(record, 1, plays)
        assert body["at"] == seq and body["event"]["seq"] == seq
        assert body["totals"] == dict(zip(SEATS, expected.totals))
        assert len(body["deals"]) == len(expected.results)
        if expected.deal is None:  # the 52nd card: the deal is over, nothing left in any hand
            assert body["deal"] is None and body["deals"][-1]["number"] == 2
            continue
        deal, want = body["deal"], expected.deal
        assert deal["number"] == 2
        assert deal["hands"] == {s.name: [str(c) for c in want.hand(s)] for s in Seat}
        assert deal["dealt"] == {s: sorted(record["deals"][1]["hands"][s], key=BY_NAME.get) for s in SEATS}
        assert deal["trick"] == [{"seat": s.name, "card": str(c)} for s, c in want.current_trick()]
        assert deal["tricks"] == dict(zip(SEATS, want.tricks)) and deal["plays"] == plays
        assert deal["to_play"] == want.to_play.name
        assert deal["legal_cards"] == [str(c) for c in want.legal_cards(want.to_play)]


def test_the_state_at_the_last_event_is_the_live_state(season_match, clients):
    match = season_match(deals=1)
    games.deal_start(match_id=match.pk, actor=match.scorer, hands=simulated(1)["deals"][1]["hands"])
    match.refresh_from_db()

    travelled = at(clients["staff"], match, match.version).json()
    live = clients["sam"].get(url(match.pk, "state")).json()

    assert travelled["deal"]["hands"] == live["deal"]["hands"]
    assert travelled["deal"]["legal_cards"] == live["deal"]["legal_cards"]
    assert travelled["next_deal"] == live["next_deal"] and travelled["totals"] == live["totals"]


def test_a_player_may_look_inside_finished_deals_but_not_into_the_deal_in_play(season_match, clients):
    match = season_match(deals=1)
    games.deal_start(match_id=match.pk, actor=match.scorer, hands=simulated(1)["deals"][1]["hands"])
    match.refresh_from_db()
    finished_at = MatchEvent.objects.filter(match=match, type=T.CARD_PLAYED).order_by("seq")[51].seq

    assert at(clients["celina"], match, 1).status_code == 200  # before any deal
    inside = at(clients["celina"], match, 20).json()  # deal 1 is over now: all four hands then
    assert all(len(cards) > 0 for cards in inside["deal"]["hands"].values())
    assert at(clients["celina"], match, finished_at).status_code == 200
    refused = at(clients["celina"], match, match.version)  # deal 2 in play
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert at(clients["sam"], match, match.version).status_code == 200  # the scorer sees every hand live anyway
    assert at(clients["ari"], match, match.version).status_code == 200


def test_a_player_never_sees_the_hands_of_a_deal_an_abandonment_cut_short(season_match, clients, world):
    match = season_match(deals=1)
    games.deal_start(match_id=match.pk, actor=match.scorer, hands=simulated(1)["deals"][1]["hands"])
    games.match_abandon(match_id=match.pk, actor=world.users["ala"])
    match.refresh_from_db()

    assert at(clients["ala"], match, match.version - 1).status_code == 403
    assert at(clients["staff"], match, match.version - 1).status_code == 200


@pytest.mark.parametrize("value", [0, -1, "x", 10_000])
def test_a_seq_outside_the_log_is_invalid(season_match, clients, value):
    match = season_match(deals=1)

    response = at(clients["ari"], match, value)

    assert response.status_code == 400 and response.json()["field"] == "at"


@pytest.mark.parametrize("who", ["member", "rival", "outsider"])
def test_outsiders_cannot_travel(season_match, clients, who):
    match = season_match(deals=1)

    assert at(clients[who], match, 1).status_code == 404


def test_without_at_the_state_endpoint_is_unchanged(season_match, clients):
    match = season_match(deals=1)

    body = clients["ala"].get(url(match.pk, "state")).json()

    assert "at" not in body and body["role"] == "player"


def test_time_travel_replays_server_dealt_hands_from_their_reveal(world, clients):
    match = server_deal_played(world)
    revealed = MatchEvent.objects.get(match=match, type=T.HANDS_REVEALED).payload["hands"]

    body = at(clients["bartek"], match, 2).json()  # right after deal_started

    assert {s: sorted(c) for s, c in body["deal"]["hands"].items()} == {s: sorted(c) for s, c in revealed.items()}
