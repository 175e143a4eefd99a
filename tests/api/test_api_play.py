"""Whole deals through HTTP: four players at a server-dealt table, and a scorer recording a
physical table (with a compensating odgrywka whose lead is sold)."""

import random

import pytest
from api_helpers import SEATS, api_people, expected, fresh_users, owner, post, sample, seats_accepted, state, url
from support.once import once_per_module
from support.summaries import as_expected

from games.domain.chain import deal_commitment

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


def test_four_players_play_a_whole_server_dealt_deal_each_from_his_own_view(dealt_match, clients):
    at = {"N": clients["ala"], "E": clients["bartek"], "S": clients["celina"], "W": clients["darek"]}
    rng = random.Random(3)
    last = None
    for play in range(52):
        views = {seat: state(client, dealt_match) for seat, client in at.items()}
        on_turn = views["N"]["deal"]["to_play"]
        assert sum(len(view["deal"]["hand"]) for view in views.values()) == 52 - play
        for seat, view in views.items():
            deal = view["deal"]
            assert deal["plays"] == play
            assert deal["hands"] is None
            assert (deal["legal_cards"] != []) == (seat == on_turn)
        card = rng.choice(views[on_turn]["deal"]["legal_cards"])
        last = post(at[on_turn], dealt_match, "plays", {"card": card})
        assert last.status_code == 201, last.content
        assert last.json()["events"][0]["payload"] == {"seat": on_turn, "card": card}

    types = [e["type"] for e in last.json()["events"]]
    assert types == ["card_played", "hands_revealed"]
    revealed = last.json()["events"][1]["payload"]
    events = clients["ala"].get(url(dealt_match, "events")).json()["events"]
    dealt = next(e for e in events if e["type"] == "deal_started")
    assert "hands" not in dealt["payload"]
    assert deal_commitment(revealed["hands"], revealed["salt"]) == dealt["payload"]["commitment"]

    match = clients["ala"].get(url(dealt_match)).json()
    assert match["version"] == last.json()["version"] == 2 + 52 + 1
    assert len(match["deals"]) == 1 and sum(match["deals"][0]["tricks"].values()) == 13
    assert match["next_deal"]["number"] == 2
    assert state(clients["ala"], dealt_match)["deal"] is None


def test_a_scorer_records_three_deals_of_a_paper_match_with_a_lead_sale(clients, django_user_model):
    record, summary = sample("m1-legal"), expected("m1-legal")
    for name in record["players"].values():
        django_user_model.objects.create_user(name)
    scorer = clients["scorer"]
    created = scorer.post(
        "/api/v1/matches/",
        {
            "seats": record["players"],
            "first_dealer": record["first_dealer"],
            "dealing": "recorded",
            "ruleset": {"options": record["ruleset"]["options"]},
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert created.json()["scorer"] == "scorer"
    seats_accepted(match_id)

    for number, deal in enumerate(record["deals"][:3], 1):
        started = post(scorer, match_id, "deals", {"hands": deal["hands"]})
        assert started.status_code == 201, started.content
        view = state(scorer, match_id)["deal"]
        assert view["number"] == number and view["hands"] is not None
        if "sale" in deal:  # deal 3: N's compensating odgrywka, lead sold to E for 2 tricks
            assert view["compensating"] and view["lead_sale"]["can_sell"]
            assert view["lead_sale"]["holder"] == "N"
            decoy = post(scorer, match_id, "lead-offers", {"price": 5, "seat": "W"})
            offered = post(
                scorer, match_id, "lead-offers", {"price": deal["sale"]["price"], "seat": deal["sale"]["buyer"]}
            )
            assert decoy.status_code == offered.status_code == 201
            offers = state(scorer, match_id)["deal"]["lead_sale"]["offers"]
            assert offers == [
                {"seq": decoy.json()["events"][0]["seq"], "buyer": "W", "price": 5},
                {"seq": offered.json()["events"][0]["seq"], "buyer": "E", "price": 2},
            ]
            sold = post(scorer, match_id, "lead-decision", {"offer": offers[1]["seq"]})
            assert sold.status_code == 201, sold.content
            assert sold.json()["events"][0]["payload"] == {"offer_index": 1, "buyer": "E", "price": 2}
            after = state(scorer, match_id)["deal"]
            assert after["leader"] == after["to_play"] == "E" and not after["lead_sale"]["can_sell"]
            assert after["lead_sale"]["sale"] == {"buyer": "E", "price": 2}
        for card in deal["plays"]:
            played = post(scorer, match_id, "plays", {"card": card, "seat": owner(deal["hands"], card)})
            assert played.status_code == 201, played.content

    match = scorer.get(url(match_id)).json()
    assert as_expected(match["deals"], summary["deals"]) == summary["deals"][:3]
    assert match["deals"][2]["compensating"] and match["deals"][2]["leader"] == "E"
    assert match["totals"] == {seat: sum(d["points"][seat] for d in summary["deals"][:3]) for seat in SEATS}
    exported = scorer.get(url(match_id, "record")).json()
    assert exported["deals"] == [
        {"hands": d["hands"], **({"sale": d["sale"]} if "sale" in d else {}), "plays": d["plays"]}
        for d in record["deals"][:3]
    ]
