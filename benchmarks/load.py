"""Load and soak figures (issue 6): 64 tables play season matches through HTTP at once, for a bounded time.

    .venv/bin/python benchmarks/load.py [--mode flat|club|both] [--duration 120] [--tables 64]
        [--database-url postgres://postgres@127.0.0.1:5432/kierki_loadbench] [--redis-url redis://127.0.0.1:6379/6]
        [--warmup 30|60] [--warmup-limit 120] [--workers 2] [--client-processes 2] [--debounce 2]
        [--regular-deals R] [--history 8] [--seed 1]

1. Drops and re-creates the database of ``--database-url`` (its name must contain ``bench``),
   migrates it and sets up, through ``scoring.services``, a club, a league whose ruleset plays
   short matches (``regular_deals: ["R"]``: one rozbójnik and the compensating deals it calls
   for) and an open season; four users with API tokens per table, all club members; and
   ``--history`` simulated finished matches filed into the season, so that the worker has run a
   recompute (and loaded what it needs) before anything is measured.
2. Starts gunicorn as ``benchmarks/api_plays.py`` does (``--workers`` sync workers, production
   settings) and a Celery worker (``--pool solo``), both with ``CELERY_BROKER_URL`` and
   ``REDIS_URL`` at ``--redis-url`` and ``SCORING_DEBOUNCE_SECONDS=--debounce``, so standings
   recompute while the tables play.
3. Per mode, every table (a thread; ``--client-processes`` processes share them) is api_plays'
   table app: it keeps its match in ``games.engine``, plays legal cards with ``If-Match`` and
   ``Idempotency-Key``, deals and reads each player's hand, and when a match finishes creates
   the next one in the season (``POST /matches/`` with ``"season"``). Each mode starts with new
   matches. **Flat out**: each table plays as fast as the server answers. **Club pace**: one play
   per second per table, to a schedule with a random phase and ±20 % jitter on each interval, so
   tables do not play in lock-step (deals and hand reads go when due, unpaced).
   Before the modes, a warm-up: every table plays flat out until it has finished one match (at
   most ``--warmup-limit`` seconds), so that every code path — a season match created, finished,
   recomputed — has run in every process before memory is first measured. Then per mode a
   warm-up of ``--warmup`` seconds (30 flat out, 60 at club pace: about a match), over which the
   tables start at random moments, so that their deals and matches end at different times, as at
   a club, not all at once; then ``--duration`` seconds are measured: card plays and their latency,
   errors, matches finished, recomputes run (the season's counter), the RSS of gunicorn (master
   and workers) and of the worker at both ends of the window, where the CPU went.
4. Waits until every queued recompute has run (no trigger pending on Redis; nothing scheduled,
   reserved or running on the worker), then audits in a child process: every match through
   ``games.read.audit`` (hash chain, replay through the engine, deal commitments), and the season's
   standings as the incremental recomputes left them against a full ``standings_rebuild``.

Targets (2 cores shared by the load generator, gunicorn, the worker and PostgreSQL): flat out
≥ 300 plays/s; club pace p99 ≤ 50 ms; RSS growth < 10 %; 0 errors; 0 audit failures. The last
line is JSON with every figure and ``targets_met``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api_plays import (  # noqa: E402
    Client,
    Table,
    ThreadPool,
    bench_parser,
    cpu_seconds,
    cpu_used,
    django_child,
    free_port,
    machine_busy,
    percentile,
    postgres_backends,
    reset_database,
    server_env,
    start_gunicorn,
    start_service,
    stop,
    wait_ready,
)
from games.engine import Ruleset, RulesetError  # noqa: E402  (pure Python, no Django)
from scoring.scheduling import PENDING_KEY  # noqa: E402  (the trigger key; reads no settings on import)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/kierki_loadbench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/6"
PACE = 1.0  # club pace: seconds between a table's plays
JITTER = 0.2  # ± this share of PACE on each interval
WARMUP = {"flat": 30, "club": 60}  # about a match at each pace: the tables start spread over it
SETTLE = 5  # seconds of the warm-up after the last table has started
TARGETS = {"flat_plays_per_second": 300, "club_p99_ms": 50, "rss_growth_pct": 10}
MIB = 1024


# --- preparation, in a Django child process ---------------------------------------------------------

PREPARE = r"""
import json, random, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from games.engine import Ruleset
from games.engine.simulate import simulate_match
from scoring import services
call_command("migrate", verbosity=0, interactive=False)
tables, history, options = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
User = get_user_model()
admin = User.objects.create_user("bench-admin")
club = services.club_create(actor=admin, name="Load", slug="load")
league = services.league_create(actor=admin, club_id=club.pk, name="load", ruleset={"options": options})
season = services.season_create(actor=admin, league_id=league.pk, name="load")
out = []
for c in range(tables):
    users = [User.objects.create_user(f"bench{c}{s}") for s in "NESW"]
    for user in users:
        services.membership_set(actor=admin, club_id=club.pk, username=user.username)
    out.append({"tokens": [Token.objects.create(user=u).key for u in users], "match": None, "version": None})
