"""Database errors in the API on any backend: ``503`` ``database_unavailable``, and a failed
request leaves its ``Idempotency-Key`` free for the retry (the real connection loss on
PostgreSQL is in test_faults_database.py)."""

import pytest
from django.db import OperationalError
from faults_helpers import started_match
from rest_framework.test import APIClient
from support import PROBLEM

from games.models import MatchEvent
from games.write import commands

pytestmark = pytest.mark.django_db


@pytest.fixture
def sam(world):
    client = APIClient()
    client.force_authenticate(world.users["sam"])
    return client


def play(client, match, card: str, key: str):
    return client.post(
        f"/api/v1/matches/{match.pk}/plays/", {"card": card}, format="json", headers={"Idempotency-Key": key}
    )


def test_a_database_error_is_503_database_unavailable_and_the_key_is_free_for_the_retry(world, sam, monkeypatch):
    match, last = started_match(world, seed=1)
    events = MatchEvent.objects.filter(match=match).count()
    real = commands._commit

    def lost(unit):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(commands, "_commit", lost)

    response = play(sam, match, last, "k1")

    assert response.status_code == 503 and response["Content-Type"] == PROBLEM
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "type": "/api/v1/problems/database_unavailable/",
        "title": "Database unavailable",
        "status": 503,
        "detail": "The database is unavailable; retry shortly.",
        "code": "database_unavailable",
    }
    assert MatchEvent.objects.filter(match=match).count() == events
    monkeypatch.setattr(commands, "_commit", real)
    assert play(sam, match, last, "k1").status_code == 201


def test_the_problem_type_is_listed_with_its_advice(sam):
    response = sam.get("/api/v1/problems/database_unavailable/")

    assert response.status_code == 200 and response.json()["status"] == 503
    assert "Idempotency-Key" in response.json()["description"]
