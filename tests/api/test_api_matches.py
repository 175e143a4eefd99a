"""Creating, listing and reading matches."""

import pytest
from api_helpers import SEATS, api_people, fresh_users, sample, url
from support.once import once_per_module

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


def test_creating_a_match_answers_201_with_the_match_its_etag_and_location(clients):
    body = {
        "seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
        "first_dealer": "W",
        "dealing": "server",
        "ruleset": {"options": {"last_tricks": [7, 13]}},
    }

    response = clients["ala"].post("/api/v1/matches/", body, format="json")

    assert response.status_code == 201
    match = response.json()
    assert response["ETag"] == '"1"' and response["Location"].endswith(url(match["id"]))
    assert {
        k: match[k]
        for k in (
            "status",
            "version",
            "dealing",
            "first_dealer",
            "seats",
            "scorer",
            "ruleset",
            "complete",
            "deals",
            "totals",
            "winners",
        )
    } == {
        "status": "in_progress",
        "version": 1,
        "dealing": "server",
        "first_dealer": "W",
        "seats": body["seats"],
        "scorer": None,
        "ruleset": {"name": "rozbojnik-odgrywka", "version": 1, "options": {"last_tricks": [7, 13]}},
        "complete": False,
        "deals": [],
        "totals": dict.fromkeys(SEATS, 0),
        "winners": [],
    }
    assert match["next_deal"] == {"number": 1, "kind": "rozbojnik", "dealer": "W", "leader": "N", "compensating": False}
    assert clients["ala"].get(url(match["id"])).json() == match


def test_a_recorded_match_is_scored_by_its_creator(clients):
    body = {
        "seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
        "first_dealer": "N",
        "dealing": "recorded",
    }

    match = clients["scorer"].post("/api/v1/matches/", body, format="json").json()

    assert match["scorer"] == "scorer" and match["dealing"] == "recorded"


def test_a_finished_match_reports_its_summary_and_winners(clients):
    record = sample("m3-legal")
    match_id = clients["scorer"].post("/api/v1/matches/import/", record, format="json").json()["id"]

    match = clients["scorer"].get(url(match_id)).json()

    assert match["status"] == "finished" and match["complete"] and match["winners"]
    assert match["next_deal"] is None and len(match["deals"]) == 4
    assert match["totals"] == {s: sum(d["points"][s] for d in match["deals"]) for s in SEATS}
    assert clients["scorer"].get("/api/v1/matches/", {"status": "finished"}).json()["count"] == 1


def test_events_page_by_seq(dealt_match, clients):
    everything = clients["ala"].get(url(dealt_match, "events")).json()
    page = clients["ala"].get(url(dealt_match, "events"), {"after": 1, "limit": 1}).json()

    assert [e["seq"] for e in everything["events"]] == [1, 2] and everything["version"] == 2
    assert [e["seq"] for e in page["events"]] == [2] and page["after"] == 1
    assert clients["ala"].get(url(dealt_match, "events"), {"after": -1}).status_code == 400


def test_anyone_reading_the_events_can_recompute_the_hash_chain(clients):
    from games.domain.chain import verify_chain

    match_id = clients["scorer"].post("/api/v1/matches/import/", sample("m7-legal"), format="json").json()["id"]

    events = clients["scorer"].get(url(match_id, "events")).json()["events"]

    bodies = [
        (
            {
                "actor": e["actor"],
                "created_at": e["created_at"],
                "match": match_id,
                "payload": e["payload"],
                "seq": e["seq"],
                "type": e["type"],
            },
            e["hash"],
        )
        for e in events
    ]
    assert verify_chain(bodies).ok
    tampered = [({**bodies[5][0], "payload": {"tampered": True}}, bodies[5][1])]
    assert not verify_chain(bodies[:5] + tampered + bodies[6:]).ok
