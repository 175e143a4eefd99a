"""An erasure's or a rename's search for copies of a name (``accounts.name_copies``), before and after
the database picks the rows: side by side in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kierki_name_copies_bench \\
        .venv/bin/python benchmarks/name_copies.py [--rows 50000] [--naming 20] [--repeats 5]

Migrates the database named by DATABASE_URL (SQLite in ``benchmarks/name_copies.sqlite3`` without
one) and fills it, once, with ``--rows`` stored API answers (``IdempotencyKey.response``) and as
many webhook deliveries (``Delivery.payload``), each a match's JSON of four seated players; the
first ``--naming`` of each name "Paweł Gaweł". Then, alternately, "before" (every row's JSON read
into Python and walked, as the code did) and "after" (``holding``: the rows whose JSON text holds
the quoted name, picked by the database, then walked) find the rows to rewrite, each inside a
transaction rolled back. It prints the median seconds of each and the rows each found (the same),
and the figures as JSON on its last line.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(__file__).with_name('name_copies.sqlite3')}")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.name_copies import holding  # noqa: E402
from games.models import IdempotencyKey  # noqa: E402
from scoring.models import Club  # noqa: E402
from webhooks.models import Delivery, Endpoint  # noqa: E402

NAME = "Paweł Gaweł"
NOW = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)
BATCH = 5_000
TABLES = ((IdempotencyKey, "response"), (Delivery, "payload"))


def body(i: int, naming: bool) -> dict:
    seats = {"N": NAME if naming else f"gracz{i}", "E": "ala", "S": "bartek", "W": "celina"}
    deals = [{"number": n, "points": [0, -26, -52, -52]} for n in range(1, 9)]
    return {"id": f"m{i}", "players": seats, "deals": deals}


def fill(rows: int, naming: int) -> None:
    if IdempotencyKey.objects.exists():
        return
    user = get_user_model().objects.create_user("bench-scorer")
    endpoint = Endpoint.objects.create(club=Club.objects.create(name="B", slug="b"), url="https://x.test/", secret="s")
    for start in range(0, rows, BATCH):
        span = range(start, min(start + BATCH, rows))
        IdempotencyKey.objects.bulk_create(
            IdempotencyKey(user=user, key=f"k{i}", request_hash="0" * 64, status_code=201, response=body(i, i < naming))
            for i in span
        )
        Delivery.objects.bulk_create(
            Delivery(
                endpoint=endpoint,
                event_type="match.finished",
                payload=body(i, i < naming),
                next_attempt_at=NOW,
                retry_until=NOW,
                created_at=NOW,
            )
            for i in span
        )


def holds(value, names: set[str]) -> bool:
    if isinstance(value, str):
        return value in names
    if isinstance(value, list):
        return any(holds(v, names) for v in value)
    if isinstance(value, dict):
        return any(holds(v, names) for v in value.values())
    return False


def before(names: set[str]) -> int:
    """The rows to rewrite as the code found them: every row read and walked."""
    found = 0
    for model, field in TABLES:
        found += sum(holds(value, names) for _, value in model.objects.values_list("pk", field).iterator())
    return found


def after(names: set[str]) -> int:
    found = 0
    for model, field in TABLES:
        rows = holding(model.objects.all(), field, names).values_list("pk", field).iterator()
        found += sum(holds(value, names) for _, value in rows)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--naming", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    fill(args.rows, args.naming)
    times: dict[str, list[float]] = {"before": [], "after": []}
    found: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, run in (("before", before), ("after", after)):
            started = time.perf_counter()
            found[name] = run({NAME})
            times[name].append(time.perf_counter() - started)
    vendor = connection.vendor
    print(f"{vendor}, {args.rows:,} stored answers and {args.rows:,} deliveries, {args.naming} of each naming him")
    for name in times:
        print(f"{name:>6}: median {statistics.median(times[name]):.3f} s, {found[name]} rows found")
    figures = {name: round(statistics.median(t), 4) for name, t in times.items()}
    print(json.dumps({"database": vendor, "rows": args.rows, "seconds": figures, "found": found}))


if __name__ == "__main__":
    main()
