"""Optimistic concurrency (ETag / If-Match → 412) and idempotent POSTs (Idempotency-Key)."""

import datetime as dt

import pytest
from api_helpers import PROBLEM, dealt_once, post, state, url
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from api.idempotency import purge_expired_keys, request_fingerprint
from games.models import IdempotencyKey, MatchEvent
from games.write import services

pytestmark = pytest.mark.django_db


built, users, dealt_match = dealt_once()  # the users and the dealt match, built once (support.once)


def _events(match_id) -> int:
    return MatchEvent.objects.filter(match_id=match_id).count()


# --- ETag and If-Match ------------------------------------------------------------------------------


def test_match_state_and_command_responses_carry_the_version_as_a_quoted_etag(dealt_match, clients):
    detail = clients["bartek"].get(url(dealt_match))
    view = clients["bartek"].get(url(dealt_match, "state"))
    assert detail["ETag"] == view["ETag"] == '"2"' and detail.json()["version"] == view.json()["version"] == 2

    played = post(
        clients["bartek"], dealt_match, "plays", {"card": view.json()["deal"]["legal_cards"][0]}, **{"If-Match": '"2"'}
    )

    assert played.status_code == 201 and played["ETag"] == '"3"' and played.json()["version"] == 3


@pytest.mark.parametrize("if_match", ['"1"', "1", 'W/"1"'])
def test_a_stale_if_match_is_412_with_the_current_version_and_stores_nothing(if_match, dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    response = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"If-Match": if_match})

    assert response.status_code == 412
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "version_mismatch" and body["current_version"] == 2 and body["status"] == 412
    assert response["ETag"] == '"2"'
    assert _events(dealt_match) == 2


@pytest.mark.parametrize("if_match", ["2", "*"])
def test_an_unquoted_or_wildcard_if_match_is_accepted(if_match, dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    assert post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"If-Match": if_match}).status_code == 201


def test_a_malformed_if_match_is_400(dealt_match, clients):
    response = post(clients["bartek"], dealt_match, "plays", {"card": "2C"}, **{"If-Match": '"two"'})

    assert response.status_code == 400 and response.json()["field"] == "If-Match"


def test_two_clients_at_one_version_one_lands_the_other_gets_412(dealt_match, clients):
    version = clients["scorer"].get(url(dealt_match))["ETag"]
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    first = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"If-Match": version})
    second = post(clients["scorer"], dealt_match, "plays", {"card": card, "seat": "E"}, **{"If-Match": version})

    assert (first.status_code, second.status_code) == (201, 412)
    assert second.json()["current_version"] == first.json()["version"]


# --- Idempotency-Key ----------------------------------------------------------------------------------


def test_an_idempotent_retry_replays_the_first_response_and_stores_one_event(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    key = {"Idempotency-Key": "play-1"}

    first = post(clients["bartek"], dealt_match, "plays", {"card": card}, **key)
    retry = post(clients["bartek"], dealt_match, "plays", {"card": card}, **key)

    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json() and retry["ETag"] == first["ETag"]
    assert retry["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert _events(dealt_match) == 3
    assert IdempotencyKey.objects.get(key="play-1").status_code == 201


def test_a_play_stores_the_answer_it_sends(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    played = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "sent"})

    stored = IdempotencyKey.objects.get(key="sent")
    assert stored.status_code == 201 and stored.response["body"] == played.json()
    assert stored.response["headers"] == {"ETag": played["ETag"]}


def test_a_key_stored_between_a_play_and_its_statement_writes_nothing_and_is_replayed(
    dealt_match, clients, users, monkeypatch
):
    """On PostgreSQL the play's answer is stored with its event in one statement (games.write.claims);
    a key stored meanwhile (by a request that committed first) makes that statement fail whole:
    no event, no new version — the request is answered from the stored key. On SQLite the key is
    looked up in the request's transaction first: the same answer."""
    from games.write import claims

    bartek = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    assert post(clients["bartek"], dealt_match, "plays", {"card": bartek}).status_code == 201  # this process keeps v3
    card = state(clients["celina"], dealt_match)["deal"]["legal_cards"][0]
    fingerprint = request_fingerprint("POST", url(dealt_match, "plays"), {"card": card})
    stored = {"body": {"stored": "first"}, "headers": {"ETag": '"7"'}, "content_type": None}
    real, claimed = claims.key_row, []

    def store_the_key():
        IdempotencyKey.objects.create(
            user=users["celina"], key="taken", request_hash=fingerprint, status_code=201, response=stored
        )

    def meanwhile(claim, result):  # the answer is rendered: the key is stored before the statement runs
        if not claimed:
            claimed.append(store_the_key())
        return real(claim, result)

    if connection.vendor == "postgresql":
        monkeypatch.setattr(claims, "key_row", meanwhile)
    else:  # no claim: the key is stored before the request looks
        store_the_key()

    response = post(clients["celina"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "taken"})

    assert response.status_code == 201 and response.json() == {"stored": "first"}, response.content
    assert response["Idempotent-Replayed"] == "true" and response["ETag"] == '"7"'
    assert claimed == ([None] if connection.vendor == "postgresql" else [])
    assert _events(dealt_match) == 3 and clients["ala"].get(url(dealt_match))["ETag"] == '"3"'


def test_a_rejected_request_is_replayed_too_and_stores_nothing(dealt_match, clients):
    key = {"Idempotency-Key": "bad-play"}
    first = post(clients["ala"], dealt_match, "plays", {"card": "2C"}, **key)  # not ala's turn

    retry = post(clients["ala"], dealt_match, "plays", {"card": "2C"}, **key)

    assert first.status_code == retry.status_code == 422
    assert retry.json() == first.json() and retry["Content-Type"] == PROBLEM
    assert retry["Idempotent-Replayed"] == "true"
    assert _events(dealt_match) == 2


def test_the_same_key_with_another_body_is_422(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "k"})

    response = post(clients["bartek"], dealt_match, "plays", {"card": "AH"}, **{"Idempotency-Key": "k"})

    assert response.status_code == 422 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "idempotency_key_reused"
    assert _events(dealt_match) == 3


