"""A worker killed (SIGKILL) in the middle of a recompute: its transaction dies with it, the
season's outbox request stays, and the work is redone — by the sweep, or by the broker handing
the unacknowledged task out again after ``CELERY_VISIBILITY_TIMEOUT`` — to the standings a
rebuild from scratch gives.

A real ``celery worker`` (solo pool) on the test PostgreSQL database and the live Redis; the
recompute is held mid-way by a lock on the standings table taken from another connection.
"""

import time

import psycopg
import pytest
from django.db import connection
from faults_helpers import file_match, outbox_of, rebuilt, recomputes, standings_of
from support.polling import wait_for

from scoring import outbox
from scoring.models import MatchLine, StandingRow

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
VISIBILITY = 3  # seconds, for the redelivery test's second worker


def connect() -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], password=db["PASSWORD"] or None, dbname=db["NAME"]
    )


def waiting_on_the_standings(monitor: psycopg.Connection) -> int | None:
    """The backend that waits for the lock on the standings table, if one does."""
    row = monitor.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND query ILIKE %s",
        [f"%{StandingRow._meta.db_table}%"],
    ).fetchone()
    return row and row[0]


def gone(monitor: psycopg.Connection, pid: int) -> bool:
    return monitor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0] == 0


def kill_mid_recompute(world, broker, workers):
    """Two matches in the standings; a third filed, its recompute started by a worker, held on the
    standings table, and the worker SIGKILLed there. Returns the standings from before."""
    file_match(world, seed=1)  # the embedded mode: recomputed at once
    file_match(world, seed=2)
    before = standings_of(world.season)
    assert recomputes(world.season) == 2 and outbox_of(world.season) == 0
    url = broker()
    doomed = workers(url, "faults-doomed")
    locker, monitor = connect(), connect()
    monitor.autocommit = True
    try:
        locker.execute(f"LOCK TABLE {StandingRow._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        third = file_match(world, seed=3)  # committed with its request; dispatched to the worker
        pid = wait_for(lambda: waiting_on_the_standings(monitor), 60, "the recompute to wait for the lock", doomed.log)
        doomed.kill()
        locker.rollback()  # the orphaned backend takes the lock, finds its client gone, and rolls back
        wait_for(lambda: gone(monitor, pid), 30, "the killed worker's backend to end", doomed.log)
    finally:
        locker.close()
        monitor.close()
    assert outbox_of(world.season) == 1  # its deletion was rolled back with the rest
    assert recomputes(world.season) == 2 and standings_of(world.season) == before
    assert not MatchLine.objects.filter(season_match__match=third).exists()
    return before


def test_a_recompute_killed_mid_way_is_redone_by_the_sweep(world, broker, workers, truncatable_events):
    before = kill_mid_recompute(world, broker, workers)
    fresh = workers(broker(), "faults-fresh")

    assert outbox.sweep(grace=0) == [world.season.pk]  # what beat does once the grace period is over

    wait_for(lambda: outbox_of(world.season) == 0, 60, "the recompute to be redone", fresh.log)
    assert recomputes(world.season) == 3
    after = standings_of(world.season)
    assert sum(row["matches"] for row in after) == sum(row["matches"] for row in before) + 4
    assert after == rebuilt(world.season)


def test_a_recompute_killed_mid_way_is_delivered_again_after_the_visibility_timeout(
    world, broker, workers, truncatable_events
):
    kill_mid_recompute(world, broker, workers)
    time.sleep(VISIBILITY)  # the killed worker's task has been out (unacknowledged) longer than that now

    fresh = workers(broker(), "faults-redelivered", CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY))

    wait_for(lambda: outbox_of(world.season) == 0, 60, "the task to be delivered again", fresh.log)
    assert recomputes(world.season) == 3
    assert standings_of(world.season) == rebuilt(world.season)
