"""Filing records: every sample (paper-sheet ones of RECORD_FORMAT.md 1.1 too) through POST
/api/v1/matches/import/."""

import pytest
from api_helpers import PROBLEM, api_people, expected, fresh_users, sample, sample_names, url
from support.once import once_per_module
from support.summaries import summary_as_expected

from games.models import Match, MatchEvent, Player

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


IMPORT = "/api/v1/matches/import/"


def _stored() -> tuple[int, int, int]:
    return Match.objects.count(), MatchEvent.objects.count(), Player.objects.count()


@pytest.mark.parametrize("name", sample_names(tally=True))
def test_every_sample_imports_to_its_expected_summary_or_its_exact_error(name, clients):
    want = expected(name)
    before = _stored()

    response = clients["scorer"].post(IMPORT, sample(name), format="json")

    body = response.json()
    if "error" in want:
        assert response.status_code == 422, body
        assert response["Content-Type"] == PROBLEM
        assert body["error"] == want["error"]
        assert body["code"] == want["error"]["code"] and body["rule"]
        assert _stored() == before
    else:
        assert response.status_code == 201, body
        assert summary_as_expected({key: body["summary"][key] for key in want}, want) == want
        match = Match.objects.get(pk=body["id"])
        assert match.dealing == "recorded" and match.scorer.username == "scorer"
        assert response["ETag"] == f'"{match.version}"' == f'"{body["version"]}"'
        assert response["Location"].endswith(url(body["id"]))


def test_an_imported_match_exports_the_same_record(clients):
    record = sample("m5-legal")
    match_id = clients["staff"].post(IMPORT, record, format="json").json()["id"]

    exported = clients["staff"].get(url(match_id, "record")).json()

    assert exported == {"format": "kierki-match/1", **{k: record[k] for k in record if k != "format"}}


def test_unknown_player_names_become_guests_and_known_ones_are_linked(clients, users):
    record = sample("m3-legal")
    record["players"]["N"] = "ala"

    body = clients["scorer"].post(IMPORT, record, format="json").json()

    assert Player.objects.get(username="ala").user == users["ala"]
    assert Player.objects.get(username=record["players"]["E"]).user is None
    assert clients["ala"].get(url(body["id"])).status_code == 200  # ala sits in it: she may read it


@pytest.mark.parametrize(
    "mangle, field",
    [
        (lambda r: r.pop("players"), "players"),
        (lambda r: r["deals"][1]["plays"].__setitem__(5, "1X"), "deals[1].plays[5]"),
        (lambda r: r["deals"][0]["hands"].__setitem__("W", "AS KS"), "deals[0].hands.W"),
        (lambda r: r.__setitem__("first_dealer", "X"), "first_dealer"),
        (lambda r: r["ruleset"].__setitem__("options", {"trumps": True}), "ruleset.trumps"),
    ],
)
def test_an_unreadable_record_is_a_400_naming_the_field(mangle, field, clients):
    record = sample("m1-legal")
    mangle(record)
    before = _stored()

    response = clients["scorer"].post(IMPORT, record, format="json")

    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "invalid" and response.json()["field"] == field
    assert _stored() == before


def test_a_body_that_is_not_a_record_is_a_400(clients):
    assert clients["scorer"].post(IMPORT, ["not", "a", "record"], format="json").status_code == 400
    bad_json = clients["scorer"].post(IMPORT, "{nope", content_type="application/json")
    assert bad_json.status_code == 400 and bad_json.json()["code"] == "parse_error"


@pytest.mark.parametrize("who, status", [("scorer", 201), ("staff", 201), ("ala", 403), ("outsider", 403)])
def test_only_scorers_and_staff_may_import(who, status, clients):
    response = clients[who].post(IMPORT, sample("m3-legal"), format="json")

    assert response.status_code == status
