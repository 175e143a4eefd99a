"""Helpers for the fault tests: a club world with quick matches, Redis that is down and comes
back, a real Celery worker in a subprocess, bounded waits."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.db import connection
from polling import wait_for
from short_matches import PLAYERS, SEATS, SHORT, play_record, simulated

from config.celery import app
from scoring import recompute
from scoring import services as leagues
from scoring.models import RecomputeRequest, Season, StandingRow

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
# The live Redis of these tests: CI's REDIS_URL, else database 4 of the local one.
LIVE_REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/4"


@dataclass
class World:
    users: dict
    club: object
    league: object
    season: object


def make_world(user_model) -> World:
    """Club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members ``ala``, ``bartek``,
    ``celina``, ``darek``; league ``Liga`` (two regular deals), season ``2025``."""
    users = {name: user_model.objects.create_user(name) for name in ("ada", "sam", "ari", *PLAYERS)}
    club = leagues.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name, role in (("sam", "scorer"), ("ari", "arbiter"), *((player, "member") for player in PLAYERS)):
        leagues.membership_set(actor=users["ada"], club_id=club.pk, username=name, role=role)
    league = leagues.league_create(actor=users["ada"], club_id=club.pk, name="Liga", ruleset={"options": SHORT})
    season = leagues.season_create(actor=users["ada"], league_id=league.pk, name="2025")
    return World(users, club, league, season)


def started_match(world: World, seed: int):
    """A recorded season match scored by ``sam``, played but for its last card; returns the match
    and that card."""
    match = leagues.season_match_create(
        actor=world.users["sam"],
        season_id=world.season.pk,
        seats=dict(zip(SEATS, PLAYERS)),
        first_dealer="N",
        dealing="recorded",
    )
    record = simulated(seed)
    last = record["deals"][-1]
    play_record(match, {"deals": [*record["deals"][:-1], {**last, "plays": last["plays"][:-1]}]}, world.users["sam"])
    return match, last["plays"][-1]


def file_match(world: World, seed: int):
    """A finished match filed into the season (``season_record_import``)."""
    return leagues.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=simulated(seed))


def outbox_of(season) -> int:
    return RecomputeRequest.objects.filter(season=season).count()


def recomputes(season) -> int:
    return Season.objects.get(pk=season.pk).recomputes


def standings_of(season) -> list[dict]:
    """The stored standings, every column but the id, in order."""
    return list(
        StandingRow.objects.filter(season=season)
        .order_by("order")
        .values(*[f.name for f in StandingRow._meta.concrete_fields if f.name != "id"])
    )


def rebuilt(season) -> list[dict]:
    """The standings as a from-scratch rebuild makes them (written, then read back)."""
    recompute.standings_recompute(season_id=season.pk, full=True)
    return standings_of(season)


# --- Redis ---------------------------------------------------------------------------------------


def require_redis(url: str = LIVE_REDIS) -> None:
    """Skip without Redis at ``url``; under CI=true that is a failure."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        if IN_CI:
            pytest.fail(f"CI=true but Redis does not answer at {url}: {exc}", pytrace=False)
        pytest.skip(f"needs Redis at {url}: {exc}")


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisDoor:
    """A TCP forwarder to the live Redis on a port of its own, shut at first: Redis is down at a
    fixed address (``url``) until ``open()``, as when the server stops and comes back."""

    def __init__(self, target: str = LIVE_REDIS):
        parsed = redis.connection.parse_url(target)
        self.target = (parsed.get("host", "127.0.0.1"), parsed.get("port", 6379))
        self.port = closed_port()
        self.url = f"redis://127.0.0.1:{self.port}/{parsed.get('db', 0)}"
        self._listener: socket.socket | None = None
        self._stop = threading.Event()

    def open(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            upstream = socket.create_connection(self.target)
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        with a, b:
            while not self._stop.is_set():
                ready, _, _ = select.select([a, b], [], [], 0.2)
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        return
                    (b if source is a else a).sendall(data)


def use_broker(url: str, *, eager: bool = False) -> None:
    """The app publishes to ``url`` from now on (``eager``: runs its tasks in-process, as in the
    embedded mode). Its pools are left open: kombu keeps them per URL, for the next use of it."""
    app.conf.update(broker_url=url, task_always_eager=eager)
    app._pool = None
    app.amqp._producer_pool = None


# --- a Celery worker in a subprocess ----------------------------------------------------------------


class Worker:
    """``celery -A config worker --pool=solo`` on ``broker`` and the test database."""

    def __init__(self, broker: str, name: str, **env: str):
        db = connection.settings_dict
        database_url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
        environ = dict(
            os.environ, CELERY_BROKER_URL=broker, REDIS_URL=broker, DATABASE_URL=database_url, LOG_FORMAT="text", **env
        )
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}-{os.getpid()}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()
        wait_for(
            lambda: "ready." in "".join(self.log) or self.process.poll() is not None,
            60,
            "the worker to start",
            self.log,
        )
        if self.process.poll() is not None:
            pytest.fail(f"the worker exited with {self.process.returncode}:\n{''.join(self.log)}", pytrace=False)

    def kill(self) -> None:
        """SIGKILL: no clean-up, no acknowledgement, no rollback sent to the database."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
