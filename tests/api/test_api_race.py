"""Racing HTTP clients, each request on its own PostgreSQL connection (PostgreSQL only)."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from api_helpers import post, state, url
from django.db import connection

from games.models import IdempotencyKey, MatchEvent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 8


def _race(request) -> list:
    start = threading.Barrier(CLIENTS)

    def run(_):
        try:
            start.wait()
            return request()
        finally:
            connection.close()

    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(run, range(CLIENTS)))


def test_eight_clients_playing_at_one_etag_land_exactly_one_play(dealt_match, clients):
    etag = clients["scorer"].get(url(dealt_match))["ETag"]
    card = state(clients["scorer"], dealt_match)["deal"]["legal_cards"][0]

    responses = _race(lambda: post(clients["scorer"], dealt_match, "plays", {"card": card}, **{"If-Match": etag}))

    assert sorted(r.status_code for r in responses) == [201] + [412] * (CLIENTS - 1)
    assert all(r.json()["current_version"] == 3 for r in responses if r.status_code == 412)
    assert list(MatchEvent.objects.filter(match_id=dealt_match).order_by("seq").values_list("seq", flat=True)) == [
        1,
        2,
        3,
    ]


def test_eight_retries_of_one_idempotent_request_run_it_once(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    responses = _race(
        lambda: post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "once"})
    )

    statuses = [r.status_code for r in responses]
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
    originals = [r for r in responses if r.status_code == 201 and not r.has_header("Idempotent-Replayed")]
    assert len(originals) == 1
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3
    assert IdempotencyKey.objects.get(key="once").status_code == 201


def test_a_retry_while_the_first_request_runs_is_409_and_after_it_commits_a_replay(dealt_match, clients, monkeypatch):
    from games import services

    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    inside, release = threading.Event(), threading.Event()
    real = services.card_play

    def slow(**kwargs):  # the first request holds its transaction open until the retry has been answered
        inside.set()
        assert release.wait(30)
        return real(**kwargs)

    monkeypatch.setattr(services, "card_play", slow)

    def send():
        return post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "in-flight"})

    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(lambda: (send(), connection.close())[0])
        assert inside.wait(30)
        monkeypatch.setattr(services, "card_play", real)
        during = send()
        release.set()
        first = first.result(30)
    after = send()

    assert during.status_code == 409 and during.json()["code"] == "idempotency_in_progress"
    assert first.status_code == after.status_code == 201 and after["Idempotent-Replayed"] == "true"
    assert after.json() == first.json()
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3