rng, ruleset = random.Random(0), Ruleset.from_options(options)
for n in range(history):
    players = {s: f"bench{n % tables}{s}" for s in "NESW"}
    services.season_record_import(actor=admin, season_id=season.pk,
                                  record=simulate_match(rng, ruleset=ruleset, players=players))
print(json.dumps({"season": season.pk, "tables": out}))
"""

AUDIT = r"""
import json, sys
import django
django.setup()
from games.read.audit import audit_matches
from games.models import Match
from scoring.models import StandingRow
from scoring.recompute import standings_rebuild
season = int(sys.argv[1])
fields = [f.name for f in StandingRow._meta.concrete_fields if f.name != "id"]
def standings():
    return list(StandingRow.objects.filter(season_id=season).order_by("order").values(*fields))
failing = audit_matches()
incremental = standings()
standings_rebuild(season_ids=[season])
print(json.dumps({"matches": Match.objects.count(), "failing": failing, "incremental": incremental,
                  "rebuilt": standings()}, default=str))
"""


def prepare(tables: int, history: int, options: dict, env: dict[str, str]) -> dict:
    return django_child(PREPARE, [str(tables), str(history), json.dumps(options)], env)


def audit(season: int, env: dict[str, str]) -> dict:
    """Every match audited, and the season's standings before and after a full rebuild."""
    found = django_child(AUDIT, [str(season)], env)
    found["difference"] = standings_difference(found.pop("incremental"), found.pop("rebuilt"))
    return found


def standings_difference(incremental: list[dict], rebuilt: list[dict]) -> str | None:
    """Where the standings the recomputes left differ from a full rebuild (None: they are equal)."""
    if len(incremental) != len(rebuilt):
        return f"{len(incremental)} rows, a full rebuild has {len(rebuilt)}"
    for index, (ours, theirs) in enumerate(zip(incremental, rebuilt)):
        for name in ours.keys() | theirs.keys():
            if ours.get(name) != theirs.get(name):
                return (
                    f"row {index + 1} (player {ours.get('player')}): {name} is {ours.get(name)!r}, "
                    f"a full rebuild has {theirs.get(name)!r}"
                )
    return None


# --- processes: RSS, the worker, the season's counters ---------------------------------------------------


def vm_rss_kib(status: str) -> int:
    """The ``VmRSS`` line of a /proc/<pid>/status text, in KiB (0 when absent: a zombie)."""
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (children of any of its threads)."""
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo.extend(int(child) for child in (task / "children").read_text().split())
            except OSError:
                continue
    return pids


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, in MiB."""
    total = 0
    for each in process_tree(pid):
        try:
            total += vm_rss_kib(Path(f"/proc/{each}/status").read_text())
        except OSError:
            continue
    return total / MIB


def growth_pct(start: float, end: float) -> float:
    return (end - start) / start * 100 if start else float("nan")


def start_worker(env: dict[str, str], log_path: Path):
    return start_service(
        "celery",
        [
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"load-{os.getpid()}@%h",
            "--loglevel",
            "INFO",
        ],
        env,
        log_path,
    )


