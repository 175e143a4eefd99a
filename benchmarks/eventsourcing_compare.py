"""Card plays per second against the `eventsourcing` library's saves per second (issue 16, item 4).

    pip install "eventsourcing[postgres]"    # the benchmark's own dependency, not the project's
    .venv/bin/python benchmarks/eventsourcing_compare.py \\
        [--database-url postgres://postgres@127.0.0.1:5432/kierki_es_bench] [--plays 2000] [--rounds 5]

In process, one thread, one PostgreSQL, in one run:

- **kierki**: ``games.write.services.card_play`` — the project's command path as the API calls it (the
  rules engine, the event with its hash chain, the version and the read models, all or nothing)
  — on server-dealt matches of four users. The seat on turn plays a random legal card, chosen
  from the state the command returns; only the ``card_play`` calls are timed (dealing and new
  matches are not). A card in a deal that goes on takes the optimistic branch
  (docs/card-play.md): decided on the match as this process left it, written by one
  self-committing statement if the match has not moved; the last card of a deal takes the
  locked line (the match locked with its projection, one transaction).
- **eventsourcing**: an ``Application`` with its PostgreSQL persistence (``eventsourcing.postgres``)
  and its aggregate cache on; one aggregate per match, ``card_played`` then ``save()``: one event
  per save, the aggregate got from the repository (the cache) each time. A new aggregate every 52
  saves; only the card saves are timed.

The two alternate in ``--rounds`` rounds of ``--plays / rounds`` each, so that a change of load on
the machine hits both alike. The database of ``--database-url`` (its name must contain ``bench``)
is dropped and created afresh; the library's tables live in the same database. The last line is
JSON with every figure. Target (issue 16): kierki ≥ 1.5 × eventsourcing. Both sides wait for
one WAL flush per play or save, so the slower the disk's flush, the nearer 1 the ratio; compare
runs back to back (figures: docs/hot-path-sql.md, "What it bought").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/kierki_es_bench"
TARGET_RATIO = 1.5
PLAYS_PER_AGGREGATE = 52  # a deal's cards: one aggregate (match) per deal, as kierki starts new deals


def reset_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"refusing to drop database {name!r}: its name must contain 'bench'")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def backend_cpu_seconds() -> float:
    """CPU time of this process's PostgreSQL backend so far (/proc: the server runs on this machine)."""
    from django.db import connection

    if not hasattr(connection, "backend_stat"):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            connection.backend_stat = Path(f"/proc/{cursor.fetchone()[0]}/stat")
    try:
        fields = connection.backend_stat.read_text().rsplit(")", 1)[1].split()
    except OSError:  # not on this machine: the figure stays 0
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


class KierkiTables:
    """Server-dealt matches played through the command path, a random legal card at a time."""

    def __init__(self, seed: int):
        from django.contrib.auth import get_user_model

        from games.write import services

        self.services, self.rng = services, random.Random(seed)
        self.users = {seat: get_user_model().objects.create_user(f"bench{seat}") for seat in "NESW"}
        for user in self.users.values():
            services.player_for_user(user)
        self.match_id, self.state, self.cpu, self.backend_cpu = None, None, 0.0, 0.0
        self._new_match()

    def _new_match(self) -> None:
        from games.models import Match

        match = self.services.match_create(
            actor=self.users["N"],
            first_dealer="N",
            dealing=Match.Dealing.SERVER,
            seats={seat: f"bench{seat}" for seat in "NESW"},
        )
        self.match_id = match.pk
        self._deal()

    def _deal(self) -> None:
        self.state = self.services.deal_start(match_id=self.match_id, actor=self.users["N"]).state

    def play(self, count: int) -> float:
        """Seconds spent in ``count`` card_play commands (their CPU time in this process: ``self.cpu``)."""
        from games.engine.cards import NAMES

        spent = 0.0
        for _ in range(count):
            if self.state.deal is None:  # the deal ended: the next one, or a new match (untimed)
                self._new_match() if self.state.complete else self._deal()
            deal = self.state.deal
            seat = deal.to_play
            mask = deal.legal_mask(seat)
            card = NAMES[self.rng.choice([c for c in range(52) if mask >> c & 1])]
            backend = backend_cpu_seconds()
            started, cpu = time.perf_counter(), time.process_time()
            result = self.services.card_play(match_id=self.match_id, actor=self.users[seat.name], card=card)
            spent += time.perf_counter() - started
            self.cpu += time.process_time() - cpu
            self.backend_cpu += backend_cpu_seconds() - backend
            self.state = result.state
        return spent


