"""The recompute task and its scheduling: Celery options, retries, beat, and the debounce on
Redis (real Redis; the real broker and worker are in test_scoring_worker.py)."""

import pytest
from django.db import DatabaseError, OperationalError
from scoring_helpers import fresh_world, record, require_redis, scoring_world, standings_of
from support.once import once_per_module

from config.celery import app
from scoring import recompute, scheduling, services, tasks
from scoring.models import Season

pytestmark = pytest.mark.django_db

TEST_REDIS = "redis://127.0.0.1:6379/14"


built = once_per_module(scoring_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


def test_the_recompute_is_acked_late_and_retried_with_backoff_on_database_errors():
    task = tasks.recompute_season

    assert task.acks_late and task.reject_on_worker_lost
    assert task.autoretry_for == (DatabaseError,)
    assert task.retry_backoff and task.retry_jitter and task.max_retries >= 5


def test_a_database_error_is_retried(world, monkeypatch):
    monkeypatch.setitem(app.conf, "task_eager_propagates", False)  # as a worker does: retry, do not raise
    real, calls = recompute.standings_recompute, []

    def flaky(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("could not serialize access")
        return real(**kwargs)

    monkeypatch.setattr(recompute, "standings_recompute", flaky)

    result = tasks.recompute_season.apply(args=(world.season.pk,))

    assert result.successful() and len(calls) == 2
    assert Season.objects.get(pk=world.season.pk).recomputes == 1


def test_celery_beat_rebuilds_the_open_seasons_nightly():
    entry = app.conf.beat_schedule["rebuild-open-seasons-nightly"]

    assert entry["task"] == tasks.rebuild_open_seasons.name
    assert entry["schedule"].hour == {3} and entry["schedule"].minute == {30}


def test_the_nightly_task_rebuilds_every_open_season_and_no_closed_one(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(1, "p1 p2 p3 p4".split())
        )
    closed = services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="Stary", status="closed")
    before = standings_of(world.season.pk)

    assert tasks.rebuild_open_seasons.apply().get() == 1

    assert standings_of(world.season.pk) == before
    assert Season.objects.get(pk=world.season.pk).recomputes == 2
    assert Season.objects.get(pk=closed.pk).recomputes == 0


def test_in_the_embedded_mode_a_trigger_recomputes_at_once_without_redis(world, monkeypatch, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing there: it must not be used
    assert app.conf.task_always_eager

    scheduling.schedule_recompute(world.season.pk)

    assert Season.objects.get(pk=world.season.pk).recomputes == 1


# --- the debounce, on a real Redis -------------------------------------------------------------------------


@pytest.fixture
def queued(monkeypatch, settings):
    """Broker mode against Redis db 14, with ``apply_async`` recorded instead of sent."""
    require_redis(TEST_REDIS)
    settings.REDIS_URL = TEST_REDIS
    settings.SCORING_DEBOUNCE_SECONDS = 7
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    sent = []
    monkeypatch.setattr(tasks.recompute_season, "apply_async", lambda args, **options: sent.append((args, options)))
    client = scheduling.redis_client()
    client.delete(*[scheduling.PENDING_KEY.format(n) for n in (1, 2, 41, 42)])
    yield sent
    client.delete(*[scheduling.PENDING_KEY.format(n) for n in (1, 2, 41, 42)])


def test_many_triggers_collapse_into_one_queued_recompute_per_season(queued):
    for _ in range(5):
        scheduling.schedule_recompute(41)
    scheduling.schedule_recompute(42)

    assert queued == [((41,), {"countdown": 7}), ((42,), {"countdown": 7})]
    ttl = scheduling.redis_client().ttl(scheduling.PENDING_KEY.format(41))
    assert 7 < ttl <= 7 + scheduling.PENDING_GRACE


def test_a_trigger_after_the_run_started_queues_one_more_run(queued):
    scheduling.schedule_recompute(41)
    scheduling.release(41)  # what the task does as it starts

    scheduling.schedule_recompute(41)
    scheduling.schedule_recompute(41)

    assert queued == [((41,), {"countdown": 7})] * 2


def test_a_trigger_that_could_not_be_queued_does_not_hold_back_the_next(queued, monkeypatch):
    def broker_down(args, **options):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.recompute_season, "apply_async", broker_down)

    with pytest.raises(ConnectionError):
        scheduling.schedule_recompute(41)

    assert not scheduling.is_pending(41)


def test_the_task_releases_the_pending_key_as_it_starts(world, queued, monkeypatch):
    scheduling.schedule_recompute(world.season.pk)
    assert scheduling.is_pending(world.season.pk)
    seen = []
    monkeypatch.setattr(
        recompute, "standings_recompute", lambda **kwargs: seen.append(scheduling.is_pending(kwargs["season_id"]))
    )

    tasks.recompute_season(world.season.pk)  # the body as a worker runs it (not eagerly)

    assert seen == [False]  # released before the standings were read


def test_a_redis_outage_does_not_fail_the_finished_match(
    world, settings, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setitem(app.conf, "task_always_eager", False)

    with django_capture_on_commit_callbacks(execute=True):
        match = services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(2, "p1 p2 p3 p4".split())
        )

    assert match.status == "finished"
    assert "could not schedule the standings" in caplog.text
