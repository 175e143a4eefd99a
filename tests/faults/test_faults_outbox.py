"""The outbox of standings recomputes: with Redis down, plays, imports, rulings and a new
``min_matches`` still succeed and leave their recompute in the outbox, in the transaction of
the change; the recompute answers the requests it read; the sweep dispatches what is left."""

import datetime

import pytest
from django.core.management import call_command
from django.db.models.functions import Now
from faults_helpers import file_match, outbox_of, rebuilt, recomputes, standings_of, started_match, use_broker
from support import api_client
from support.world import simulated

from config.celery import app
from games.models import Match, MatchEvent
from games.write import commands
from games.write import services as games
from scoring import outbox, recompute, services, standing_rows
from scoring.models import RecomputeRequest, SeasonMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of(world):
    def _client(name: str):
        return api_client(world.users[name])

    return _client


def play(client, match_id, card: str):
    return client.post(f"/api/v1/matches/{match_id}/plays/", {"card": card}, format="json")


def age_requests(seconds: int) -> None:
    RecomputeRequest.objects.update(created_at=Now() - datetime.timedelta(seconds=seconds))


# --- Redis down: the change succeeds, its recompute waits in the outbox ------------------------------


def test_the_last_card_played_with_redis_down_is_201_and_its_recompute_waits_in_the_outbox(
    world, client_of, redis_down, django_capture_on_commit_callbacks, caplog
):
    match, last = started_match(world, seed=1)
    redis_down()

    with django_capture_on_commit_callbacks(execute=True):
        response = play(client_of("sam"), match.pk, last)

    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert outbox_of(world.season) == 1
    assert recomputes(world.season) == 0 and standings_of(world.season) == []
    assert "could not schedule the standings of season" in caplog.text


def test_an_import_into_a_season_with_redis_down_leaves_its_recompute_in_the_outbox(
    world, client_of, redis_down, django_capture_on_commit_callbacks
):
    redis_down()

    with django_capture_on_commit_callbacks(execute=True):
        response = client_of("sam").post(
            f"/api/v1/matches/import/?season={world.season.pk}", simulated(2), format="json"
        )

    assert response.status_code == 201, response.content
    assert outbox_of(world.season) == 1 and recomputes(world.season) == 0


