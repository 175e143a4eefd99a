"""GET /healthz and GET /readyz: public, unthrottled probes of the process and its dependencies."""

import time

import pytest
from django.db import OperationalError, connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from ops_helpers import BROKER_DB, LOCAL_REDIS, require_redis

from config import health

CLOSED_PORT_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def probe():
    """A client that has never seen the middleware (so settings changed by a test apply)."""
    return Client()


def test_healthz_is_ok_without_touching_the_database(probe):
    # No django_db mark: any query would fail the test.
    response = probe.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Content-Type"] == "application/json" and response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_readyz_is_ok_when_the_database_answers_and_every_migration_is_applied(probe, settings):
    settings.CELERY_BROKER_URL = "memory://"

    response = probe.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "migrations": "ok", "broker": "skipped (tasks run in-process)"},
    }


@pytest.mark.django_db
def test_readyz_is_503_naming_the_broker_when_the_broker_port_is_closed(probe, settings):
    settings.CELERY_BROKER_URL = CLOSED_PORT_BROKER
    started = time.monotonic()

    response = probe.get("/readyz")

    assert time.monotonic() - started < health.BROKER_TIMEOUT + 2
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["failed"] == ["broker"]
    assert body["checks"]["database"] == "ok" and body["checks"]["broker"].startswith("unreachable")
    assert "127.0.0.1" not in response.content.decode()  # the address stays in the log


@pytest.mark.django_db
def test_readyz_reaches_a_broker_of_another_kind_through_kombu(probe, settings):
    settings.CELERY_BROKER_URL = "amqp://guest:guest@127.0.0.1:1//"

    response = probe.get("/readyz")

    assert response.status_code == 503 and response.json()["failed"] == ["broker"]


@pytest.mark.django_db
def test_readyz_is_ok_with_the_live_redis_broker(probe, settings):
    require_redis()
    settings.CELERY_BROKER_URL = f"{LOCAL_REDIS}/{BROKER_DB}"

    response = probe.get("/readyz")

    assert response.status_code == 200, response.content
    assert response.json()["checks"]["broker"] == "ok"


@pytest.mark.django_db
def test_readyz_is_503_while_a_migration_is_unapplied(probe, settings):
    settings.CELERY_BROKER_URL = "memory://"
    MigrationRecorder.Migration.objects.filter(app="sessions", name="0001_initial").delete()  # rolled back after

    response = probe.get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["migrations"]
    assert body["checks"]["migrations"] == "1 unapplied (sessions.0001_initial)"


def test_readyz_is_503_when_the_database_is_unreachable(probe, settings, monkeypatch):
    settings.CELERY_BROKER_URL = "memory://"

    def refuse():
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(connection, "ensure_connection", refuse)

    response = probe.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "failed": ["database"],
        "checks": {
            "database": "unreachable (OperationalError)",
            "migrations": "skipped (no database)",
            "broker": "skipped (tasks run in-process)",
        },
    }


@pytest.mark.django_db
def test_the_probes_answer_on_any_host_over_plain_http_in_production(probe, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CELERY_BROKER_URL = "memory://"

    healthz = probe.get("/healthz", HTTP_HOST="172.18.0.5:8000")
    readyz = probe.get("/readyz", HTTP_HOST="172.18.0.5:8000")
    api = probe.get("/api/v1/", HTTP_HOST="172.18.0.5:8000")
    redirected = probe.get("/api/v1/")

    assert healthz.status_code == 200 and readyz.status_code == 200
    assert api.status_code == 400  # everything else still checks ALLOWED_HOSTS…
    assert redirected.status_code == 301 and redirected["Location"].startswith("https://")  # …and redirects


@pytest.mark.django_db
def test_the_probes_are_neither_throttled_nor_authenticated(probe, settings):
    from django.core.cache import cache

    cache.clear()
    settings.CELERY_BROKER_URL = "memory://"
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth": "1/minute"},
    }
    try:
        probes = [probe.get(path).status_code for path in ("/healthz", "/readyz") * 3]
        tokens = [
            probe.post(
                "/api/v1/auth/token/", {"username": "x", "password": "y"}, content_type="application/json"
            ).status_code
            for _ in range(2)
        ]
    finally:
        cache.clear()

    assert probes == [200] * 6
    assert tokens[0] != 429 and tokens[1] == 429  # throttling is on, for the API


def test_the_probes_take_only_get_and_head(probe):
    response = probe.post("/healthz")

    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert probe.head("/healthz").status_code == 200


def test_the_probes_are_routed_too():
    from django.urls import reverse

    assert reverse("healthz") == "/healthz" and reverse("readyz") == "/readyz"
