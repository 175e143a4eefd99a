"""POST /matches/{id}/corrections/ (issue 23, item 3): the latest deal filed from a paper sheet,
filed again in its place — one ``deal_corrected`` event; bad input as for ``tallies/`` (422
problem+json naming the deal and seat), a caller who may not correct 403; nothing stored."""

import pytest
from api_helpers import PROBLEM, SEATS, api_people, create_match, fresh_users, post, seats_accepted
from support import counts
from support.once import once_per_module

from games.models import DealScore, Match, MatchEvent

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)


@pytest.fixture
def users(built):
    return fresh_users(built)


# R31: two real sheets of the same rozbójnik — E took nothing on the first, every seat something on the second
E_TOOK_NOTHING = {"N": counts(3, 4, 1, 2), "E": counts(0), "S": counts(6, 5, 2, 4, True, 2), "W": counts(4, 4, 1, 2)}
ALL_TOOK = {"N": counts(3, 4, 1, 2), "E": counts(3, 3, 1, 2), "S": counts(4, 5, 1, 2, True, 2), "W": counts(3, 1, 1, 2)}


def stored() -> tuple[int, int, int]:
    return Match.objects.count(), MatchEvent.objects.count(), DealScore.objects.count()


@pytest.fixture
def filed(clients):
    """A recorded match scored by ``scorer`` (deals R O) with its first deal filed: E took nothing."""
    response = create_match(clients["scorer"], "recorded", ruleset={"options": {"regular_deals": ["R", "O"]}})
    match_id = response.json()["id"]
    seats_accepted(match_id)
    assert post(clients["scorer"], match_id, "tallies", {"tally": E_TOOK_NOTHING}).status_code == 201
    return match_id


def test_the_scorer_corrects_the_deal_and_the_summary_follows_the_new_sheet(clients, filed):
    response = post(clients["scorer"], filed, "corrections", {"tally": ALL_TOOK}, **{"If-Match": '"2"'})

    assert response.status_code == 201, response.content
    assert [e["type"] for e in response.json()["events"]] == ["deal_corrected"]
    assert response["ETag"] == '"3"'
    summary = Match.objects.get(pk=filed).projection.summary
    assert len(summary["deals"]) == 1
    assert all(summary["totals"][seat] < 0 for seat in SEATS)  # E took something: no compensating deal for him
    assert summary["next_deal"]["compensating"] is False


@pytest.mark.parametrize(
    "body, seat",
    [
        ({"tally": {**ALL_TOOK, "W": {**ALL_TOOK["W"], "hearts": "4"}}}, "W"),
        ({"points": {"N": -40, "E": -30, "S": -30, "W": -31}}, None),
        ({}, None),
        ({"tally": [1, 2, 3]}, None),
    ],
)
def test_a_bad_correction_is_422_bad_tally_and_stores_nothing(clients, filed, body, seat):
    before = stored()

    response = post(clients["scorer"], filed, "corrections", body)

    assert response.status_code == 422, response.content
    assert response["Content-Type"] == PROBLEM
    problem = response.json()
    assert problem["code"] == "bad_tally"
    assert problem["error"]["deal"] == 1 and problem["error"]["seat"] == seat
    assert stored() == before


@pytest.mark.parametrize("who, status", [("ala", 403), ("outsider", 404)])
def test_only_the_scorer_or_an_arbiter_corrects(clients, filed, who, status):
    before = stored()

    response = post(clients[who], filed, "corrections", {"tally": ALL_TOOK})

    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM
    assert stored() == before


def test_nothing_to_correct_before_a_deal_is_filed_is_422(clients):
    response = create_match(clients["scorer"], "recorded", ruleset={"options": {"regular_deals": ["R", "O"]}})
    match_id = response.json()["id"]
    seats_accepted(match_id)

    refused = post(clients["scorer"], match_id, "corrections", {"tally": ALL_TOOK})

    assert refused.status_code == 422 and refused.json()["code"] == "ruling_not_allowed"
    assert refused["Content-Type"] == PROBLEM
