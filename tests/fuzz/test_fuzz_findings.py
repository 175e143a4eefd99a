"""What the fuzzing found, one request each: the answer a client gets, and that the schema
documents it (status code, content type, body and headers, by schemathesis's own checks)."""

import pytest
from fuzz_helpers import token, wsgi_schema

schema = wsgi_schema()


@pytest.fixture
def seeded(world, in_process_requests):
    return world


def answer(world, method: str, path: str, *, who: str = "ala", **parts):
    """The response to one request built from the schema, after schemathesis validated it."""
    case = schema[path][method].Case(**parts)
    response = case.call(headers=token(world, who))
    case.validate_response(response)
    return response


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/", "/api/v1/leagues/", "/api/v1/seasons/", "/api/v1/players/", "/api/v1/matches/"]
)
def test_a_page_past_the_last_is_a_documented_404(seeded, path):
    response = answer(seeded, "GET", path, query={"page": 99})

    assert response.status_code == 404 and response.json()["code"] == "not_found"


@pytest.mark.parametrize("path, query", [("/api/v1/leagues/", {"club": 0}), ("/api/v1/seasons/", {"league": 0})])
def test_a_filter_naming_nothing_is_a_documented_400(seeded, path, query):
    response = answer(seeded, "GET", path, query=query)

    assert response.status_code == 400 and response.json()["code"] == "invalid"


@pytest.mark.parametrize("path", ["/api/v1/clubs/{id}/", "/api/v1/leagues/{id}/", "/api/v1/seasons/{id}/"])
def test_an_unknown_club_league_or_season_is_a_documented_404(seeded, path):
    response = answer(seeded, "GET", path, path_parameters={"id": 999999})

    assert response.status_code == 404


def test_time_travel_is_documented_its_state_and_its_errors(seeded):
    finished, in_play = seeded.ids["match"][:2]
    state = "/api/v1/matches/{id}/state/"

    at_first_event = answer(seeded, "GET", state, who="staff", path_parameters={"id": finished}, query={"at": 1})
    past_the_last = answer(seeded, "GET", state, who="staff", path_parameters={"id": finished}, query={"at": 10**6})
    inside_a_deal_in_play = answer(seeded, "GET", state, path_parameters={"id": in_play}, query={"at": 3})

    assert at_first_event.status_code == 200 and at_first_event.json()["at"] == 1
    assert past_the_last.status_code == 400 and past_the_last.json()["field"] == "at"
    assert inside_a_deal_in_play.status_code == 403


def test_standings_asked_for_as_csv_answer_an_error_as_problem_json(seeded):
    response = answer(
        seeded, "GET", "/api/v1/seasons/{id}/standings/", path_parameters={"id": 999999}, query={"format": "csv"}
    )

    assert response.status_code == 404 and response.headers["content-type"] == ["application/problem+json"]


def test_a_body_without_a_content_type_is_a_documented_415(seeded):
    response = answer(
        seeded,
        "PATCH",
        "/api/v1/clubs/{id}/",
        path_parameters={"id": seeded.ids["club"][0]},
        body={"name": "Nowa"},
        media_type="application/json",
        headers={"Content-Type": ""},
    )

    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"


def test_both_event_streams_are_in_the_schema():
    for path in ("/api/v1/matches/{id}/stream/", "/api/v1/me/stream/"):
        operation = schema[path]["GET"].definition.raw

        assert "text/event-stream" in operation["responses"]["200"]["content"]
        assert "Last-Event-ID" in {parameter["name"] for parameter in operation["parameters"]}
        assert {"400", "401", "501"} <= set(operation["responses"])


@pytest.mark.parametrize(
    "path, method",
    [
        ("/api/v1/webhooks/{id}/ping/", "POST"),
        ("/api/v1/webhooks/{id}/", "GET"),
        ("/api/v1/clubs/{id}/", "GET"),
        ("/api/v1/disputes/{id}/", "GET"),
        ("/api/v1/clubs/{id}/webhooks/", "GET"),
    ],
)
@pytest.mark.parametrize("odd_id", ["³", "٣", str(2**63)])  # digits to str.isdigit, not to int or bigint
def test_an_id_of_unicode_digits_or_past_bigint_is_a_404_not_a_500(seeded, path, method, odd_id):
    response = answer(seeded, method, path, who="staff", path_parameters={"id": odd_id})

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_lone_surrogate_in_a_body_is_a_documented_400_naming_the_field(seeded):
    """Issue 30, finding 7: the escape decodes to text UTF-8 cannot encode; fingerprinting the body
    for its Idempotency-Key was a 500."""
    response = answer(
        seeded,
        "POST",
        "/api/v1/matches/{id}/plays/",
        path_parameters={"id": seeded.ids["match"][1]},
        body=b'{"card": "\\ud800"}',
        media_type="application/json",
        headers={"Idempotency-Key": "surrogate"},
    )

    assert response.status_code == 400 and response.json()["field"] == "card"


def test_an_import_without_deals_is_a_documented_400_naming_deals(seeded):
    record = {
        "format": "kierki-match/1",
        "ruleset": {"name": "rozbojnik-odgrywka", "options": {}},
        "players": dict(zip("NESW", ("ala", "bartek", "celina", "darek"))),
        "first_dealer": "N",
        "deals": [],
    }

    response = answer(
        seeded, "POST", "/api/v1/matches/import/", who="staff", body=record, media_type="application/json"
    )

    assert response.status_code == 400 and response.json()["field"] == "deals"


def test_standings_csv_in_an_unknown_format_is_a_documented_404(seeded):
    response = answer(
        seeded,
        "GET",
        "/api/v1/seasons/{id}/standings/csv/",
        path_parameters={"id": seeded.ids["season"][0]},
        query={"format": "x"},
    )

    assert response.status_code == 404 and response.headers["content-type"] == ["application/problem+json"]
