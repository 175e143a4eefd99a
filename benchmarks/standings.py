"""Standings figures (issue 4): a full rebuild of a big season, and one incremental recompute.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kierki_standings_bench \\
        .venv/bin/python benchmarks/standings.py [--matches 10000] [--players 40] [--extra 5]

Migrates the database named by DATABASE_URL, then fills one season (club ``bench``, league
``bench``, season ``bench-<matches>``) with simulated finished matches among ``--players``
club members — the generator behind ``kierki simulate`` — each filed through
``scoring.services.season_record_import`` (so through the match commands, all events and
read models written). Resumable: a second run imports only what is missing. The recompute
receiver is off while filling; the recomputes are timed on their own:

- full rebuild: the league's derived rows (lines, rating log, ratings, standings) emptied,
  then ``standings_recompute(full=True)``: every match scored from ``DealScore``, every match
  rated with openskill in finish order, the standings ranked and written. Target ≤ 10 s.
- incremental: ``--extra`` more matches filed one at a time, each followed by the
  ``recompute_season`` task run in-process (what a worker runs). Target ≤ 100 ms.
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

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from tqdm import tqdm  # noqa: E402

from games.domain.signals import match_result_changed  # noqa: E402
from games.engine import SEATS  # noqa: E402
from games.engine.simulate import simulate_match  # noqa: E402
from scoring import recompute, services, tasks  # noqa: E402
from scoring.models import Club, League, MatchLine, Membership, RatedMatch, Rating, Season, SeasonMatch, StandingRow  # noqa: E402

BATCH = 100  # matches per transaction while filling


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--extra", type=int, default=5, help="incremental recomputes to time")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    match_result_changed.disconnect(dispatch_uid="scoring.match_result_changed")
    scorer, season = _world(args.matches, args.players)
    _fill(season, scorer, args.matches, args.players)

    _empty_derived(season.league_id)
    started = time.perf_counter()
    done = recompute.standings_recompute(season_id=season.pk, full=True)
    full = time.perf_counter() - started
    lines = MatchLine.objects.filter(season=season).count()
    print(
        f"full rebuild: {full:.2f} s — {done.scored:,} matches scored ({lines:,} lines), {done.rated:,} rated, "
        f"{done.rows} standing rows ({connection.vendor})"
    )

    started = time.perf_counter()
    recompute.standings_recompute(season_id=season.pk, full=True)
    nightly = time.perf_counter() - started
    print(f"full rebuild over existing rows (the nightly run): {nightly:.2f} s")

    rng = random.Random(f"extra-{SeasonMatch.objects.filter(season=season).count()}")
    incremental = []
    for _ in range(args.extra):
        _file(season, scorer, rng, args.players)
        started = time.perf_counter()
        tasks.recompute_season.apply(args=(season.pk,)).get()
        incremental.append(time.perf_counter() - started)
    median, worst = statistics.median(incremental) * 1000, max(incremental) * 1000
    print(
        f"incremental recompute after one more match: median {median:.0f} ms, max {worst:.0f} ms "
        f"(of {args.extra}; season now {SeasonMatch.objects.filter(season=season).count():,} matches)"
    )
    print(f"load average while it ran: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(
        json.dumps(
            {
                "matches": done.scored,
                "full_rebuild_s": round(full, 2),
                "nightly_rebuild_s": round(nightly, 2),
                "incremental_ms_median": round(median),
                "incremental_ms_max": round(worst),
            }
        )
    )


def _world(matches: int, players: int):
    User = get_user_model()
    admin, _ = User.objects.get_or_create(username="bench-admin")
    club = Club.objects.filter(slug="bench").first() or services.club_create(actor=admin, name="Bench", slug="bench")
    for n in range(1, players + 1):
        user, _ = User.objects.get_or_create(username=_name(n))
        Membership.objects.get_or_create(club=club, user=user)
    Membership.objects.filter(club=club, user=admin).update(role=Membership.Role.ADMIN)
    league = League.objects.filter(club=club, name="bench").first() or services.league_create(
        actor=admin, club_id=club.pk, name="bench"
    )
    season = Season.objects.filter(league=league, name=f"bench-{matches}").first() or services.season_create(
        actor=admin, league_id=league.pk, name=f"bench-{matches}"
    )
    return admin, season


def _name(n: int) -> str:
    return f"bench-p{n:03d}"


def _fill(season, scorer, matches: int, players: int) -> None:
    have = SeasonMatch.objects.filter(season=season).count()
    if have >= matches:
        return
    rng = random.Random(f"bench-{have}")
    with tqdm(total=matches, initial=have, unit="match", desc="filing matches") as bar:
        while have < matches:
            batch = min(BATCH, matches - have)
            with transaction.atomic():
                for _ in range(batch):
                    _file(season, scorer, rng, players)
            have += batch
            bar.update(batch)


def _file(season, scorer, rng: random.Random, players: int) -> None:
    table = rng.sample(range(1, players + 1), 4)
    record = simulate_match(rng, players={seat.name: _name(n) for seat, n in zip(SEATS, table)})
    services.season_record_import(actor=scorer, season_id=season.pk, record=record)


def _empty_derived(league_id: int) -> None:
    with transaction.atomic():
        StandingRow.objects.filter(season__league_id=league_id).delete()
        Rating.objects.filter(league_id=league_id).delete()
        RatedMatch.objects.filter(league_id=league_id).delete()
        MatchLine.objects.filter(season__league_id=league_id).delete()
        SeasonMatch.objects.filter(season__league_id=league_id).update(scored_version=None, finished_at=None)


if __name__ == "__main__":
    main()
