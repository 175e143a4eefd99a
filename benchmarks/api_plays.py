"""REST API figures (issue 3): card plays per second through HTTP, and a trivial endpoint's rate.

    .venv/bin/python benchmarks/api_plays.py [--database-url postgres://postgres@127.0.0.1:5432/kierki_bench]
        [--clients 8] [--duration 30] [--ping-duration 10] [--warmup 3] [--workers 2]
        [--worker-class sync|gthread] [--threads 1]
        [--client-mode process|thread] [--seed 1]

1. Drops and re-creates the database of ``--database-url`` (its name must contain ``bench``),
   migrates it, and creates four users with API tokens and one server-dealt match per client.
2. Starts gunicorn (``--workers`` workers, 2 by default, of ``--worker-class``: sync by default, as
   docker/gunicorn.conf.py runs them; gthread keeps connections alive) on a free port of 127.0.0.1 with
   production settings: ``DJANGO_DEBUG=false``, a secret key, allowed hosts, persistent database
   connections (``CONN_MAX_AGE`` from the settings), the application's JSON access log
   (``LOG_LEVEL=INFO``, to a file). Only the HTTPS redirect is off (no TLS proxy in front).
3. Plays: each client is a table app for its own match. It keeps the match's engine state
   locally (``games.engine``) to choose a legal card for the seat on turn and POSTs
   ``/plays/`` with that player's token, ``If-Match`` (the last ETag) and a fresh
   ``Idempotency-Key``. When a deal ends it POSTs ``/deals/`` and GETs ``/state/`` once per
   player (each player's device learns its own hand: the server deals in secret); when the
   match ends it POSTs ``/matches/`` for a new one. Only plays are timed; the other requests
   run in the same stream (about 5 per 52 plays) and are counted.
4. Then, in the same run, the same clients GET ``/api/v1/ping/`` (token auth, nothing else).

Warm-up seconds are not counted. Gunicorn's sync workers close the connection after each
response, so every request opens a new TCP connection, as it would behind no proxy.
Clients are processes by default (``--client-mode thread`` for threads in one process); the
CPU line shows where the two cores went (clients, gunicorn workers, PostgreSQL backends).
Targets (2 cores shared by clients, server and database): ≥ 400 plays/s, p99 ≤ 50 ms,
plays/s ≥ 0.3 × the ping rate. The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import MatchState, Ruleset, Seat  # noqa: E402  (pure Python, no Django)
from games.engine.cards import BY_NAME, NAMES  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/kierki_bench"
API = "/api/v1"
TARGETS = {"plays_per_second": 400, "p99_ms": 50, "ratio": 0.3}


# --- the database --------------------------------------------------------------------------------


def bench_parser(doc: str, *, env: str, default_database_url: str) -> argparse.ArgumentParser:
    """The command line of a benchmark that serves the API over its own database: the script's
    docstring, and ``--database-url`` (``env``, else the default), the database ``reset_database``
    drops."""
    parser = argparse.ArgumentParser(
        description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(env, default_database_url),
        help="PostgreSQL database to DROP and re-create (its name must contain 'bench')",
    )
    return parser


def reset_database(url: str) -> None:
    """DROP and CREATE the database named in ``url`` (through the ``postgres`` maintenance database)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"refusing to drop database {name!r}: its name must contain 'bench'")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def server_env(database_url: str, log_level: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback: no TLS proxy in front
            # production turns the per-user and anonymous throttles on (issue 30): the figures measure
            # the plays, so they stay off here unless the caller's environment sets them
            "API_THROTTLE_USER": os.environ.get("API_THROTTLE_USER", ""),
            "API_THROTTLE_ANON": os.environ.get("API_THROTTLE_ANON", ""),
            "LOG_LEVEL": log_level,
            "PYTHONPATH": str(ROOT),
        }
    )
    return env


