"""Deals filed from a paper sheet (R31–R33, issue 13): exports of imported paper sheets (every
sample is imported in test_api_import.py), live filing with POST /matches/{id}/tallies/, and bad
input answered 422 ``bad_tally`` with nothing stored."""

import pytest
from api_helpers import (
    PLAYERS,
    PROBLEM,
    SEATS,
    api_people,
    create_match,
    fresh_users,
    post,
    sample,
    sample_names,
    seats_accepted,
    url,
)
from support import counts
from support.once import once_per_module

from games.engine import record as records
from games.engine import replay
from games.models import DealScore, Match, MatchEvent, Player

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


IMPORT = "/api/v1/matches/import/"


def stored() -> tuple[int, int, int, int]:
    return Match.objects.count(), MatchEvent.objects.count(), Player.objects.count(), DealScore.objects.count()


SHEET = {"N": counts(3, 4, 1, 2), "E": counts(0), "S": counts(6, 5, 2, 4, True, 2), "W": counts(4, 4, 1, 2)}


@pytest.fixture
def recorded(clients):
    """A recorded match scored by ``scorer`` (regular deals R O, first dealer N, so E leads deal 1),
    played on 2024-11-05 and filed later; the four players have accepted their seats (issue 30)."""
    response = create_match(
        clients["scorer"], "recorded", ruleset={"options": {"regular_deals": ["R", "O"]}}, played_on="2024-11-05"
    )
    assert response.status_code == 201, response.content
    seats_accepted(response.json()["id"])
    return response.json()["id"]


# --- the import --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in sample_names(tally=True) if n.startswith("tally-legal")])
def test_an_imported_paper_sheet_exports_the_same_record_with_its_date(clients, name):
    """RECORD_FORMAT.md 1.1: the tallies, points, sales, hands, plays and played_on come back as filed."""
    record = sample(name)
    match_id = clients["staff"].post(IMPORT, record, format="json").json()["id"]

    exported = clients["staff"].get(url(match_id, "record")).json()

    assert exported == record
    assert clients["staff"].get(url(match_id)).json()["played_on"] == record.get("played_on")


def test_an_imported_filed_deal_is_one_deal_tallied_event(clients):
    """Issue 13: a filed deal is one immutable event in the hash chain."""
    record = sample("tally-legal-points-m800005")
    match_id = clients["staff"].post(IMPORT, record, format="json").json()["id"]

    types = list(MatchEvent.objects.filter(match_id=match_id).order_by("seq").values_list("type", flat=True))

    assert types == ["match_created"] + ["deal_tallied"] * len(record["deals"])


# --- live filing ----------------------------------------------------------------------------------------


def test_the_scorer_files_an_evening_deal_by_deal_and_gets_what_the_record_replays_to(clients, recorded):
    """R31–R33 live: tally, then points with the sale of the compensating odgrywka, then the
    remaining deal; If-Match and the ETag as for every command."""
    scorer = clients["scorer"]
    first = post(scorer, recorded, "tallies", {"tally": SHEET}, **{"If-Match": '"1"'})
    assert first.status_code == 201, first.content
    assert [e["type"] for e in first.json()["events"]] == ["deal_tallied"]
    assert first["ETag"] == '"2"'
    # E took no trick: a compensating odgrywka led by E, who sells the lead to S for 2 tricks
    second = post(
        scorer,
        recorded,
        "tallies",
        {"points": {"N": 20, "E": 40, "S": 40, "W": 30}, "sale": {"buyer": "S", "price": 2}},
    )
    assert second.status_code == 201, second.content
    third = post(scorer, recorded, "tallies", {"tally": {s: {"tricks": t} for s, t in zip(SEATS, (4, 3, 3, 3))}})
    assert third.status_code == 201, third.content

    summary = scorer.get(url(recorded)).json()
    expected = replay(
        records.decode(
            {
                "format": "kierki-match/1",
                "ruleset": {"name": "rozbojnik-odgrywka", "options": {"regular_deals": ["R", "O"]}},
                "players": dict(zip(SEATS, PLAYERS)),
                "first_dealer": "N",
                "deals": [
                    {"tally": SHEET},
                    {"points": {"N": 20, "E": 40, "S": 40, "W": 30}, "sale": {"buyer": "S", "price": 2}},
                    {"tally": {s: {"tricks": t} for s, t in zip(SEATS, (4, 3, 3, 3))}},
                ],
            }
        )
    ).summary()
    assert summary["status"] == "finished" and summary["complete"] is True
    assert summary["deals"] == expected["deals"] and summary["totals"] == expected["totals"]
    assert [d["entry"] for d in summary["deals"]] == ["tally", "points", "tally"]
    assert summary["deals"][1]["tricks"] is None and summary["deals"][1]["leader"] == "S"
    assert summary["played_on"] == "2024-11-05"


