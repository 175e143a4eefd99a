"""Errors are application/problem+json (RFC 9457) with a code; auth, throttling, the root."""

import pytest
from api_helpers import PROBLEM, api_people, fresh_users, post, sample, seats_accepted, url
from support.once import once_per_module

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


def test_a_rule_violation_is_a_problem_with_its_code_rule_and_located_error(clients):
    hands = sample("m1-legal")["deals"][0]["hands"]  # E holds 9H, QH, TH and other suits
    created = (
        clients["scorer"]
        .post(
            "/api/v1/matches/",
            {
                "seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
                "first_dealer": "N",
                "dealing": "recorded",
            },
            format="json",
        )
        .json()
    )
    seats_accepted(created["id"])
    assert post(clients["scorer"], created["id"], "deals", {"hands": hands}).status_code == 201

    response = post(clients["bartek"], created["id"], "plays", {"card": "QH"})  # E leads the first trick

    assert response.status_code == 422
    assert response["Content-Type"] == PROBLEM
    assert response.json() == {
        "type": "/api/v1/problems/hearts_lead_forbidden/",
        "title": "Hearts lead forbidden",
        "status": 422,
        "detail": "A heart may be led only by a player who holds nothing but hearts.",
        "code": "hearts_lead_forbidden",
        "rule": "R10",
        "error": {"code": "hearts_lead_forbidden", "deal": 1, "play_index": 0, "seat": "E", "card": "QH"},
    }
    type_page = clients["bartek"].get(response.json()["type"])
    assert type_page.status_code == 200 and type_page.json()["rule"] == "R10"


def test_a_lead_offer_outside_a_compensating_odgrywka_is_sale_not_allowed(dealt_match, clients):
    response = post(clients["ala"], dealt_match, "lead-offers", {"price": 2})

    assert response.status_code == 422
    assert response.json()["code"] == "sale_not_allowed" and response.json()["rule"] == "R26"
    assert response.json()["error"] == {
        "code": "sale_not_allowed",
        "deal": 1,
        "play_index": None,
        "seat": "N",
        "card": None,
    }


def test_a_second_deal_while_one_is_in_play_is_refused(dealt_match, clients):
    response = post(clients["ala"], dealt_match, "deals")

    assert response.status_code == 422 and response.json()["code"] == "deal_in_play"
    assert response.json()["error"]["deal"] == 1


def test_bad_input_is_400_invalid_with_the_field_and_errors(dealt_match, clients):
    response = post(clients["bartek"], dealt_match, "plays", {"card": "1X"})

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "invalid" and body["field"] == "card" and "card" in body["errors"]
    assert body["type"] == "/api/v1/problems/invalid/" and body["title"] and body["detail"]


def test_a_bad_seat_at_creation_names_the_nested_field(clients):
    body = {"seats": {"N": "ala", "E": "bartek", "S": "celina"}, "first_dealer": "N"}

    response = clients["ala"].post("/api/v1/matches/", body, format="json")

    assert response.status_code == 400 and response.json()["field"] == "seats.W"


def test_an_unknown_player_at_creation_is_400(clients):
    body = {"seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "nobody"}, "first_dealer": "N"}

    response = clients["ala"].post("/api/v1/matches/", body, format="json")

    assert response.status_code == 400 and response.json()["field"] == "seats.W"


def test_an_unknown_ruleset_option_is_400_naming_it(clients):
    body = {
        "seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
        "first_dealer": "N",
        "ruleset": {"options": {"trumps": "S"}},
    }

    response = clients["ala"].post("/api/v1/matches/", body, format="json")

    assert response.status_code == 400 and response.json()["field"] == "ruleset.trumps"


@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/matches/00000000-0000-4000-8000-000000000000/"])
def test_anonymous_requests_are_401_problems(path, client_for):
    response = client_for(None).get(path)

    assert response.status_code == 401 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "not_authenticated"
    assert response.has_header("WWW-Authenticate")


@pytest.mark.parametrize("match_id", ["00000000-0000-4000-8000-000000000000", "not-a-uuid"])
def test_a_missing_match_is_a_404_problem(match_id, clients):
    response = clients["ala"].get(url(match_id, "state"))

    assert response.status_code == 404 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "not_found"


def test_a_wrong_method_is_405(dealt_match, clients):
    response = clients["ala"].delete(url(dealt_match))

    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"


def test_a_finished_match_takes_no_more_commands(clients):
    match_id = clients["scorer"].post("/api/v1/matches/import/", sample("m3-legal"), format="json").json()["id"]

    response = post(clients["scorer"], match_id, "deals", {"hands": sample("m3-legal")["deals"][0]["hands"]})

    assert response.status_code == 409 and response.json()["code"] == "match_closed"


def test_a_token_for_a_username_and_password_authenticates(users, client_for):
    users["ala"].set_password("s3cret-kierki")
    users["ala"].save()
    anonymous = client_for(None)

    wrong = anonymous.post("/api/v1/auth/token/", {"username": "ala", "password": "nope"}, format="json")
    token = anonymous.post(
        "/api/v1/auth/token/", {"username": "ala", "password": "s3cret-kierki"}, format="json"
    ).json()["token"]

    assert wrong.status_code == 400 and wrong["Content-Type"] == PROBLEM
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anonymous.get("/api/v1/matches/").status_code == 200


def test_too_many_token_requests_are_429_with_retry_after(users, client_for, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"auth": "2/minute", "user": None}}
    anonymous = client_for(None)
    for _ in range(2):
        anonymous.post("/api/v1/auth/token/", {"username": "ala", "password": "x"}, format="json")

    response = anonymous.post("/api/v1/auth/token/", {"username": "ala", "password": "x"}, format="json")

    assert response.status_code == 429 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "throttled" and int(response["Retry-After"]) > 0


def test_the_root_lists_the_resources(client_for):
    root = client_for(None).get("/api/v1/").json()

    assert {"matches", "auth-token", "problems", "schema", "docs"} <= set(root)
    problems = client_for(None).get(root["problems"]).json()
    assert {"card_not_in_hand", "must_follow_suit", "version_mismatch", "idempotency_key_reused"} <= {
        p["code"] for p in problems
    }


def test_a_body_over_the_limit_is_a_listed_problem_type(client_for):
    response = client_for(None).get("/api/v1/problems/payload_too_large/")

    assert response.status_code == 200
    assert response.json()["status"] == 413 and response.json()["type"] == "/api/v1/problems/payload_too_large/"


def test_the_schema_validates_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))

    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3")


def test_an_unknown_api_url_is_a_404_problem(client_for):
    response = client_for(None).get("/api/v1/no-such-thing/")

    assert response.status_code == 404 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "not_found"


def test_the_browsable_api_renders_errors_as_html(clients, settings):
    settings.STORAGES = {
        **settings.STORAGES,  # no collectstatic here: plain static URLs
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }

    response = clients["ala"].get("/api/v1/matches/not-a-uuid/", HTTP_ACCEPT="text/html")

    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