def django_child(script: str, args: list[str], env: dict[str, str]):
    """Run ``script`` (which ends by printing one JSON line) in a child Python with Django set up,
    so that this process (which forks the clients) holds no database connection; its JSON."""
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the Django child process failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def prepare(database_url: str, clients: int, env: dict[str, str]) -> list[dict]:
    """Migrate; per client four users with tokens and one server-dealt match."""
    script = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from games.write import services
call_command("migrate", verbosity=0, interactive=False)
User = get_user_model()
tables = []
for c in range(int(sys.argv[1])):
    users = [User.objects.create_user(f"bench{c}{s}") for s in "NESW"]
    match = services.match_create(actor=users[0], first_dealer="N", dealing="server",
                                  seats={s: u.username for s, u in zip("NESW", users)})
    tables.append({"tokens": [Token.objects.create(user=u).key for u in users], "match": str(match.pk),
                   "version": match.version})
print(json.dumps(tables))
"""
    return django_child(script, [str(clients)], env)


# --- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(command: str, args: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """The venv's ``command`` in a session of its own (``stop`` ends it with its children), its
    output to ``log_path``."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [str(Path(sys.executable).with_name(command)), *args],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def start_gunicorn(
    port: int, workers: int, env: dict[str, str], log_path: Path, *, worker_class: str = "sync", threads: int = 1
) -> subprocess.Popen:
    return start_service(
        "gunicorn",
        [
            "config.wsgi:application",
            "--workers",
            str(workers),
            "--worker-class",
            worker_class,
            "--threads",
            str(threads),
            "--bind",
            f"127.0.0.1:{port}",
            "--backlog",
            "2048",
            "--timeout",
            "120",
            "--no-control-socket",
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
        ],
        env,
        log_path,
    )


def wait_ready(port: int, token: str, server: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn exited with {server.returncode}")
        try:
            status, _, _ = Client(port).request("GET", f"{API}/ping/", token=token)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit("gunicorn did not answer in time")


def stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def worker_pids(master: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU of each of these processes so far (those gone or unreadable left out)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return seconds


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(value - before.get(pid, 0.0) for pid, value in after.items())


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, /proc/stat), to tell how much
    of it went to other processes than this benchmark's."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def postgres_backends(database_url: str) -> list[int]:
    import psycopg

    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name]
        ).fetchall()
    return [pid for (pid,) in rows]


# --- the clients ---------------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP connection (re-opened by http.client when the server closes it)."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(
        self, method: str, path: str, *, token: str, body: dict | None = None, version: int | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        data = None
        if method == "POST":
            data = json.dumps(body or {}).encode()
            headers["Content-Type"] = "application/json"
            headers["Idempotency-Key"] = uuid.uuid4().hex
            if version is not None:
                headers["If-Match"] = f'"{version}"'
        try:
            self.conn.request(method, path, data, headers)
            response = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.conn.close()  # a connection the server had closed: once more on a new one
            self.conn.request(method, path, data, headers)
            response = self.conn.getresponse()
        payload = response.read()
        return response.status, {"etag": response.getheader("ETag") or ""}, payload


RULESET = Ruleset.from_options({})


