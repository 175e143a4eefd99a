"""No 500 left (issue 30, finding 7): a lone surrogate in any JSON string, an import without deals,
standings asked for in a format the API does not have. Each is a 4xx problem+json naming what was
wrong, and nothing is stored."""

import json

import pytest
from api_helpers import PROBLEM, api_people, fresh_users, sample, url
from support.once import once_per_module

from games.models import IdempotencyKey, Match, Player

pytestmark = pytest.mark.django_db

built = once_per_module(api_people)

IMPORT = "/api/v1/matches/import/"


@pytest.fixture
def users(built):
    return fresh_users(built)


@pytest.mark.parametrize("key", [None, "k-surrogate"])
def test_a_lone_surrogate_in_a_command_is_a_400_naming_the_field(clients, dealt_match, key):
    headers = {"Idempotency-Key": key} if key else {}

    response = clients["bartek"].post(
        url(dealt_match, "plays"), b'{"seat": "E", "card": "\\ud800"}', content_type="application/json", headers=headers
    )

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    assert response.json()["field"] == "card"
    assert not IdempotencyKey.objects.exists()


def test_a_lone_surrogate_deep_in_an_imported_record_is_a_400_naming_its_path(clients):
    record = sample("m3-legal")
    record["players"]["N"] = "SURROGATE"
    body = json.dumps(record).replace("SURROGATE", "\\udfff").encode()
    before = Match.objects.count(), Player.objects.count()

    response = clients["staff"].post(IMPORT, body, content_type="application/json", headers={"Idempotency-Key": "k"})

    assert response.status_code == 400 and response.json()["field"] == "players.N"
    assert (Match.objects.count(), Player.objects.count()) == before


def test_a_lone_surrogate_in_a_key_is_a_400_too(clients):
    response = clients["staff"].post(IMPORT, b'{"\\ud800": 1}', content_type="application/json")

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM


def test_a_surrogate_pair_is_an_ordinary_character(clients):
    record = sample("m3-legal")
    record["players"]["N"] = "ala \U0001f0a1"  # an escaped pair in the JSON: one character, the ace of spades

    response = clients["staff"].post(IMPORT, record, format="json")

    assert response.status_code == 201, response.content


def test_an_import_without_deals_is_a_400_naming_deals(clients):
    record = sample("m3-legal")
    record["deals"] = []
    before = Match.objects.count(), Player.objects.count()

    response = clients["staff"].post(IMPORT, record, format="json", headers={"Idempotency-Key": "k-empty"})

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    assert response.json()["field"] == "deals"
    assert (Match.objects.count(), Player.objects.count()) == before