def test_a_repeated_idempotency_key_files_the_deal_once(clients, recorded):
    """Like every command: the retry gets the first response, and one event is stored."""
    headers = {"Idempotency-Key": "sheet-1-deal-1"}
    first = post(clients["scorer"], recorded, "tallies", {"tally": SHEET}, **headers)
    again = post(clients["scorer"], recorded, "tallies", {"tally": SHEET}, **headers)

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert MatchEvent.objects.filter(match_id=recorded, type="deal_tallied").count() == 1


@pytest.mark.parametrize("who, status", [("ala", 403), ("staff", 403), ("outsider", 404)])
def test_only_the_scorer_of_a_recorded_match_files_from_a_paper_sheet(clients, recorded, who, status):
    response = post(clients[who], recorded, "tallies", {"tally": SHEET})

    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM


def test_a_server_dealt_match_takes_no_paper_sheet(clients, server_match):
    response = post(clients["scorer"], server_match, "tallies", {"tally": SHEET})

    assert response.status_code == 403 and response.json()["code"] == "not_allowed"


# --- bad input: 422 bad_tally, nothing stored ---------------------------------------------------------------


@pytest.mark.parametrize(
    "body, seat",
    [
        ({"tally": {**SHEET, "W": {**SHEET["W"], "hearts": "4"}}}, "W"),  # R32 (a)
        ({"tally": {k: v for k, v in SHEET.items() if k != "S"}}, "S"),  # R32 (a): a missing seat
        ({"tally": {**SHEET, "E": counts(0, 1)}}, "E"),  # R32 (b)
        ({"tally": {**SHEET, "W": counts(4, 5, 1, 2)}}, None),  # R32 (c)
        ({"tally": {s: {"tricks": 3 + (s == "N")} for s in SEATS}}, "N"),  # a rozbójnik with odgrywka keys
        ({"points": {"N": -40, "E": -30, "S": -30, "W": -31}}, None),  # R33: no tally gives them
        ({"points": {"N": -1, "E": -43, "S": -43, "W": -43}}, None),
        ({"points": {"N": "x", "E": -43, "S": -43, "W": -44}}, None),
        ({"tally": SHEET, "points": {"N": -50, "E": 0, "S": -156, "W": -54}}, None),  # both
        ({}, None),  # neither
        ({"tally": [1, 2, 3]}, None),
    ],
)
def test_a_malformed_or_impossible_deal_is_422_bad_tally_naming_deal_and_seat(clients, recorded, body, seat):
    """Issue 13, Bad input: the R30-style error object, nothing stored."""
    before = stored()

    response = post(clients["scorer"], recorded, "tallies", body)

    assert response.status_code == 422, response.content
    assert response["Content-Type"] == PROBLEM
    problem = response.json()
    assert problem["code"] == "bad_tally" and problem["type"].endswith("/problems/bad_tally/")
    assert problem["error"] == {"code": "bad_tally", "deal": 1, "play_index": None, "seat": seat, "card": None}
    assert stored() == before


def test_a_sale_outside_a_compensating_odgrywka_is_sale_not_allowed(clients, recorded):
    """The check order of a filed deal: bad_tally, then sale_not_allowed, then bad_sale."""
    response = post(clients["scorer"], recorded, "tallies", {"tally": SHEET, "sale": {"buyer": "S", "price": 2}})

    assert response.status_code == 422 and response.json()["error"]["code"] == "sale_not_allowed"


