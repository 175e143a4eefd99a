"""v1's pages against v2's cursors (issue 29): one page of the match list, near and deep, side by side.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kierki_pagination_bench \\
        .venv/bin/python benchmarks/pagination.py [--matches 20000] [--limit 50] [--repeats 15]

Migrates the database named by DATABASE_URL and fills it (once; a second run reuses it) with
``--matches`` match rows seated by four players, each created a second apart, so that the list's
order (``-created_at``, then the primary key) is that of a long-lived club server. Then, for
pages at several depths, it reads the page that a staff user's ``GET matches/`` would answer —
``selectors.match_list`` paginated by ``api.pagination`` — in v1 (``?page=N``: a ``COUNT`` and
an ``OFFSET``) and in v2 (``?cursor=``: the key of the previous page's last row), alternating
v1 and v2 so that a change of load hits both alike, each once it has run often enough on the
connection for psycopg to have prepared it (``DATABASE_PREPARE_THRESHOLD``), as on a server's
long-lived connection: planning this list's nine-table join took PostgreSQL 16-28 ms a time, more
than reading the page. It prints, per depth, the median time of the
pagination (the queries and the rows' objects, not the serialiser, which both share) and its
number of queries; then the same without the index on the list's order (``match_list_order``,
dropped inside a transaction that is rolled back). The last line is the figures as JSON.
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

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402

from api.pagination import KeysetPagination, ListPagination, encode_cursor, key_of, keyset  # noqa: E402
from games.models import Match, Player  # noqa: E402
from games.read import selectors  # noqa: E402

BATCH = 2_000
START = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
INDEX = "match_list_order"  # games.Match.Meta.indexes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    staff = fill(args.matches)
    matches = selectors.match_list(user=staff)
    pages = args.matches // args.limit
    depths = sorted({1, 10, pages // 10, pages // 2, pages} - {0})
    print(f"{connection.vendor}, {args.matches:,} matches, {args.limit} per page, median of {args.repeats}")
    figures = {"index": sweep(matches, depths, args.limit, args.repeats)}
    with transaction.atomic():  # the same pages without the list's index, dropped and put back
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {INDEX}")
        figures["no index"] = sweep(matches, depths, args.limit, args.repeats)
        transaction.set_rollback(True)
    print(json.dumps({"vendor": connection.vendor, "matches": args.matches, "limit": args.limit, "pages": figures}))


def sweep(matches, depths, limit: int, repeats: int) -> dict:
    """Each depth's page in v1 and v2, alternating; printed as a table and returned."""
    has_index = INDEX in connection.introspection.get_constraints(connection.cursor(), Match._meta.db_table)
    print(f"{'with' if has_index else 'without'} the index {INDEX}")
    print(f"{'page':>6} | {'v1 ms':>8} {'queries':>7} | {'v2 ms':>8} {'queries':>7}")
    figures = {}
    for depth in depths:
        requests = {
            "v1": (ListPagination, v1_request(depth, limit)),
            "v2": (KeysetPagination, v2_request(matches, depth, limit)),
        }
        for paginator, request in requests.values():  # a server's connection has prepared both by now
            for _ in range(settings.DATABASE_PREPARE_THRESHOLD + 1):
                paginator().paginate_queryset(matches, request)
        times = {name: [] for name in requests}
        for _ in range(repeats):
            for name, (paginator, request) in requests.items():
                times[name].append(timed(paginator, matches, request))
        counts = {name: queries(paginator, matches, request) for name, (paginator, request) in requests.items()}
        medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
        print(f"{depth:>6} | {medians['v1']:>8.2f} {counts['v1']:>7} | {medians['v2']:>8.2f} {counts['v2']:>7}")
        figures[depth] = {name: {"ms": round(medians[name], 3), "queries": counts[name]} for name in medians}
    return figures


def fill(count: int):
    """A staff user and ``count`` matches among four players (only what is missing is added)."""
    user_model = get_user_model()
    staff, _ = user_model.objects.get_or_create(username="bench-staff", defaults={"is_staff": True})
    players = [Player.objects.get_or_create(username=f"bench-{seat}")[0] for seat in "NESW"]
    have = Match.objects.filter(created_by=staff).count()
    for start in range(have, count, BATCH):
        with transaction.atomic():
            created = Match.objects.bulk_create(
                Match(
                    north=players[0],
                    east=players[1],
                    south=players[2],
                    west=players[3],
                    first_dealer="N",
                    ruleset_name="kierki",
                    ruleset_version=1,
                    dealing=Match.Dealing.RECORDED,
                    created_by=staff,
                )
                for _ in range(start, min(count, start + BATCH))
            )
            # auto_now_add stamps a batch with one instant; a club's matches come a second apart
            for offset, match in enumerate(created, start):
                match.created_at = START + dt.timedelta(seconds=offset)
            Match.objects.bulk_update(created, ["created_at"])
    return staff


def v1_request(page: int, limit: int) -> Request:
    return Request(APIRequestFactory().get("/api/v1/matches/", {"page": page, "limit": limit}))


def v2_request(matches, page: int, limit: int) -> Request:
    """The request a client makes for page ``page`` by following ``next``: the cursor holds the
    key of the last row of the page before it (found here once, outside the timing)."""
    params = {"limit": limit}
    if page > 1:
        ordered = matches.order_by(*(("-" if descending else "") + name for name, descending in keyset(matches)))
        last = ordered[(page - 1) * limit - 1]
        params["cursor"] = encode_cursor({"key": key_of(last, keyset(matches))})
    return Request(APIRequestFactory().get("/api/v2/matches/", params))


def timed(paginator, matches, request) -> float:
    began = time.perf_counter()
    rows = paginator().paginate_queryset(matches, request)
    took = time.perf_counter() - began
    assert rows, "an empty page: the benchmark asked past the end"
    return took


def queries(paginator, matches, request) -> int:
    with CaptureQueriesContext(connection) as captured:
        paginator().paginate_queryset(matches, request)
    return len(captured.captured_queries)


if __name__ == "__main__":
    main()
