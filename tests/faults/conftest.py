"""Fixtures for the fault tests."""
import pytest
from django.db import connection
from faults_helpers import closed_port, make_world, use_broker

from config.celery import app


@pytest.fixture
def world(django_user_model):
    return make_world(django_user_model)


@pytest.fixture
def truncatable_events():
    """A transactional test is emptied with TRUNCATE, which the append-only trigger refuses:
    let this session's flush through (pytest-django closes the connection right after)."""
    yield
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")


@pytest.fixture
def redis_down(settings):
    """Call it to switch to broker mode with Redis down: the broker and REDIS_URL on a port
    nothing listens on (returns that URL). Undone after the test."""
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}

    def down() -> str:
        url = f"redis://127.0.0.1:{closed_port()}/0"
        settings.REDIS_URL = url
        use_broker(url)
        return url
    yield down
    use_broker(saved["broker_url"], eager=saved["task_always_eager"])