class Table:
    """A table app running one match at a time: the engine state is kept here, not fetched."""

    def __init__(
        self,
        client: Client,
        table: dict,
        owner: int,
        rng: random.Random,
        *,
        ruleset: Ruleset = RULESET,
        season: int | None = None,
    ):
        self.client, self.owner, self.rng = client, owner, rng
        self.ruleset, self.season = ruleset, season  # new matches: this ruleset, in this season (if any)
        self.tokens = table["tokens"]  # N, E, S, W
        self.match, self.version = table["match"], table["version"]
        self.state = MatchState.start(ruleset, Seat.N)
        self.errors: list[str] = []
        self.other_requests = 0

    def _version(self, headers: dict[str, str]) -> int:
        return int(headers["etag"].strip('"'))

    def _fail(self, what: str, status: int, body: bytes) -> None:
        self.errors.append(f"{what}: {status} {body[:300].decode(errors='replace')}")
        self.new_match()  # start afresh: the local state may no longer be the server's

    def new_match(self) -> None:
        body = {
            "seats": {s: f"bench{self.owner}{s}" for s in "NESW"},
            "first_dealer": "N",
            "dealing": "server",
            "ruleset": {"options": self.ruleset.options()},
        }
        if self.season is not None:
            body["season"] = self.season
        status, headers, payload = self.client.request("POST", f"{API}/matches/", token=self.tokens[0], body=body)
        self.other_requests += 1
        if status != 201:
            raise RuntimeError(f"cannot create a match: {status} {payload[:300]!r}")
        self.match, self.version = json.loads(payload)["id"], self._version(headers)
        self.state = MatchState.start(self.ruleset, Seat.N)

    def deal(self) -> None:
        url = f"{API}/matches/{self.match}/"
        status, headers, payload = self.client.request(
            "POST", url + "deals/", token=self.tokens[0], version=self.version
        )
        self.other_requests += 1
        if status != 201:
            return self._fail("deal", status, payload)
        self.version = self._version(headers)
        hands = []
        for token in self.tokens:  # each player's device fetches its own hand once per deal
            status, _, payload = self.client.request("GET", url + "state/", token=token)
            self.other_requests += 1
            if status != 200:
                return self._fail("state", status, payload)
            hands.append([BY_NAME[c] for c in json.loads(payload)["deal"]["hand"]])
        self.state = self.state.start_deal(hands)

    def play(self) -> tuple[bool, float]:
        """One card by the seat on turn; (landed, seconds)."""
        deal = self.state.deal
        seat = deal.to_play
        mask = deal.legal_mask(seat)
        cards = [c for c in range(52) if mask >> c & 1]
        card = self.rng.choice(cards)
        started = time.monotonic()
        status, headers, payload = self.client.request(
            "POST",
            f"{API}/matches/{self.match}/plays/",
            token=self.tokens[seat],
            body={"card": NAMES[card]},
            version=self.version,
        )
        elapsed = time.monotonic() - started
        if status != 201:
            self._fail("play", status, payload)
            return False, elapsed
        self.version = self._version(headers)
        self.state = self.state.play(card, seat=seat)
        return True, elapsed


def play_phase(index: int, port: int, table: dict, seed: int, t_measure: float, t_stop: float) -> dict:
    rng = random.Random(seed * 1000 + index)
    t = Table(Client(port), table, index, rng)
    latencies: list[float] = []
    cpu0 = _cpu()
    other_in_window = 0
    while True:
        now = time.monotonic()
        if now >= t_stop:
            break
        try:
            if t.state.deal is None:
                before = t.other_requests
                if t.state.complete:
                    t.new_match()
                t.deal()
                if now >= t_measure:
                    other_in_window += t.other_requests - before
                continue
            started = time.monotonic()
            landed, elapsed = t.play()
        except (OSError, RuntimeError, http.client.HTTPException) as exc:  # this client cannot go on
            t.errors.append(f"client {index} stopped: {exc!r}")
            break
        if landed and started >= t_measure and started + elapsed <= t_stop:
            latencies.append(elapsed)
    return {"latencies": latencies, "errors": t.errors, "other_requests": other_in_window, "cpu": _cpu() - cpu0}


def ping_phase(index: int, port: int, table: dict, seed: int, t_measure: float, t_stop: float) -> dict:
    client = Client(port)
    token = table["tokens"][0]
    latencies: list[float] = []
    errors: list[str] = []
    cpu0 = _cpu()
    while True:
        started = time.monotonic()
        if started >= t_stop:
            break
        status, _, payload = client.request("GET", f"{API}/ping/", token=token)
        elapsed = time.monotonic() - started
        if status != 200:
            errors.append(f"ping: {status} {payload[:200]!r}")
        elif started >= t_measure and started + elapsed <= t_stop:
            latencies.append(elapsed)
    return {"latencies": latencies, "errors": errors, "other_requests": 0, "cpu": _cpu() - cpu0}