def season_counts(database_url: str, season: int) -> tuple[int, int]:
    """(recomputes run, matches finished) of the season, read straight from PostgreSQL."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT s.recomputes, count(m.id) FILTER (WHERE m.status = 'finished') FROM scoring_season s "
            "LEFT JOIN scoring_seasonmatch sm ON sm.season_id = s.id LEFT JOIN games_match m ON m.id = sm.match_id "
            "WHERE s.id = %s GROUP BY s.recomputes",
            [season],
        ).fetchone()


def wait_first_recompute(database_url: str, season: int, worker, log_path: Path, timeout: float = 120) -> None:
    """The worker is up and has run the recompute the history queued."""
    deadline = time.monotonic() + timeout
    while season_counts(database_url, season)[0] < 1:
        if worker.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"the worker ran no recompute (log {log_path}):\n{log_path.read_text()[-3000:]}")
        time.sleep(0.5)


def wait_drained(redis_url: str, season: int, timeout: float) -> float:
    """Seconds until no recompute of the season is pending on Redis nor scheduled, reserved or
    running on the worker. A solo worker answers control messages only between tasks, so an
    empty answer also means the last run has committed."""
    import redis
    from celery import Celery

    client, key = redis.Redis.from_url(redis_url), PENDING_KEY.format(season)
    inspect = Celery(broker=redis_url).control.inspect(timeout=5, limit=1)  # one worker: its answer is all
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if not client.exists(key):
            answers = [inspect.active(), inspect.scheduled(), inspect.reserved()]
            if all(answers) and not any(tasks for answer in answers for tasks in answer.values()):
                return time.monotonic() - started
        time.sleep(0.5)
    sys.exit(f"recomputes still queued after {timeout:g} s")


# --- the tables -----------------------------------------------------------------------------------------


def _sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.monotonic()))


def next_slot(previous: float, now: float, rng: random.Random, pace: float = PACE, jitter: float = JITTER) -> float:
    """When a club-pace table's next play is due: one interval (± jitter) after the previous one
    was due. A table that has fallen behind plays at once; it does not catch up in a burst."""
    return max(now, previous + pace * (1 + rng.uniform(-jitter, jitter)))


def start_moment(t_begin: float, t_measure: float, rng: random.Random) -> float:
    """When a table starts: at random in the warm-up, ``SETTLE`` seconds before it ends at the latest."""
    return t_begin + rng.uniform(0, max(0.0, t_measure - t_begin - SETTLE))


def table_run(
    index: int,
    port: int,
    table: dict,
    season: int,
    options: dict,
    pace: str,
    seed: int,
    t_begin: float,
    t_measure: float,
    t_stop: float,
) -> dict:
    """One table playing season matches until ``t_stop`` (``pace`` "warmup": until its first match
    has finished); the plays timed inside the window. It starts at a random moment of the
    warm-up, so that the tables' deals and matches do not all end at once."""
    club = pace == "club"
    rng = random.Random(f"{seed}/{pace}/{index}")
    t = Table(Client(port), table, index, rng, ruleset=Ruleset.from_options(options), season=season)
    latencies: list[float] = []
    finished = others = 0  # matches finished, requests other than plays (in the window)
    start = start_moment(t_begin, t_measure, rng)
    slot = start + rng.uniform(0, PACE)  # club pace: a random phase
    _sleep_until(start)
    try:
        t.new_match()
        while time.monotonic() < t_stop:
            if t.state.deal is None:
                before = t.other_requests
                if t.state.complete:
                    t.new_match()
                t.deal()
                others += (t.other_requests - before) * (time.monotonic() >= t_measure)
                continue
            if club:
                if slot >= t_stop:
                    break
                time.sleep(max(0.0, slot - time.monotonic()))
            started = time.monotonic()
            landed, elapsed = t.play()
            if club:
                slot = next_slot(slot, time.monotonic(), rng)
            if landed and t_measure <= started and started + elapsed <= t_stop:
                latencies.append(elapsed)
                finished += t.state.complete
            if pace == "warmup" and t.state.complete:
                break
    except (OSError, RuntimeError, http.client.HTTPException) as exc:  # this table cannot go on
        t.errors.append(f"table {index} stopped: {exc!r}")
    return {"latencies": latencies, "errors": t.errors, "finished": finished, "others": others}


def _table_job(job: tuple) -> dict:
    return table_run(*job)


def _run_slice(jobs: list[tuple]) -> list[dict]:
    """One client process: its tables, a thread each."""
    return ThreadPool().map(_table_job, jobs)


def slices(items: list, parts: int) -> list[list]:
    """``items`` dealt round-robin into ``parts`` non-empty lists."""
    return [items[k::parts] for k in range(min(parts, len(items)))]


# --- one mode ------------------------------------------------------------------------------------------


