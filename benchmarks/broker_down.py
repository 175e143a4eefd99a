"""What Redis being down costs a request (docs/operations.md): the last card of a season
match — the play that asks for the standings recompute after its commit — timed through the
API (in-process, DRF's test client) in broker mode with Redis

- up (the live one, ``--redis``; the task is published),
- refusing connections (a closed port: the server is stopped),
- not answering the connection (a listener whose accept queue is full: the host is gone),
- connected but never replying (a listener that never reads: the server is stuck);
- up for the debounce (``REDIS_URL``) while the broker, a Redis of its own, refuses connections
  (the publish and its retry policy).

    .venv/bin/python benchmarks/broker_down.py [--redis redis://127.0.0.1:6379/4] [--plays 5]

The database is ``DATABASE_URL`` (default: a fresh SQLite file in a temporary folder), migrated
first. The play itself is the same in every case; the difference is the time spent reaching Redis.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/broker_down.sqlite3")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")  # DRF's test client
os.environ.setdefault("LOG_LEVEL", "ERROR")  # not a warning per failed dispatch
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/4")  # broker mode (the URL is set per case)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from config.celery import app  # noqa: E402
from games.engine import Ruleset, Seat  # noqa: E402
from games.engine.simulate import simulate_match  # noqa: E402
from games.write import services as games  # noqa: E402
from scoring import services as leagues  # noqa: E402

SEATS = ("N", "E", "S", "W")
SHORT = {"regular_deals": ["R", "O"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/4", help="the live Redis (flushed)")
    parser.add_argument("--plays", type=int, default=5, help="plays timed per case")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    scorer, season = _world()
    client = APIClient()
    client.force_authenticate(scorer)
    print(
        f"REDIS_CONNECT_TIMEOUT={settings.REDIS_CONNECT_TIMEOUT} s, REDIS_SOCKET_TIMEOUT="
        f"{settings.REDIS_SOCKET_TIMEOUT} s, publish retry policy {settings.CELERY_TASK_PUBLISH_RETRY_POLICY}"
    )
    cases = (
        ("Redis up", _up(args.redis), None),
        ("Redis refused", _refused(), None),
        ("Redis unreachable", _full_backlog(), None),
        ("Redis stuck", _never_replies(), None),
        ("broker refused", _refused(), args.redis),
    )
    for name, broker_at, redis_url in cases:
        with broker_at as url:
            _use(url, redis_url or url)
            times = [_last_play(client, scorer, season, seed) for seed in range(args.plays)]
        print(
            f"{name:<17} last play: median {statistics.median(times) * 1000:7.1f} ms, "
            f"max {max(times) * 1000:7.1f} ms  ({args.plays} plays)"
        )


def _world():
    tag = f"b{int(time.time())}"
    users = {name: get_user_model().objects.create_user(f"{tag}-{name}") for name in ("admin", "n", "e", "s", "w")}
    club = leagues.club_create(actor=users["admin"], name=tag, slug=tag)
    for name in ("n", "e", "s", "w"):
        leagues.membership_set(actor=users["admin"], club_id=club.pk, username=f"{tag}-{name}", role="scorer")
    league = leagues.league_create(actor=users["admin"], club_id=club.pk, name=tag, ruleset={"options": SHORT})
    season = leagues.season_create(actor=users["admin"], league_id=league.pk, name=tag)
    return users["n"], season


def _last_play(client, scorer, season, seed: int) -> float:
    """Play a season match but for its last card through the services, then time that card."""
    names = {seat: f"{scorer.get_username()[:-2]}-{seat.lower()}" for seat in SEATS}
    record = simulate_match(
        random.Random(seed), players=names, first_dealer=Seat.N, ruleset=Ruleset.from_options(SHORT)
    )
    match = leagues.season_match_create(
        actor=scorer, season_id=season.pk, seats=names, first_dealer="N", dealing="recorded"
    )
    for number, deal in enumerate(record["deals"], start=1):
        games.deal_start(match_id=match.pk, actor=scorer, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(
                match_id=match.pk, actor=scorer, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            games.lead_decide(match_id=match.pk, actor=scorer, offer=offered.events[0].seq)
        for card in deal["plays"][:-1] if number == len(record["deals"]) else deal["plays"]:
            games.card_play(match_id=match.pk, actor=scorer, card=card)
    started = time.perf_counter()
    response = client.post(
        f"/api/v1/matches/{match.pk}/plays/", {"card": record["deals"][-1]["plays"][-1]}, format="json"
    )
    elapsed = time.perf_counter() - started
    assert response.status_code == 201, response.status_code
    return elapsed


def _use(broker_url: str, redis_url: str) -> None:
    settings.REDIS_URL = redis_url
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def _up(url: str):
    import redis

    redis.Redis.from_url(url).flushdb()
    yield url
    redis.Redis.from_url(url).flushdb()


@contextmanager
def _refused():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    yield f"redis://127.0.0.1:{port}/0"


@contextmanager
def _full_backlog():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        fillers = [socket.socket() for _ in range(3)]
        for filler in fillers:
            filler.setblocking(False)
            filler.connect_ex(listener.getsockname())
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
        for filler in fillers:
            filler.close()


@contextmanager
def _never_replies():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"


if __name__ == "__main__":
    main()
