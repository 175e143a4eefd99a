"""Hidden information: before a deal ends, a player learns no other hand — not through the
state, the events, the record, an error body, or the schema."""

import json
import re

import pytest
from api_helpers import dealt_once, post, sample, state, url

pytestmark = pytest.mark.django_db


built, users, dealt_match = dealt_once()  # the users and the dealt match, built once (support.once)


CARD = re.compile(r"^[2-9TJQKA][SHDC]$")


def test_the_state_shows_a_player_his_own_hand_and_the_scorer_and_staff_every_hand(dealt_match, clients):
    table = state(clients["scorer"], dealt_match)["deal"]
    ala = state(clients["ala"], dealt_match)
    staff = state(clients["staff"], dealt_match)["deal"]

    assert ala["role"] == "player" and ala["seat"] == "N"
    assert ala["deal"]["hand"] == table["hands"]["N"] and len(ala["deal"]["hand"]) == 13
    assert ala["deal"]["hands"] is None
    assert ala["deal"]["legal_cards"] == []  # E is on turn
    assert table["legal_cards"] == state(clients["bartek"], dealt_match)["deal"]["legal_cards"] != []
    assert staff["hands"] == table["hands"] and table["hand"] is None


def test_the_events_of_a_server_dealt_deal_carry_a_commitment_not_the_hands(dealt_match, clients):
    for who in ("ala", "scorer", "staff"):
        events = clients[who].get(url(dealt_match, "events")).json()["events"]
        dealt = [e for e in events if e["type"] == "deal_started"]
        assert len(dealt) == 1 and set(dealt[0]["payload"]) == {
            "number",
            "kind",
            "dealer",
            "leader",
            "compensating",
            "commitment",
        }
        assert not any(e["type"] == "hands_revealed" for e in events)


def test_the_record_holds_the_deal_in_play_only_for_the_scorer_and_staff(dealt_match, clients):
    assert clients["ala"].get(url(dealt_match, "record")).json()["deals"] == []
    table = state(clients["scorer"], dealt_match)["deal"]["hands"]
    for who in ("scorer", "staff"):
        deals = clients[who].get(url(dealt_match, "record")).json()["deals"]
        assert len(deals) == 1 and deals[0]["plays"] == []
        assert {seat: set(cards) for seat, cards in deals[0]["hands"].items()} == {
            seat: set(cards) for seat, cards in table.items()
        }


@pytest.fixture
def recorded_in_play(clients, django_user_model):
    """m1-partial imported by the scorer, its players as users: deal 5 is in play."""
    record = sample("m1-partial")
    for name in record["players"].values():
        django_user_model.objects.create_user(name)
    match_id = clients["scorer"].post("/api/v1/matches/import/", record, format="json").json()["id"]
    return match_id, record


def test_a_recorded_deal_in_play_shows_a_player_his_own_hand_and_no_hashes(
    recorded_in_play, client_for, django_user_model, clients
):
    match_id, record = recorded_in_play
    south = client_for(django_user_model.objects.get(username=record["players"]["S"]))

    events = south.get(url(match_id, "events")).json()["events"]
    dealt = [e for e in events if e["type"] == "deal_started"]
    in_play = dealt[-1]
    assert in_play["payload"]["hands"] == {"S": record["deals"][-1]["hands"]["S"]}
    assert [e["seq"] for e in events if e["redacted"]] == [e["seq"] for e in events if e["seq"] >= in_play["seq"]]
    assert all(e["hash"] is None for e in events if e["seq"] >= in_play["seq"])
    assert all(len(d["payload"]["hands"]) == 4 and d["hash"] for d in dealt[:-1])  # finished deals: public
    later = south.get(url(match_id, "events"), {"after": in_play["seq"] + 1}).json()["events"]
    assert later and all(e["hash"] is None for e in later)

    full = clients["scorer"].get(url(match_id, "events")).json()["events"]
    assert full[in_play["seq"] - 1]["payload"]["hands"] == record["deals"][-1]["hands"]
    assert all(e["hash"] and not e["redacted"] for e in full)

    assert len(south.get(url(match_id, "record")).json()["deals"]) == len(record["deals"]) - 1
    assert clients["scorer"].get(url(match_id, "record")).json()["deals"] == record["deals"]


def test_a_player_playing_in_a_recorded_deal_gets_no_hash_back(recorded_in_play, client_for, django_user_model):
    match_id, record = recorded_in_play
    scorer_view = state(client_for(django_user_model.objects.get(username="scorer")), match_id)["deal"]
    on_turn = client_for(django_user_model.objects.get(username=record["players"][scorer_view["to_play"]]))

    response = post(on_turn, match_id, "plays", {"card": scorer_view["legal_cards"][0]})

    assert response.status_code == 201
    assert [(e["hash"], e["redacted"]) for e in response.json()["events"]] == [(None, True)]


def _without_card(body: dict) -> dict:
    return {**body, "error": {**body["error"], "card": None}}


def test_a_card_you_do_not_hold_is_card_not_in_hand_wherever_it_is(dealt_match, clients):
    hands = state(clients["scorer"], dealt_match)["deal"]["hands"]
    led = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    assert post(clients["bartek"], dealt_match, "plays", {"card": led}).status_code == 201
    # celina (S) is on turn: a card of ala's, the card just played, a card of darek's
    tries = [hands["N"][0], led, hands["W"][-1]]

    bodies = [post(clients["celina"], dealt_match, "plays", {"card": card}).json() for card in tries]

    assert [b["error"] for b in bodies] == [
        {"code": "card_not_in_hand", "deal": 1, "play_index": 1, "seat": "S", "card": card} for card in tries
    ]
    assert all(_without_card(b) == _without_card(bodies[0]) for b in bodies)
    assert bodies[0]["status"] == 422 and bodies[0]["rule"] == "R2"


def test_playing_out_of_turn_is_not_your_turn_whoever_holds_the_card(dealt_match, clients):
    hands = state(clients["scorer"], dealt_match)["deal"]["hands"]
    tries = [hands["N"][0], hands["S"][0], hands["E"][0]]  # ala (N) while E is on turn

    bodies = [post(clients["ala"], dealt_match, "plays", {"card": card}).json() for card in tries]

    assert [b["error"] for b in bodies] == [
        {"code": "not_your_turn", "deal": 1, "play_index": 0, "seat": "E", "card": card} for card in tries
    ]
    assert all(_without_card(b) == _without_card(bodies[0]) for b in bodies)
    assert "hand" not in bodies[0]["detail"]


def test_the_schema_has_no_real_hands_in_its_examples(dealt_match, clients, openapi_schema):
    hands = state(clients["scorer"], dealt_match)["deal"]["hands"]

    schema = openapi_schema  # the one /api/v1/schema/ serves, generated once per session

    text = json.dumps(schema)
    assert not any(json.dumps(hand) in text for hand in hands.values())

    def card_lists(node):
        if isinstance(node, dict):
            for value in node.values():
                yield from card_lists(value)
        elif isinstance(node, list):
            if node and all(isinstance(c, str) and CARD.match(c) for c in node):
                yield node
            for value in node:
                yield from card_lists(value)

    assert all(len(cards) <= 3 for cards in card_lists(schema))
