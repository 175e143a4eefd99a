"""Fixtures for the fault tests (their ``world`` is tests/support's): Redis down, a broker, workers."""

import pytest
import redis
from django.db import connection
from faults_helpers import use_broker
from support.servers import LIVE_REDIS, Worker, closed_port, require_redis

from config.celery import app


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


@pytest.fixture
def broker(settings):
    """Call it with a broker URL (the live Redis, or a door to it) to switch to broker mode there,
    with a 1 s debounce. Redis database LIVE_REDIS is emptied before and after."""
    require_redis()
    redis.Redis.from_url(LIVE_REDIS).flushdb()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}

    def switch(url: str = LIVE_REDIS) -> str:
        settings.REDIS_URL = url
        settings.SCORING_DEBOUNCE_SECONDS = 1
        use_broker(url)
        return url

    yield switch
    use_broker(saved["broker_url"], eager=saved["task_always_eager"])
    redis.Redis.from_url(LIVE_REDIS).flushdb()


@pytest.fixture
def workers():
    """Start workers with ``workers(broker, name, **env)``; each is stopped after the test."""
    started = []

    def start(url: str, name: str, **env: str) -> Worker:
        started.append(Worker(url, name, **env))
        return started[-1]

    yield start
    for worker in started:
        worker.stop()
