"""No 500 from any input (issue 11, finding 5): JSON nested too deep, integers of thousands of
digits in URLs and headers, NUL characters, names longer than the database holds. Each is a 400
saying what is wrong, and nothing is stored."""

import pytest
from api_helpers import PROBLEM, api_people, fresh_users, sample, url
from support.once import once_per_module

from games.models import IdempotencyKey, Match, Player

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


IMPORT = "/api/v1/matches/import/"
HUGE = "9" * 4400  # past Python's 4,300-digit limit of int(str)


def nested(depth: int) -> bytes:
    return b'{"seats": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("depth", [40, 5_000, 100_000])
def test_json_nested_too_deep_is_a_400_parse_error(clients, depth):
    response = clients["scorer"].post("/api/v1/matches/", nested(depth), content_type="application/json")

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "parse_error"
    assert "nested deeper than 32 levels" in response.json()["detail"]


def test_the_anonymous_token_endpoint_refuses_deep_json_too(client_for):
    response = client_for().post("/api/v1/auth/token/", nested(5_000), content_type="application/json")

    assert response.status_code == 400 and response.json()["code"] == "parse_error"


def test_a_record_nests_well_within_the_depth_limit(clients):
    assert clients["staff"].post(IMPORT, sample("m5-legal"), format="json").status_code == 201


def test_an_integer_of_thousands_of_digits_in_a_body_is_a_400(clients):
    response = clients["scorer"].post(
        "/api/v1/matches/", b'{"first_dealer": ' + HUGE.encode() + b"}", content_type="application/json"
    )

    assert response.status_code == 400 and response.json()["code"] == "parse_error"


@pytest.mark.parametrize("query", [f"wait=1&after={HUGE}", f"after={HUGE}", f"wait={HUGE}"])
def test_huge_numbers_in_the_long_poll_query_are_a_400_not_a_500(clients, dealt_match, query):
    response = clients["ala"].get(url(dealt_match, "events") + f"?{query}")

    assert response.status_code in {200, 400}, response.content  # ?wait= alone is ignored when not a number


@pytest.mark.parametrize(
    "header, value", [("If-Match", HUGE), ("If-Match", f'"{HUGE}"'), ("Idempotency-Key", "key\x00")]
)
def test_huge_or_nul_headers_on_a_command_are_a_400_naming_them(clients, dealt_match, header, value):
    response = clients["bartek"].post(
        url(dealt_match, "plays"), {"seat": "E", "card": "2C"}, format="json", headers={header: value}
    )

    assert response.status_code == 400 and response.json()["field"] == header
    assert not IdempotencyKey.objects.exists()


@pytest.mark.parametrize(
    "path", ["/api/v1/seasons/{}/", "/api/v1/clubs/{}/webhooks/", "/api/v1/webhooks/{}/", "/api/v1/disputes/{}/"]
)
def test_an_id_of_thousands_of_digits_is_a_404(clients, path):
    response = clients["staff"].get(path.format(HUGE))

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_nul_in_a_body_is_a_400_and_nothing_is_stored_under_its_idempotency_key(clients, dealt_match):
    response = clients["bartek"].post(
        url(dealt_match, "plays"), {"seat": "E", "card": "2\x00C"}, format="json", headers={"Idempotency-Key": "k-nul"}
    )

    assert response.status_code == 400 and response.json()["code"] == "parse_error"
    assert "NUL" in response.json()["detail"]
    assert not IdempotencyKey.objects.exists()


def test_a_4xx_quoting_a_nul_from_the_query_is_stored_under_its_key_without_it(clients, dealt_match):
    """An error may quote a client's input from elsewhere than the body: jsonb could not hold it."""
    response = clients["bartek"].post(
        url(dealt_match, "plays") + "?x=\x00",
        {"seat": "E", "card": "ZZ"},
        format="json",
        headers={"Idempotency-Key": "k-quoted"},
    )

    assert 400 <= response.status_code < 500
    assert IdempotencyKey.objects.filter(key="k-quoted").exists()


@pytest.mark.parametrize("name", ["n" * 151, "ala\x00", "tab\there"])
def test_an_imported_player_name_too_long_or_with_control_characters_is_a_400(clients, name):
    record = sample("m3-legal")
    record["players"]["N"] = name
    before = Match.objects.count(), Player.objects.count()

    response = clients["staff"].post(IMPORT, record, format="json")

    assert response.status_code == 400, response.content
    assert (Match.objects.count(), Player.objects.count()) == before


def test_an_imported_player_name_of_150_characters_is_accepted(clients):
    record = sample("m3-legal")
    record["players"]["N"] = "n" * 150

    assert clients["staff"].post(IMPORT, record, format="json").status_code == 201


@pytest.mark.parametrize(
    "text, says",
    [
        ("[" * 5_000 + "]" * 5_000, "nested deeper"),
        ('{"a": "\\u0000"}', "NUL"),
        ('{"a": ' + HUGE + "}", "not valid JSON"),
    ],
)
def test_the_record_viewer_page_answers_hostile_json_with_a_400_saying_why(users, client, text, says):
    client.force_login(users["ala"])

    response = client.post("/records/view/", {"record": text, "deal": ""})

    assert response.status_code == 400 and says in response.content.decode()


def test_the_record_viewer_refuses_a_deal_number_of_thousands_of_digits(users, client):
    client.force_login(users["ala"])

    response = client.post("/records/view/", {"record": '{"format": "kierki-match/1"}', "deal": HUGE})

    assert response.status_code == 400 and "whole number" in response.content.decode()


@pytest.mark.parametrize("path", ["/api/v1/matches/00000000-0000-0000-0000-000000000000/stream/", "/api/v1/me/stream/"])
def test_a_last_event_id_of_thousands_of_digits_on_a_stream_is_a_400(path):
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    response = async_to_sync(AsyncClient().get)(path, headers={"Last-Event-ID": HUGE})

    assert response.status_code == 400 and response.json()["field"] == "Last-Event-ID"
    assert len(response.json()["detail"]) < 200  # the header is quoted cut short, not echoed whole


@pytest.mark.parametrize(
    "text, refused",
    [
        ('{"a": "\\u0000"}', True),
        ('{"\\u0000": 1}', True),
        ('{"a": "\\\\\\u0000"}', True),  # \\ then a NUL
        ('{"a": "\\\\u0000"}', False),  # a backslash and "u0000": no NUL
        ('{"a": NaN}', True),
        ("[Infinity]", True),
        ("[" * 32 + "]" * 32, False),
        ("[" * 33 + "]" * 33, True),
    ],
)
def test_the_json_limits_refuse_nul_non_finite_numbers_and_depth_past_the_setting(text, refused):
    from config import limits

    if refused:
        with pytest.raises(limits.JSONRefused):
            limits.loads(text)
    else:
        limits.loads(text)