def test_a_ruling_with_redis_down_leaves_its_recompute_in_the_outbox(
    world, client_of, redis_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = file_match(world, seed=3)  # embedded: recomputed at once, nothing left
    assert outbox_of(world.season) == 0 and recomputes(world.season) == 1
    raised = client_of("ala").post(
        f"/api/v1/matches/{match.pk}/disputes/", {"deal": 1, "statement": "revoke"}, format="json"
    )
    assert raised.status_code == 201, raised.content
    redis_down()

    with django_capture_on_commit_callbacks(execute=True):
        ruled = client_of("ari").post(
            f"/api/v1/disputes/{raised.json()['id']}/ruling/",
            {"type": "score_adjusted", "points": {"N": -100, "E": 0, "S": 0, "W": 0}, "reason": "revoke"},
            format="json",
        )

    assert ruled.status_code == 201, ruled.content
    assert outbox_of(world.season) == 1 and recomputes(world.season) == 1
    # the season match is marked to be scored again in the ruling's own transaction
    assert SeasonMatch.objects.get(match=match).scored_version is None


def test_a_new_min_matches_with_redis_down_leaves_its_recompute_in_the_outbox(
    world, client_of, redis_down, django_capture_on_commit_callbacks
):
    redis_down()

    with django_capture_on_commit_callbacks(execute=True):
        response = client_of("ada").patch(f"/api/v1/seasons/{world.season.pk}/", {"min_matches": 2}, format="json")

    assert response.status_code == 200, response.content
    assert outbox_of(world.season) == 1


@pytest.mark.django_db(transaction=True)  # the command's transaction is the outermost, as in a request
def test_a_command_that_fails_leaves_no_recompute_in_the_outbox(world, monkeypatch):
    match, last = started_match(world, seed=1)
    version = Match.objects.get(pk=match.pk).version

    written = []

    def broken(*args, **kwargs):  # after the result was announced, before the command commits
        written.append(outbox_of(world.season))
        raise RuntimeError("disk full")

    monkeypatch.setattr(commands, "deal_score_rows", broken)
    with pytest.raises(RuntimeError):
        games.card_play(match_id=match.pk, actor=world.users["sam"], card=last)

    assert written == [1]  # the request was in the command's transaction...
    assert outbox_of(world.season) == 0  # ...and went with it
    assert Match.objects.get(pk=match.pk).version == version == MatchEvent.objects.filter(match=match).count()


# --- the recompute answers the requests it read ---------------------------------------------------------


def test_a_recompute_deletes_the_requests_of_its_season_with_its_standings(
    world, redis_down, django_capture_on_commit_callbacks
):
    redis_down()
    with django_capture_on_commit_callbacks(execute=True):
        file_match(world, seed=1)
        file_match(world, seed=2)
    assert outbox_of(world.season) == 2

    recompute.standings_recompute(season_id=world.season.pk)

    assert outbox_of(world.season) == 0
    assert sum(row["matches"] for row in standings_of(world.season)) == 8


def test_a_recompute_that_fails_keeps_the_requests(world, redis_down, monkeypatch, django_capture_on_commit_callbacks):
    redis_down()
    with django_capture_on_commit_callbacks(execute=True):
        file_match(world, seed=1)

    def broken(*args, **kwargs):
        raise RuntimeError("worker lost")

    monkeypatch.setattr(standing_rows, "write", broken)
    with pytest.raises(RuntimeError):
        recompute.standings_recompute(season_id=world.season.pk)

    assert outbox_of(world.season) == 1 and standings_of(world.season) == []


# --- the embedded mode: a failing recompute after the commit is logged, not the client's error ------------


@pytest.mark.django_db(transaction=True)
def test_in_the_embedded_mode_a_failing_recompute_leaves_the_play_201_and_the_request_for_later(
    world, client_of, monkeypatch, caplog, truncatable_events
):
    assert app.conf.task_always_eager
    match, last = started_match(world, seed=1)
    real = recompute.standings_recompute

    def broken(**kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(recompute, "standings_recompute", broken)

    response = play(client_of("sam"), match.pk, last)  # committed, then the recompute runs inline and fails

    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert outbox_of(world.season) == 1
    assert "could not schedule the standings of season" in caplog.text and "out of memory" in caplog.text

    monkeypatch.setattr(recompute, "standings_recompute", real)
    assert outbox.sweep(grace=0) == [world.season.pk]  # what beat (or `manage.py sweep_outbox`) does
    assert outbox_of(world.season) == 0
    assert standings_of(world.season) == rebuilt(world.season) != []


# --- the sweep ----------------------------------------------------------------------------------------------


def test_the_sweep_dispatches_only_the_requests_older_than_the_grace_period(
    world, monkeypatch, django_capture_on_commit_callbacks, settings
):
    dispatched = []
    monkeypatch.setattr(outbox, "schedule_recompute", dispatched.append)  # the broker takes it, nobody runs it
    with django_capture_on_commit_callbacks(execute=True):
        file_match(world, seed=1)
        other = services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="2026")
        services.season_update(actor=world.users["ada"], season_id=other.pk, min_matches=3)
    assert dispatched == [world.season.pk, other.pk] and RecomputeRequest.objects.count() == 2

    assert outbox.sweep() == []  # just written: their dispatch may still be on its way
    age_requests(settings.SCORING_OUTBOX_GRACE_SECONDS + 1)
    assert outbox.sweep() == sorted([world.season.pk, other.pk])

    assert dispatched[2:] == sorted([world.season.pk, other.pk])
    assert RecomputeRequest.objects.count() == 2  # the recomputes delete them, not the sweep


def test_the_sweep_keeps_the_requests_while_redis_is_still_down(world, redis_down, django_capture_on_commit_callbacks):
    redis_down()
    with django_capture_on_commit_callbacks(execute=True):
        file_match(world, seed=1)

    assert outbox.sweep(grace=0) == [world.season.pk]

    assert outbox_of(world.season) == 1


def test_manage_py_sweep_outbox_catches_up_by_hand(world, redis_down, django_capture_on_commit_callbacks, capsys):
    redis_down()
    with django_capture_on_commit_callbacks(execute=True):
        file_match(world, seed=1)
    use_broker("memory://", eager=True)  # the embedded mode again: the sweep recomputes right here

    call_command("sweep_outbox", "--grace", "0")

    assert f"recompute of 1 season(s): {world.season.pk}" in capsys.readouterr().out
    assert outbox_of(world.season) == 0
    assert standings_of(world.season) == rebuilt(world.season) != []


def test_the_sweep_runs_on_celery_beat_every_minute_with_a_grace_above_the_debounce(settings):
    entry = app.conf.beat_schedule["sweep-recompute-outbox"]

    assert entry["task"] == "scoring.tasks.sweep_outbox"
    assert entry["schedule"] == settings.SCORING_OUTBOX_SWEEP_SECONDS == 60
    assert settings.SCORING_OUTBOX_GRACE_SECONDS > settings.SCORING_DEBOUNCE_SECONDS
