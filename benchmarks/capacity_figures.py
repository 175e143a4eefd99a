"""The per-play figures behind docs/capacity.md: Redis commands per play, bytes per event and per match.

    .venv/bin/python benchmarks/capacity_figures.py [--database-url postgres://postgres@127.0.0.1:5432/kierki_capacity_bench]
        [--redis-url redis://127.0.0.1:6379/11] [--plays 520] [--throttle 6000/minute]

1. **Redis per play.** Drops and creates a database of its own (``<name>_redis``), then plays
   ``--plays`` cards of server-dealt matches through the API in process (Django's test client: every
   middleware, token authentication, the throttles, the command, the response), with ``REDIS_URL``
   (the throttles' cache) and the Celery broker on ``--redis-url`` and ``API_THROTTLE_USER`` set to
   ``--throttle``; every command redis-py sends is counted (a pipeline's commands one by one, and
   its round trip once). A second pass with no throttle shows what the play path itself sends.
2. **Bytes.** On ``--database-url`` (run benchmarks/standings.py on it first: a simulated season
   filed through the match commands): events, their average row size (``pg_column_size``), the
   event table with its indexes over all partitions (``pg_total_relation_size``), and the whole
   database per match.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.eventsourcing_compare import reset_database  # noqa: E402


def _count_redis_commands(counter: collections.Counter) -> None:
    import redis.client

    plain, piped = redis.client.Redis.execute_command, redis.client.Pipeline.execute

    def execute_command(self, *args, **options):
        if not isinstance(self, redis.client.Pipeline):  # a pipeline's commands are counted when it runs
            counter[" commands"] += 1
            counter[" round trips"] += 1
            counter[str(args[0]).upper()] += 1
        return plain(self, *args, **options)

    def execute(self, *args, **options):
        counter[" round trips"] += 1
        for command in self.command_stack:
            counter[" commands"] += 1
            counter[str(command.args[0]).upper()] += 1
        return piped(self, *args, **options)

    redis.client.Redis.execute_command, redis.client.Pipeline.execute = execute_command, execute


def redis_per_play(plays: int) -> dict:
    """Cards played through the API; the Redis commands counted while they were."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from rest_framework.authtoken.models import Token

    from games.engine.match import restore
    from games.models import MatchProjection
    from games.write import services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    cache.clear()
    users = {seat: get_user_model().objects.create_user(f"cap{seat}") for seat in "NESW"}
    for user in users.values():
        services.player_for_user(user)
    clients = {
        seat: Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=u).key}") for seat, u in users.items()
    }
    counter: collections.Counter = collections.Counter()
    _count_redis_commands(counter)
    counter.clear()
    match_id, played, other = None, 0, 0
    while played < plays:
        state = restore(MatchProjection.objects.get(pk=match_id).snapshot) if match_id else None
        if state is None or (state.deal is None and state.complete):
            answer = clients["N"].post(
                "/api/v1/matches/",
                {"seats": {s: f"cap{s}" for s in "NESW"}, "first_dealer": "N", "dealing": "server"},
                content_type="application/json",
            )
            match_id, other = answer.json()["id"], other + 1
            continue
        if state.deal is None:
            clients["N"].post(f"/api/v1/matches/{match_id}/deals/", {}, content_type="application/json")
            other += 1
            continue
        seat = state.deal.to_play
        card = str(state.deal.legal_cards(seat)[0])
        answer = clients[seat.name].post(
            f"/api/v1/matches/{match_id}/plays/", {"card": card}, content_type="application/json"
        )
        assert answer.status_code == 201, answer.content
        played += 1
    return {
        "plays": played,
        "other_requests": other,
        "commands_per_play": round(counter[" commands"] / played, 2),
        "round_trips_per_play": round(counter[" round trips"] / played, 2),
        "by_command": {name: n for name, n in counter.most_common() if not name.startswith(" ")},
    }


def bytes_per_event(database_url: str) -> dict:
    import psycopg

    with psycopg.connect(database_url) as conn:
        one = lambda sql: conn.execute(sql).fetchone()  # noqa: E731
        matches, events, row = one(
            "SELECT (SELECT count(*) FROM games_match), count(*), avg(pg_column_size(e.*)) FROM games_matchevent e"
        )
        table, heap = one(
            "SELECT sum(pg_total_relation_size(relid)), sum(pg_relation_size(relid)) "
            "FROM pg_partition_tree('games_matchevent')"
        )
        database = one("SELECT pg_database_size(current_database())")[0]
        by_type = conn.execute(
            "SELECT type, count(*), avg(pg_column_size(e.*))::int FROM games_matchevent e GROUP BY type ORDER BY 2 DESC"
        ).fetchall()
    return {
        "matches": matches,
        "events": events,
        "events_per_match": round(events / matches, 1),
        "row_bytes_per_event": round(float(row)),
        "heap_bytes_per_event": round(heap / events),
        "table_and_indexes_bytes_per_event": round(table / events),
        "event_table_bytes_per_match": round(table / matches),
        "database_bytes_per_match": round(database / matches),
        "row_bytes_by_type": {kind: size for kind, _, size in by_type},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/kierki_capacity_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--plays", type=int, default=520)
    parser.add_argument("--throttle", default="6000/minute")
    parser.add_argument("--no-throttle", action="store_true", help="the pass without API_THROTTLE_USER")
    args = parser.parse_args()
    parts = urlsplit(args.database_url)
    redis_db_url = urlunsplit(parts._replace(path=parts.path + "_redis"))
    reset_database(redis_db_url)
    os.environ.update(
        {
            "DATABASE_URL": redis_db_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "REDIS_URL": args.redis_url,
            "LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": args.redis_url,
            "API_THROTTLE_USER": "" if args.no_throttle else args.throttle,
        }
    )
    import django

    django.setup()
    figures = {
        "throttle": None if args.no_throttle else args.throttle,
        "redis": redis_per_play(args.plays),
        "bytes": bytes_per_event(args.database_url),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
