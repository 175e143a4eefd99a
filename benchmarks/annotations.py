"""The annotated deals (issue 27): a season of simulated matches annotated by the worker.

    DATABASE_URL=sqlite:////tmp/kierki_annotations_bench.sqlite3 \\
        .venv/bin/python benchmarks/annotations.py [--matches 40] [--players 12] [--budgets 40000,200000]

Migrates the database named by DATABASE_URL and fills one season (club ``bench-annotations``)
with ``--matches`` simulated finished matches (``games.engine.simulate``, the generator behind
``kierki simulate``) filed through ``scoring.services.season_record_import`` with no annotation
queued (``ANNOTATE_DEALS`` off). Then, for each budget per position of ``--budgets`` (in search
nodes, ``ANNOTATION_BUDGET_NODES``), the stored annotations are dropped and every match is annotated by
the ``annotate_match`` task run in-process (what a worker runs, one core). Printed side by side
per budget: the total time, the time per deal (p50, p99, max), how many deals were exact (every
position searched to the end) and how many cards were exactly known and graded — an inexact card
whose proven cost falls within one grade is graded too. Whether the search is compiled
(``make compile-engine``) is printed: it is the main factor.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from games.engine import SEATS  # noqa: E402
from games.engine.analysis import compiled  # noqa: E402
from games.engine.simulate import simulate_match  # noqa: E402
from scoring import services, tasks  # noqa: E402
from scoring.models import Club, DealAnnotation, League, Membership, Season, SeasonMatch  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--budgets", default="40000,200000", help="nodes per position, comma-separated")
    parser.add_argument("--seed", default="annotations")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    settings.ANNOTATE_DEALS = False
    season = _season(args.matches, args.players, args.seed)
    match_ids = list(SeasonMatch.objects.filter(season=season).order_by("id").values_list("match_id", flat=True))
    print(f"{len(match_ids)} matches, search {'compiled' if compiled() else 'pure Python'}, {connection.vendor}")
    columns = ("budget", "total s", "deals", "p50 s", "p99 s", "max s", "exact deals", "cards exact", "graded")
    print(" ".join(f"{name:>{width}}" for name, width in zip(columns, (8, 9, 6, 7, 7, 7, 12, 12, 8))))
    figures = []
    for budget in (int(b) for b in args.budgets.split(",")):
        settings.ANNOTATION_BUDGET_NODES = budget
        DealAnnotation.objects.filter(match_id__in=match_ids).delete()
        started = time.perf_counter()
        for match_id in match_ids:
            tasks.annotate_match.run(str(match_id))
        total = time.perf_counter() - started
        rows = list(DealAnnotation.objects.filter(match_id__in=match_ids))
        times = sorted(r.computed_in for r in rows)
        cards = [c for r in rows for c in r.cards]
        exact_cards = sum(c["cost"][0] == c["cost"][1] for c in cards)
        graded = sum(c["grade"] is not None for c in cards)
        row = {
            "budget_nodes": budget,
            "total_s": round(total, 1),
            "deals": len(rows),
            "p50_s": round(statistics.median(times), 2),
            "p99_s": round(times[min(len(times) - 1, int(0.99 * len(times)))], 2),
            "max_s": round(times[-1], 2),
            "exact_deals": sum(r.exact for r in rows),
            "cards": len(cards),
            "exact_cards": exact_cards,
            "graded_cards": graded,
        }
        figures.append(row)
        print(
            f"{budget:>8} {row['total_s']:>9} {row['deals']:>6} "
            f"{row['p50_s']:>7} {row['p99_s']:>7} {row['max_s']:>7} "
            f"{row['exact_deals']:>5} ({100 * row['exact_deals'] / len(rows):.0f} %) "
            f"{exact_cards:>5} ({100 * exact_cards / len(cards):.0f} %) {100 * graded / len(cards):>6.0f} %"
        )
    print(f"load average while it ran: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(json.dumps({"compiled": compiled(), "matches": len(match_ids), "runs": figures}))


def _season(matches: int, players: int, seed: str) -> Season:
    User = get_user_model()
    admin, _ = User.objects.get_or_create(username="bench-admin")
    club = Club.objects.filter(slug="bench-annotations").first() or services.club_create(
        actor=admin, name="Bench annotations", slug="bench-annotations"
    )
    names = [f"bench-a{n:03d}" for n in range(1, players + 1)]
    for name in names:
        user, _ = User.objects.get_or_create(username=name)
        Membership.objects.get_or_create(club=club, user=user)
    Membership.objects.filter(club=club, user=admin).update(role=Membership.Role.ADMIN)
    league = League.objects.filter(club=club, name="bench").first() or services.league_create(
        actor=admin, club_id=club.pk, name="bench"
    )
    season = Season.objects.filter(league=league, name=f"annotations-{matches}").first() or services.season_create(
        actor=admin, league_id=league.pk, name=f"annotations-{matches}"
    )
    have = SeasonMatch.objects.filter(season=season).count()
    rng = random.Random(f"{seed}-{matches}-{have}")  # another season size, other matches
    with transaction.atomic():
        for _ in range(matches - have):
            table = rng.sample(names, 4)
            record = simulate_match(rng, players={seat.name: name for seat, name in zip(SEATS, table)})
            services.season_record_import(actor=admin, season_id=season.pk, record=record)
    return season


if __name__ == "__main__":
    main()