class LibraryTables:
    """The eventsourcing library: an aggregate per match, one CardPlayed event per save."""

    def __init__(self, database_url: str):
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event

        class Table(Aggregate):
            def __init__(self):
                self.plays: list[str] = []

            @event("CardPlayed")
            def card_played(self, seat: str, card: str) -> None:
                self.plays.append(f"{seat}{card}")

        class Tables(Application):
            def open(self):
                table = Table()
                self.save(table)
                return table.id

            def play(self, table_id, seat: str, card: str) -> None:
                table = self.repository.get(table_id)
                table.card_played(seat=seat, card=card)
                self.save(table)

        parts = urlsplit(database_url)
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parts.path.lstrip("/"),
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": parts.username or "postgres",
            "POSTGRES_PASSWORD": parts.password or "",
            "CREATE_TABLE": "y",
            "AGGREGATE_CACHE_MAXSIZE": "1000",
            "IS_SNAPSHOTTING_ENABLED": "n",
        }
        self.app = Tables(env=env)
        self.table_id, self.saves = self.app.open(), 0

    def play(self, count: int) -> float:
        spent = 0.0
        for _ in range(count):
            if self.saves == PLAYS_PER_AGGREGATE:  # a new aggregate (untimed), as kierki's new deal
                self.table_id, self.saves = self.app.open(), 0
            started = time.perf_counter()
            self.app.play(self.table_id, "NESW"[self.saves % 4], "QS")
            spent += time.perf_counter() - started
            self.saves += 1
        return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--plays", type=int, default=2000, help="card plays (and saves) timed on each side")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import eventsourcing.postgres  # noqa: F401
    except ImportError:
        sys.exit('this benchmark needs the eventsourcing library: pip install "eventsourcing[postgres]"')

    reset_database(args.database_url)
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "benchmark-" + "x" * 40,
        }
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    kierki, library = KierkiTables(args.seed), LibraryTables(args.database_url)
    kierki.play(args.warmup), library.play(args.warmup)
    kierki.cpu = kierki.backend_cpu = 0.0

    per_round = max(1, args.plays // args.rounds)
    spent = {"kierki": 0.0, "eventsourcing": 0.0}
    for _ in range(args.rounds):
        spent["kierki"] += kierki.play(per_round)
        spent["eventsourcing"] += library.play(per_round)
    done = per_round * args.rounds
    rates = {side: done / seconds for side, seconds in spent.items()}
    ratio = rates["kierki"] / rates["eventsourcing"]
    print(f"PostgreSQL {connection.pg_version // 10000}, one thread, {done} each, {args.rounds} alternating rounds")
    cpu_ms, backend_ms = 1000 * kierki.cpu / done, 1000 * kierki.backend_cpu / done
    print(
        f"kierki card_play:        {rates['kierki']:8.1f} plays/s  ({1000 / rates['kierki']:.2f} ms each; CPU: "
        f"{cpu_ms:.2f} ms in this process, {backend_ms:.2f} ms in its PostgreSQL backend)"
    )
    library_rate = rates["eventsourcing"]
    print(f"eventsourcing save:      {library_rate:8.1f} saves/s  ({1000 / library_rate:.2f} ms each)")
    verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"ratio kierki/library:    {ratio:8.2f}  (target ≥ {TARGET_RATIO}: {verdict})")
    print(
        json.dumps(
            {
                "plays": done,
                "kierki_plays_per_second": round(rates["kierki"], 1),
                "eventsourcing_saves_per_second": round(rates["eventsourcing"], 1),
                "ratio": round(ratio, 3),
                "target_ratio": TARGET_RATIO,
                "kierki_process_cpu_ms_per_play": round(cpu_ms, 3),
                "kierki_postgres_cpu_ms_per_play": round(backend_ms, 3),
                "eventsourcing_version": metadata.version("eventsourcing"),
            }
        )
    )


if __name__ == "__main__":
    main()
