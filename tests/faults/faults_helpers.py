"""Helpers for the fault tests: quick matches in the club world, Redis that is down and comes
back, the app switched to a broker (the world, the worker, the bounded waits are tests/support's)."""

from __future__ import annotations

import select
import socket
import threading

import redis
from support.servers import LIVE_REDIS, Worker, closed_port, require_redis  # noqa: F401 - re-exported
from support.world import World, play_record, season_match, simulated, standings_of  # noqa: F401 - re-exported

from config.celery import app
from scoring import recompute
from scoring import services as leagues
from scoring.models import RecomputeRequest, Season


def started_match(world: World, seed: int):
    """A recorded season match scored by ``sam``, played but for its last card; returns the match
    and that card."""
    match = season_match(world)
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


def rebuilt(season) -> list[dict]:
    """The standings as a from-scratch rebuild makes them (written, then read back)."""
    recompute.standings_recompute(season_id=season.pk, full=True)
    return standings_of(season)


# --- Redis ---------------------------------------------------------------------------------------


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
