"""Database errors in the API on any backend: ``503`` ``database_unavailable``, and an
``Idempotency-Key`` a failed request leaves behind never blocks its retry for long (the real
connection loss on PostgreSQL is in test_faults_database.py)."""
import datetime

import pytest
from django.db import OperationalError
from django.utils import timezone
from faults_helpers import started_match
from rest_framework.test import APIClient
from short_matches import PROBLEM

from api.idempotency import request_fingerprint
from games import services as games
from games.models import IdempotencyKey, Match, MatchEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def sam(world):
    client = APIClient()
    client.force_authenticate(world.users["sam"])
    return client


def play(client, match, card: str, key: str):
    return client.post(f"/api/v1/matches/{match.pk}/plays/", {"card": card}, format="json",
                       headers={"Idempotency-Key": key})


def test_a_database_error_is_503_database_unavailable_and_the_key_is_free_for_the_retry(world, sam, monkeypatch):
    match, last = started_match(world, seed=1)
    events = MatchEvent.objects.filter(match=match).count()
    real = games._commit

    def lost(unit):
        raise OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(games, "_commit", lost)

    response = play(sam, match, last, "k1")

    assert response.status_code == 503 and response["Content-Type"] == PROBLEM
    assert response["Retry-After"] == "5"
    assert response.json() == {"type": "/api/v1/problems/database_unavailable/", "title": "Database unavailable",
                               "status": 503, "detail": "The database is unavailable; retry shortly.",
                               "code": "database_unavailable"}
    assert MatchEvent.objects.filter(match=match).count() == events
    monkeypatch.setattr(games, "_commit", real)
    assert play(sam, match, last, "k1").status_code == 201


def test_the_problem_type_is_listed_with_its_advice(sam):
    response = sam.get("/api/v1/problems/database_unavailable/")

    assert response.status_code == 200 and response.json()["status"] == 503
    assert "Idempotency-Key" in response.json()["description"]


def claim(world, match, card: str, key: str, age: datetime.timedelta) -> IdempotencyKey:
    """A running claim on ``key`` made ``age`` ago, as a request that never finished leaves it."""
    row = IdempotencyKey.objects.create(
        user=world.users["sam"], key=key, status_code=None,
        request_hash=request_fingerprint("POST", f"/api/v1/matches/{match.pk}/plays/", {"card": card}))
    IdempotencyKey.objects.filter(pk=row.pk).update(created_at=timezone.now() - age)
    return row


def test_a_claim_younger_than_the_claim_timeout_is_still_running(world, sam, settings):
    match, last = started_match(world, seed=1)
    claim(world, match, last, "young", datetime.timedelta(seconds=settings.IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS - 5))

    response = play(sam, match, last, "young")

    assert response.status_code == 409 and response.json()["code"] == "idempotency_in_progress"
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS


def test_a_claim_older_than_the_claim_timeout_is_taken_over_and_runs_once(world, sam, settings):
    match, last = started_match(world, seed=1)
    abandoned = claim(world, match, last, "old",
                      datetime.timedelta(seconds=settings.IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS + 1))

    response = play(sam, match, last, "old")

    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    stored = IdempotencyKey.objects.get(key="old")
    assert stored.pk == abandoned.pk and stored.status_code == 201
    assert play(sam, match, last, "old")["Idempotent-Replayed"] == "true"