def test_a_key_whose_first_request_still_runs_is_409(dealt_match, clients, users):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    path = url(dealt_match, "plays")
    IdempotencyKey.objects.create(
        user=users["bartek"],
        key="running",
        status_code=None,
        request_hash=request_fingerprint("POST", path, {"card": card}),
    )

    response = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "running"})

    assert response.status_code == 409 and response.json()["code"] == "idempotency_in_progress"
    assert _events(dealt_match) == 2


def test_keys_are_per_user(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "mine"})

    response = post(
        clients["celina"],
        dealt_match,
        "plays",
        {"card": state(clients["celina"], dealt_match)["deal"]["legal_cards"][0]},
        **{"Idempotency-Key": "mine"},
    )

    assert response.status_code == 201 and not response.has_header("Idempotent-Replayed")


def test_a_key_longer_than_255_characters_is_400(dealt_match, clients):
    response = post(clients["bartek"], dealt_match, "plays", {"card": "2C"}, **{"Idempotency-Key": "k" * 256})

    assert response.status_code == 400 and response.json()["field"] == "Idempotency-Key"
    assert not IdempotencyKey.objects.exists()


def test_an_unhandled_error_frees_the_key_for_a_retry(dealt_match, clients, monkeypatch):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    real = services.card_play

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "card_play", broken)
    with pytest.raises(RuntimeError):
        post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "retry-me"})
    assert not IdempotencyKey.objects.filter(key="retry-me").exists()

    monkeypatch.setattr(services, "card_play", real)
    response = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "retry-me"})
    assert response.status_code == 201 and _events(dealt_match) == 3


def test_keys_older_than_a_day_are_ignored_and_purged(dealt_match, clients, users):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    old = IdempotencyKey.objects.create(
        user=users["bartek"], key="old", request_hash="0" * 64, status_code=201, response={"body": {}, "headers": {}}
    )
    IdempotencyKey.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(hours=25))

    response = post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "old"})

    assert response.status_code == 201 and _events(dealt_match) == 3
    IdempotencyKey.objects.update(created_at=timezone.now() - dt.timedelta(hours=24, minutes=1))
    IdempotencyKey.objects.create(user=users["bartek"], key="fresh", request_hash="0" * 64)
    assert purge_expired_keys() == 1
    call_command("purge_idempotency_keys")
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["fresh"]


def test_match_creation_and_import_are_idempotent_too(clients):
    from games.models import Match

    body = {"seats": {"N": "o1", "E": "o2", "S": "o3", "W": "ala"}, "first_dealer": "N"}

    first = clients["ala"].post("/api/v1/matches/", body, format="json", headers={"Idempotency-Key": "new"})
    again = clients["ala"].post("/api/v1/matches/", body, format="json", headers={"Idempotency-Key": "new"})

    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert again["Location"] == first["Location"]
    assert Match.objects.filter(west__username="ala").count() == 1