def test_a_malformed_sale_is_bad_sale(clients, recorded):
    post(clients["scorer"], recorded, "tallies", {"tally": SHEET})

    response = post(
        clients["scorer"],
        recorded,
        "tallies",
        {"points": {"N": 20, "E": 40, "S": 40, "W": 30}, "sale": {"buyer": "E", "price": 2}},
    )

    assert response.status_code == 422
    assert response.json()["error"] == {"code": "bad_sale", "deal": 2, "play_index": None, "seat": "E", "card": None}


@pytest.mark.parametrize("sale", [{"buyer": ["S"], "price": 2}, {"buyer": "S"}, "S for 2", {"buyer": "S", "price": 0}])
def test_a_sale_that_is_not_a_seat_and_a_price_is_bad_sale_storing_nothing(clients, recorded, sale):
    post(clients["scorer"], recorded, "tallies", {"tally": SHEET})
    before = stored()

    response = post(
        clients["scorer"], recorded, "tallies", {"points": {"N": 20, "E": 40, "S": 40, "W": 30}, "sale": sale}
    )

    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_sale"
    assert stored() == before


def test_bad_tally_is_a_listed_problem_type(clients):
    response = clients["ala"].get("/api/v1/problems/bad_tally/")

    assert response.status_code == 200
    assert response.json()["status"] == 422 and response.json()["rule"] == "R32"


def test_played_on_must_be_a_date_on_creation(clients):
    response = create_match(clients["scorer"], "recorded", played_on="yesterday")

    assert response.status_code == 400 and response.json()["field"] == "played_on"


def test_a_summary_stored_before_paper_sheets_reads_as_played_deals(clients):
    """Projections written before RECORD_FORMAT.md 1.1 have no ``entry``: their deals were played."""
    from games.models import MatchProjection

    match_id = clients["scorer"].post(IMPORT, sample("m1-legal"), format="json").json()["id"]
    projection = MatchProjection.objects.get(pk=match_id)
    for deal in projection.summary["deals"]:
        del deal["entry"]
    projection.save(update_fields=["summary"])

    response = clients["scorer"].get(url(match_id))

    assert response.status_code == 200
    assert {deal["entry"] for deal in response.json()["deals"]} == {"played"}


def test_the_lead_of_a_filed_compensating_odgrywka_is_sold_through_the_offer_and_decision_commands(clients, recorded):
    """R26–R28 before the sheet's deal is filed: offers, the holder's decision, then the points;
    the record and the audit tell the same sale."""
    scorer = clients["scorer"]
    post(scorer, recorded, "tallies", {"tally": SHEET})  # E took no trick: E's compensating odgrywka is due
    decoy = post(scorer, recorded, "lead-offers", {"price": 5, "seat": "W"})
    offered = post(scorer, recorded, "lead-offers", {"price": 2, "seat": "S"})
    assert decoy.status_code == offered.status_code == 201, offered.content
    sold = post(scorer, recorded, "lead-decision", {"offer": offered.json()["events"][0]["seq"]})
    assert sold.status_code == 201, sold.content
    assert sold.json()["events"][0]["payload"] == {"offer_index": 1, "buyer": "S", "price": 2}

    filed = post(scorer, recorded, "tallies", {"points": {"N": 20, "E": 40, "S": 40, "W": 30}})
    twice = post(scorer, recorded, "lead-decision", {"keep": True})

    assert filed.status_code == 201, filed.content
    assert twice.status_code == 422 and twice.json()["code"] == "sale_not_allowed"
    deal = scorer.get(url(recorded)).json()["deals"][1]
    assert deal["leader"] == "S" and deal["points"] == {"N": 20, "E": 60, "S": 20, "W": 30}
    assert scorer.get(url(recorded, "record")).json()["deals"][1] == {
        "points": {"N": 20, "E": 40, "S": 40, "W": 30},
        "sale": {"buyer": "S", "price": 2},
    }
    assert clients["staff"].get(url(recorded, "audit")).json()["rules"]["ok"] is True


def test_no_offer_is_taken_for_a_regular_deal_before_it_is_dealt(clients, recorded):
    response = post(clients["scorer"], recorded, "lead-offers", {"price": 2, "seat": "S"})

    assert response.status_code == 422 and response.json()["code"] == "sale_not_allowed"
