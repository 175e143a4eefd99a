"""The real thing: a Celery worker process on a Redis broker, recomputing standings on
PostgreSQL as matches finish — debounced into one run per season, one more run for a trigger
that arrives while a run is going, and the result equal to a from-scratch rebuild.

Runs with CI=true or CELERY_TEST_BROKER set (a broker URL, default redis://127.0.0.1:6379/14);
needs PostgreSQL (DATABASE_URL) and Redis.
"""

import os
import time

import kombu.pools
import pytest
import redis
from django.db import connection, transaction
from scoring_helpers import record, require_redis, standings_of
from support import IN_CI
from support.locks import row_locked
from support.polling import wait_for as _wait
from support.servers import Worker

from config.celery import app
from scoring import recompute, scheduling, services
from scoring.models import League, MatchLine, Season

BROKER = os.environ.get("CELERY_TEST_BROKER") or "redis://127.0.0.1:6379/14"
DEBOUNCE = 4  # seconds

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (IN_CI or os.environ.get("CELERY_TEST_BROKER")),
        reason="the real broker and worker run with CI=true or CELERY_TEST_BROKER set",
    ),
]


@pytest.fixture(autouse=True)
def truncatable_events():
    """A transactional test is emptied with TRUNCATE, which the append-only trigger refuses:
    let this session's flush through (pytest-django closes the connection right after)."""
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")


@pytest.fixture
def broker(settings):
    """This test's producer side in broker mode on BROKER (the app's config is restored after)."""
    require_redis(BROKER)
    redis.Redis.from_url(BROKER).flushdb()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=BROKER, task_always_eager=False)
    _reset_connections()
    settings.REDIS_URL = BROKER
    settings.SCORING_DEBOUNCE_SECONDS = DEBOUNCE
    yield BROKER
    app.conf.update(saved)
    _reset_connections()
    redis.Redis.from_url(BROKER).flushdb()


def _reset_connections() -> None:
    """Close the broker's connections and forget the pools: kombu keeps them per URL in a global
    registry, and a pool closed but kept there made every later publish to that URL — even an eager
    task's, in another test — fail with "Acquire on closed pool"."""
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def worker(broker):
    """``celery -A config worker`` in a subprocess, on the test database (tests/support's Worker)."""
    started = Worker(broker, "scoring-test")
    try:
        _wait(lambda: app.control.ping(timeout=0.5), 60, "the worker to answer a ping", started.log)
        yield started.log
    finally:
        started.stop()


def recomputes(season) -> int:
    return Season.objects.get(pk=season.pk).recomputes


def test_a_worker_recomputes_each_season_once_per_burst_and_once_more_for_a_late_trigger(world, worker):
    season, sam = world.season, world.users["sam"]

    records = {
        seed: record(seed, names.split())
        for seed, names in (
            (1, "p1 p2 p3 p4"),
            (2, "p2 p3 p4 p5"),
            (3, "p3 p4 p5 p6"),
            (4, "p1 p3 p5 p6"),
            (5, "p2 p4 p6 p1"),
        )
    }

    def file(seed: int):
        services.season_record_import(actor=sam, season_id=season.pk, record=records[seed])

    # A burst: three matches finish within the countdown -> exactly one recompute. They are filed
    # in one transaction, so that they finish (commit, and trigger) together however long filing
    # takes on a loaded machine (filed one by one, three took over the countdown under load).
    with transaction.atomic():
        for seed in (1, 2, 3):
            file(seed)
        committing = time.monotonic()
    assert time.monotonic() - committing < DEBOUNCE, "the burst took longer than the countdown"
    assert scheduling.is_pending(season.pk)
    assert recomputes(season) == 0  # nothing ran in this process
    _wait(lambda: recomputes(season) == 1, 30, "the first recompute", worker)
    time.sleep(DEBOUNCE + 1)
    assert recomputes(season) == 1
    assert MatchLine.objects.filter(season=season).count() == 12

    # A trigger while a run is going: the run is held on the league's row lock; a match that
    # finishes then queues one more run.
    with row_locked(League, world.league.pk):
        file(4)
        _wait(lambda: not scheduling.is_pending(season.pk), 30, "the second run to start", worker)
        file(5)  # finishes while that run waits for the lock
        assert scheduling.is_pending(season.pk)
    _wait(lambda: recomputes(season) == 3, 30, "the second and third runs", worker)
    time.sleep(DEBOUNCE + 1)
    assert recomputes(season) == 3
    assert not scheduling.is_pending(season.pk)

    incremental = standings_of(season.pk)
    assert len(incremental) == 6 and sum(row["matches"] for row in incremental) == 20
    assert sum(row["balance"] for row in incremental) == 0  # R8: every match finished
    recompute.standings_recompute(season_id=season.pk, full=True)
    assert standings_of(season.pk) == incremental