class Services:
    """The processes measured: gunicorn and the worker, with the database they use."""

    def __init__(self, gunicorn, worker, database_url: str, season: int):
        self.gunicorn, self.worker, self.database_url, self.season = gunicorn, worker, database_url, season

    def sample(self) -> dict:
        recomputes, finished = season_counts(self.database_url, self.season)
        return {
            "time": time.monotonic(),
            "busy": machine_busy(),
            "load": os.getloadavg()[0],
            "web_rss": rss_mib(self.gunicorn.pid),
            "worker_rss": rss_mib(self.worker.pid),
            "recomputes": recomputes,
            "finished": finished,
        }

    def cpu_meter(self, clients: list[int]) -> CpuMeter:
        return CpuMeter(
            {
                "gunicorn": lambda: process_tree(self.gunicorn.pid),
                "worker": lambda: process_tree(self.worker.pid),
                "postgres": lambda: postgres_backends(self.database_url),
                "clients": lambda: clients,
            }
        )


class CpuMeter:
    """CPU seconds of groups of processes from now until ``stop``, read every ``interval`` seconds
    in a thread: a process that ends meanwhile keeps what it had used by its last reading (the
    PostgreSQL backends come and go: persistent connections last ``CONN_MAX_AGE``, 60 s)."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]], interval: float = 1.0):
        self.groups, self.interval = groups, interval
        self.first = self._read()
        self.last = {name: dict(seconds) for name, seconds in self.first.items()}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _read(self) -> dict[str, dict[int, float]]:
        return {name: cpu_seconds(pids()) for name, pids in self.groups.items()}

    def _update(self) -> None:
        for name, seconds in self._read().items():
            self.last[name].update(seconds)

    def _run(self) -> None:
        while not self._done.wait(self.interval):
            self._update()

    def stop(self) -> dict[str, float]:
        self._done.set()
        self._thread.join()
        self._update()
        return {name: cpu_used(self.first[name], self.last[name]) for name in self.groups}


def run_mode(mode: str, args, port: int, setup: dict, services: Services, *, warmup: float, duration: float) -> dict:
    """The tables play ``mode`` (flat, club, or warmup) for ``warmup`` seconds, then ``duration``
    seconds are measured (the warm-up mode ends sooner once every table has finished a match)."""
    t_begin = time.monotonic() + 0.5
    t_measure = t_begin + warmup
    t_stop = t_measure + duration
    jobs = [
        (i, port, table, setup["season"], args.options, mode, args.seed, t_begin, t_measure, t_stop)
        for i, table in enumerate(setup["tables"])
    ]
    parts = slices(jobs, args.client_processes)
    pool = multiprocessing.get_context("fork").Pool(len(parts))
    try:
        pending = pool.map_async(_run_slice, parts, chunksize=1)
        clients = [process.pid for process in pool._pool]
        _sleep_until(t_measure)
        start, meter = services.sample(), services.cpu_meter(clients)
        pending.wait(max(0.0, t_stop - time.monotonic()))
        cpu, end = meter.stop(), services.sample()
        results = [result for part in pending.get() for result in part]
    finally:
        pool.terminate()
    seconds = end["time"] - start["time"] if mode == "warmup" else duration  # the warm-up ends when it is done
    return figures(results, start, end, cpu, seconds)


def figures(results: list[dict], start: dict, end: dict, cpu: dict[str, float], duration: float) -> dict:
    latencies = sorted(x for r in results for x in r["latencies"])
    wall = end["time"] - start["time"]
    cores = {name: seconds / wall for name, seconds in cpu.items()}
    cores["other"] = max(0.0, (end["busy"] - start["busy"]) / wall - sum(cores.values()))
    return {
        "seconds": duration,
        "plays": len(latencies),
        "plays_per_second": len(latencies) / duration,
        **{f"p{q}_ms": percentile(latencies, q / 100) * 1000 for q in (50, 95, 99)},
        "max_ms": latencies[-1] * 1000 if latencies else float("nan"),
        "errors": [e for r in results for e in r["errors"]],
        "matches_finished": sum(r["finished"] for r in results),
        "other_requests": sum(r["others"] for r in results),
        "season_finished": end["finished"] - start["finished"],
        "recomputes": end["recomputes"] - start["recomputes"],
        "rss_mib": {name: (start[f"{name}_rss"], end[f"{name}_rss"]) for name in ("web", "worker")},
        "cpu_cores": cores,
        "load_average": start["load"],
    }


def report(label: str, f: dict) -> None:
    print(
        f"{label}: {f['plays']} card plays in {f['seconds']:.1f} s = {f['plays_per_second']:.1f} plays/s; latency "
        f"p50 {f['p50_ms']:.1f} ms, p95 {f['p95_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, max {f['max_ms']:.1f} ms"
    )
    print(f"  errors: {len(f['errors'])}")
    for error in f["errors"][:5]:
        print(f"    {error}")
    print(
        f"  matches finished: {f['matches_finished']} (the season counts {f['season_finished']} more); "
        f"recomputes run: {f['recomputes']}; other requests (create, deal, hands): {f['other_requests']}"
    )
    print(
        "  RSS: "
        + ", ".join(
            f"{name} {a:.1f} → {b:.1f} MiB ({growth_pct(a, b):+.1f} %)"
            for name, (a, b) in (("gunicorn", f["rss_mib"]["web"]), ("worker", f["rss_mib"]["worker"]))
        )
    )
    cpu = f["cpu_cores"]
    print(
        f"  CPU in cores of {os.cpu_count()}: gunicorn {cpu['gunicorn']:.2f}, PostgreSQL {cpu['postgres']:.2f}, "
        f"worker {cpu['worker']:.2f}, clients {cpu['clients']:.2f}, other processes {cpu['other']:.2f}; "
        f"load average at the start {f['load_average']:.2f}"
    )
    if f["plays_per_second"]:
        per = {name: cpu[name] / f["plays_per_second"] * 1000 for name in ("gunicorn", "postgres", "clients")}
        print(
            f"  CPU per play (every other request included): gunicorn {per['gunicorn']:.2f} ms, "
            f"PostgreSQL {per['postgres']:.2f} ms, client {per['clients']:.2f} ms"
        )


def targets_met(modes: dict[str, dict], rss_growth: dict[str, float], audited: dict) -> dict[str, bool | None]:
    """Each target: met, missed, or None when its mode did not run."""
    flat, club = modes.get("flat"), modes.get("club")
    return {
        "flat_plays_per_second": None if flat is None else flat["plays_per_second"] >= TARGETS["flat_plays_per_second"],
        "club_p99_ms": None if club is None else club["p99_ms"] <= TARGETS["club_p99_ms"],
        "rss_growth": all(g < TARGETS["rss_growth_pct"] for g in rss_growth.values()),
        "errors": not any(m["errors"] for m in modes.values()),
        "audit": not audited["failing"] and audited["difference"] is None,
    }


# --- the run ---------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__, env="LOAD_DATABASE_URL", default_database_url=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="broker and REDIS_URL (flushed at the start)")
    parser.add_argument("--mode", choices=("flat", "club", "both"), default="both")
    parser.add_argument("--duration", type=float, default=120, help="seconds measured per mode")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument(
        "--warmup",
        type=float,
        help="seconds per mode before the measured window, the tables' "
        "starts spread over all but the last 5 (default: 30 flat out, 60 at club pace)",
    )
    parser.add_argument(
        "--warmup-limit",
        type=float,
        default=120,
        help="the warm-up before the modes: flat out until every table has finished a match, at most this long",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--client-processes", type=int, default=2, help="processes holding the table threads")
    parser.add_argument("--debounce", type=int, default=2, help="SCORING_DEBOUNCE_SECONDS")
    parser.add_argument("--regular-deals", default="R", help='the league\'s regular deals, e.g. "R" or "RRRROOOO"')
    parser.add_argument("--history", type=int, default=8, help="finished matches filed into the season beforehand")
    parser.add_argument("--log-level", default="INFO", help="LOG_LEVEL of gunicorn and the worker")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        args.options = Ruleset.from_options({"regular_deals": list(args.regular_deals)}).options()
    except RulesetError as exc:
        parser.error(f"--regular-deals: {exc}")
    args.modes = ["flat", "club"] if args.mode == "both" else [args.mode]
    return args


def warmup_of(args, mode: str) -> float:
    return WARMUP[mode] if args.warmup is None else args.warmup


def main() -> None:
    args = parse_args()
    import redis

    print(
        f"database {args.database_url}: drop, create, migrate; a club, a league with the ruleset options "
        f"{json.dumps(args.options)}, an open season, {args.tables} tables × 4 members, "
        f"{args.history} finished matches filed",
        flush=True,
    )
    reset_database(args.database_url)
    redis.Redis.from_url(args.redis_url).flushdb()
    env = server_env(args.database_url, args.log_level)
    env.update(
        {
            "CELERY_BROKER_URL": args.redis_url,
            "REDIS_URL": args.redis_url,
            "SCORING_DEBOUNCE_SECONDS": str(args.debounce),
        }
    )
    setup = prepare(args.tables, args.history, args.options, env)

    port, log_dir = free_port(), Path(tempfile.mkdtemp(prefix="kierki-load-"))
    gunicorn = start_gunicorn(port, args.workers, env, log_dir / "gunicorn.log")
    worker = start_worker(env, log_dir / "worker.log")
    modes: dict[str, dict] = {}
    try:
        wait_ready(port, setup["tables"][0]["tokens"][0], gunicorn)
        wait_first_recompute(args.database_url, setup["season"], worker, log_dir / "worker.log")
        print(
            f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}; a Celery worker (solo pool), debounce "
            f"{args.debounce} s; logs in {log_dir}; {args.tables} tables in {args.client_processes} client "
            f"processes; per mode "
            + ", ".join(f"{mode} {warmup_of(args, mode):g} s warm-up" for mode in args.modes)
            + f", then {args.duration:g} s measured",
            flush=True,
        )
        services = Services(gunicorn, worker, args.database_url, setup["season"])
        modes["warmup"] = run_mode("warmup", args, port, setup, services, warmup=0, duration=args.warmup_limit)
        report("warm-up (flat out until every table had finished a match; not a target)", modes["warmup"])
        for mode in args.modes:
            modes[mode] = run_mode(
                mode, args, port, setup, services, warmup=warmup_of(args, mode), duration=args.duration
            )
            report({"flat": "flat out", "club": "club pace"}[mode], modes[mode])
        drained = wait_drained(args.redis_url, setup["season"], timeout=args.debounce + 300)
    finally:
        stop(gunicorn)
        stop(worker)
    audited = audit(setup["season"], env)
    first, last = modes[args.modes[0]]["rss_mib"], modes[args.modes[-1]]["rss_mib"]
    rss = {name: (first[name][0], last[name][1]) for name in first}
    rss_growth = {name: growth_pct(*rss[name]) for name in rss}
    met = targets_met(modes, rss_growth, audited)

    print(
        "RSS over the run: "
        + ", ".join(f"{name} {a:.1f} → {b:.1f} MiB ({rss_growth[name]:+.1f} %)" for name, (a, b) in rss.items())
    )
    print(
        f"recomputes drained {drained:.1f} s after the last play; audit of {audited['matches']} matches: "
        f"{len(audited['failing'])} failing; standings "
        + ("equal to a full rebuild" if audited["difference"] is None else f"DIFFER: {audited['difference']}")
    )
    for match_id, failures in list(audited["failing"].items())[:5]:
        print(f"  match {match_id}: {'; '.join(failures)}")
    print(
        "targets: "
        + ", ".join(f"{name} {'-' if ok is None else 'met' if ok else 'MISSED'}" for name, ok in met.items())
    )
    print(
        json.dumps(
            {
                "modes": {
                    mode: {
                        **{
                            k: round(v, 2) if isinstance(v, float) else v
                            for k, v in f.items()
                            if k not in ("errors", "rss_mib", "cpu_cores")
                        },
                        "errors": len(f["errors"]),
                        "cpu_cores": {k: round(v, 2) for k, v in f["cpu_cores"].items()},
                        "rss_mib": {k: [round(x, 1) for x in v] for k, v in f["rss_mib"].items()},
                    }
                    for mode, f in modes.items()
                },
                "rss_mib": {k: [round(x, 1) for x in v] for k, v in rss.items()},
                "rss_growth_pct": {k: round(v, 2) for k, v in rss_growth.items()},
                "audit": {
                    "matches": audited["matches"],
                    "failing": len(audited["failing"]),
                    "standings_equal": audited["difference"] is None,
                },
                "drain_s": round(drained, 1),
                "tables": args.tables,
                "workers": args.workers,
                "client_processes": args.client_processes,
                "duration_s": args.duration,
                "warmup_s": {mode: warmup_of(args, mode) for mode in args.modes},
                "debounce_s": args.debounce,
                "ruleset_options": args.options,
                "cpus": os.cpu_count(),
                "targets_met": met,
            }
        )
    )


if __name__ == "__main__":
    main()