_THREAD_MODE = False


def _cpu() -> float:
    return time.thread_time() if _THREAD_MODE else time.process_time()


def _run(job):
    phase, args = job
    return phase(*args)


def run_phase(pool, phase, port: int, tables: list[dict], seed: int, warmup: float, duration: float):
    t_begin = time.monotonic() + 0.3
    t_measure, t_stop = t_begin + warmup, t_begin + warmup + duration
    jobs = [(phase, (i, port, table, seed, t_measure, t_stop)) for i, table in enumerate(tables)]
    return pool.map(_run, jobs, chunksize=1)


class ThreadPool:
    """``map`` over threads, one per job (the ``--client-mode thread`` pool)."""

    def map(self, fn, jobs, chunksize=1):
        results = [None] * len(jobs)

        def go(i, job):
            results[i] = fn(job)

        threads = [threading.Thread(target=go, args=(i, job)) for i, job in enumerate(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results


# --- figures ---------------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def summarise(results: list[dict], duration: float) -> dict:
    latencies = sorted(x for r in results for x in r["latencies"])
    return {
        "count": len(latencies),
        "per_second": len(latencies) / duration,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "max_ms": (latencies[-1] * 1000) if latencies else float("nan"),
        "errors": [e for r in results for e in r["errors"]],
        "other_requests": sum(r["other_requests"] for r in results),
        "client_cpu": sum(r["cpu"] for r in results),
    }


def measured(pool, phase, port: int, tables: list[dict], args, duration: float, workers: list[int]):
    """Run a phase; its figures and where the CPU went (in cores: CPU seconds per second)."""
    before = (cpu_seconds(workers), cpu_seconds(postgres_backends(args.database_url)), machine_busy(), time.monotonic())
    figures = summarise(run_phase(pool, phase, port, tables, args.seed, args.warmup, duration), duration)
    wall = time.monotonic() - before[3]
    gunicorn = cpu_used(before[0], cpu_seconds(workers)) / wall
    postgres = cpu_used(before[1], cpu_seconds(postgres_backends(args.database_url))) / wall
    clients = figures["client_cpu"] / wall
    other = max(0.0, (machine_busy() - before[2]) / wall - gunicorn - postgres - clients)
    return figures, {
        name: round(value, 2)
        for name, value in (("gunicorn", gunicorn), ("postgres", postgres), ("clients", clients), ("other", other))
    }


def main() -> None:
    global _THREAD_MODE
    parser = bench_parser(__doc__, env="BENCH_DATABASE_URL", default_database_url=DEFAULT_DATABASE_URL)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=30, help="seconds of measured plays")
    parser.add_argument("--ping-duration", type=float, default=10, help="seconds of measured pings")
    parser.add_argument("--warmup", type=float, default=3, help="seconds before each phase is measured")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--worker-class", choices=("sync", "gthread"), default="sync", help="gunicorn's worker class")
    parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker")
    parser.add_argument("--client-mode", choices=("process", "thread"), default="process")
    parser.add_argument("--log-level", default="INFO", help="the server's LOG_LEVEL (access lines at INFO)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    _THREAD_MODE = args.client_mode == "thread"

    print(f"database {args.database_url}: drop, create, migrate; {args.clients} matches", flush=True)
    reset_database(args.database_url)
    env = server_env(args.database_url, args.log_level)
    tables = prepare(args.database_url, args.clients, env)

    port = free_port()
    log_dir = Path(tempfile.mkdtemp(prefix="kierki-bench-"))
    server = start_gunicorn(
        port, args.workers, env, log_dir / "gunicorn.log", worker_class=args.worker_class, threads=args.threads
    )
    pool = None
    try:
        wait_ready(port, tables[0]["tokens"][0], server)
        if _THREAD_MODE:
            pool = ThreadPool()
        else:
            pool = multiprocessing.get_context("fork").Pool(args.clients)
        workers = worker_pids(server.pid)
        print(
            f"gunicorn: {args.workers} {args.worker_class} workers on 127.0.0.1:{port} "
            f"(log {log_dir / 'gunicorn.log'}); "
            f"{args.clients} client {args.client_mode}es; {args.warmup:g} s warm-up, then "
            f"{args.duration:g} s of plays and {args.ping_duration:g} s of pings",
            flush=True,
        )

        load_before = os.getloadavg()[0]
        plays, cpu_plays = measured(pool, play_phase, port, tables, args, args.duration, workers)
        pings, cpu_pings = measured(pool, ping_phase, port, tables, args, args.ping_duration, workers)
    finally:
        if pool is not None and not _THREAD_MODE:
            pool.terminate()
        stop(server)

    ratio = plays["per_second"] / pings["per_second"] if pings["per_second"] else float("nan")
    errors = plays["errors"] + pings["errors"]
    print(
        f"card plays: {plays['count']} in {args.duration:g} s = {plays['per_second']:.1f} plays/s "
        f"(+ {plays['other_requests']} deal/state/create requests in the same stream)"
    )
    print(f"play latency: p50 {plays['p50_ms']:.1f} ms, p99 {plays['p99_ms']:.1f} ms, max {plays['max_ms']:.1f} ms")
    print(
        f"trivial endpoint GET {API}/ping/: {pings['per_second']:.1f} req/s "
        f"(p50 {pings['p50_ms']:.1f} ms, p99 {pings['p99_ms']:.1f} ms)"
    )
    print(f"ratio plays/s ÷ ping req/s: {ratio:.3f}")
    print(f"errors: {len(errors)}")
    for error in errors[:5]:
        print(f"  {error}")
    for name, cpu, rate in (("plays", cpu_plays, plays["per_second"]), ("pings", cpu_pings, pings["per_second"])):
        per = {key: cpu[key] / rate * 1000 if rate else float("nan") for key in ("gunicorn", "postgres", "clients")}
        print(
            f"CPU in the {name} phase, in cores of {os.cpu_count()}: gunicorn workers {cpu['gunicorn']:.2f}, "
            f"PostgreSQL backends {cpu['postgres']:.2f}, clients {cpu['clients']:.2f}, "
            f"other processes {cpu['other']:.2f}; per {name[:-1]}: gunicorn {per['gunicorn']:.2f} ms, "
            f"PostgreSQL {per['postgres']:.2f} ms, client {per['clients']:.2f} ms"
        )
    print(
        f"load average before the run: {load_before:.2f}"
        + ("  (the machine was busy: figures are low)" if cpu_plays["other"] > 0.2 else "")
    )
    met = {
        "plays_per_second": plays["per_second"] >= TARGETS["plays_per_second"],
        "p99_ms": plays["p99_ms"] <= TARGETS["p99_ms"],
        "ratio": ratio >= TARGETS["ratio"],
    }
    print("targets: " + ", ".join(f"{name} {'met' if ok else 'MISSED'}" for name, ok in met.items()))
    print(
        json.dumps(
            {
                "plays_per_second": round(plays["per_second"], 1),
                "p50_ms": round(plays["p50_ms"], 2),
                "p99_ms": round(plays["p99_ms"], 2),
                "max_ms": round(plays["max_ms"], 2),
                "plays": plays["count"],
                "other_requests": plays["other_requests"],
                "ping_per_second": round(pings["per_second"], 1),
                "ping_p50_ms": round(pings["p50_ms"], 2),
                "ping_p99_ms": round(pings["p99_ms"], 2),
                "ratio": round(ratio, 3),
                "errors": len(errors),
                "clients": args.clients,
                "workers": args.workers,
                "client_mode": args.client_mode,
                "duration_s": args.duration,
                "cpu_cores": {"plays": cpu_plays, "pings": cpu_pings},
                "targets_met": met,
            }
        )
    )


if __name__ == "__main__":
    main()
