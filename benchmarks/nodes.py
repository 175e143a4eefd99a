"""Two app nodes behind nginx, on a PostgreSQL cluster of their own (docs/scale.md): the harness
of tests/nodes/ and benchmarks/live_latency.py.

- ``Postgres``: a throwaway cluster (``initdb``/``pg_ctl`` under a temporary directory, a free
  port, run as the ``postgres`` user when we are root), so that it can be SIGKILLed and restarted
  without touching the machine's own cluster.
- ``Node``: a gunicorn (the API) and a uvicorn (streams, long-polls) of the project, each on a port
  of its own, in sessions of their own (SIGKILL takes a whole node down at once).
- ``Balancer``: Debian's nginx with a config written here (``nginx_config``): the streams and
  ``events/`` (long-polls) to the uvicorns, the rest to the gunicorns, round robin.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api_plays import free_port, server_env, start_service, stop  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def postgres_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def missing_programs() -> list[str]:
    """What this harness needs and the machine lacks."""
    missing = [] if Path(NGINX).exists() else ["nginx"]
    if postgres_bindir() is None:
        missing.append("initdb (PostgreSQL server)")
    return missing


class Postgres:
    """A PostgreSQL cluster of its own in a temporary directory."""

    def __init__(self, *, max_connections: int = 300):
        self.bindir = postgres_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="kierki-pg-"))
        self.data, self.log = self.root / "data", self.root / "postgres.log"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0  # initdb refuses to run as root
        if self._as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections={max_connections}"
        )
        self.start()
        self.admin("CREATE DATABASE kierki")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/kierki"

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        argv = [str(self.bindir / program), *args]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=120)

    def start(self, timeout: float = 60) -> None:
        """Start (again: after a SIGKILL the old backends may hold the shared memory a moment)."""
        deadline = time.monotonic() + timeout
        while True:
            done = self._run(
                "pg_ctl",
                "-D",
                str(self.data),
                "-o",
                self.options,
                "-l",
                str(self.log),
                "-w",
                "-t",
                "30",
                "start",
                check=False,
            )
            if done.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start:\n{done.stdout}{done.stderr}\n{self.log.read_text()}")
            time.sleep(0.5)

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def kill(self) -> None:
        """SIGKILL the postmaster, as a crash would; its backends exit on noticing."""
        pid = self.postmaster_pid()
        os.kill(pid, signal.SIGKILL)
        while Path(f"/proc/{pid}").exists():
            time.sleep(0.05)

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute(sql)

    def destroy(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def node_env(database_url: str, redis_url: str, **overrides: str) -> dict[str, str]:
    """Production settings for a node. No ``CELERY_BROKER_URL``: tasks run in the request (no
    worker here to take them, nor tasks left queued in a Redis other tests use)."""
    env = server_env(database_url, "warning")
    env.pop("CELERY_BROKER_URL", None)
    env.update({"REDIS_URL": redis_url, "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost"})
    env.update(overrides)
    return env


class Node:
    """One app node: gunicorn and uvicorn of the project."""

    def __init__(self, name: str, env: dict[str, str], logs: Path, *, workers: int = 2):
        self.name, self.env, self.logs, self.workers = name, env, logs, workers
        self.web_port, self.live_port = free_port(), free_port()
        self.processes: list[subprocess.Popen] = []

    def start(self) -> Node:
        self.processes = [
            start_service(
                "gunicorn",
                [
                    "config.wsgi:application",
                    "--workers",
                    str(self.workers),
                    "--worker-class",
                    "sync",
                    "--bind",
                    f"127.0.0.1:{self.web_port}",
                    "--backlog",
                    "2048",
                    "--timeout",
                    "60",
                    "--no-control-socket",
                    "--error-logfile",
                    "-",
                    "--log-level",
                    "warning",
                ],
                self.env,
                self.logs / f"{self.name}-gunicorn.log",
            ),
            start_service(
                "uvicorn",
                [
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.live_port),
                    "--no-access-log",
                    "--log-level",
                    "warning",
                    "--timeout-graceful-shutdown",
                    "2",
                    "--backlog",
                    "2048",
                ],
                self.env,
                self.logs / f"{self.name}-uvicorn.log",
            ),
        ]
        for port in (self.web_port, self.live_port):
            wait_healthy(port, self.processes, self.logs)
        return self

    def kill(self) -> None:
        """SIGKILL both servers with their workers: the node dies as a machine would."""
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def stop(self) -> None:
        for process in self.processes:
            stop(process)


def wait_healthy(port: int, processes: list[subprocess.Popen], logs: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            break
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.2)
    texts = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(logs.glob("*.log")))
    raise RuntimeError(f"nothing healthy on port {port}\n{texts}")


def nginx_config(*, port: int, nodes: list[Node], prefix: Path, user: str | None = None) -> str:
    """nginx in front of the nodes: streams to the uvicorns, unbuffered and with a long read
    timeout, and every ``?wait=`` long-poll there too; everything else to the gunicorns. A node that
    refuses connections is skipped (``proxy_next_upstream error``): a POST is passed on only if
    the dead node never got it, so a retried play is the client's doing, with its Idempotency-Key."""
    web = "\n".join(f"        server 127.0.0.1:{n.web_port} max_fails=1 fail_timeout=2s;" for n in nodes)
    live = "\n".join(f"        server 127.0.0.1:{n.live_port} max_fails=1 fail_timeout=2s;" for n in nodes)
    return f"""\
{f"user {user};" if user else ""}
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream kierki_web {{
{web}
        keepalive 32;
    }}
    upstream kierki_live {{
{live}
    }}
    # ?wait=N (N > 0) long-polls: to the uvicorns (gunicorn answers them at once, without waiting)
    map $arg_wait $kierki_upstream {{
        default kierki_live;
        ""      kierki_web;
        "0"     kierki_web;
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_next_upstream error timeout;
        # (a location with proxy_set_header of its own inherits none from here: each says them all)
        location ~ ^/api/v1/(matches/[^/]+/stream|me/stream)/$ {{
            proxy_pass http://kierki_live;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
        location / {{
            proxy_pass http://$kierki_upstream;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Connection "";  # keep-alive to the upstream
        }}
    }}
}}
"""


class Balancer:
    """nginx with ``nginx_config``, its files in a temporary directory, on a free port."""

    def __init__(self, nodes: list[Node]):
        self.prefix = Path(tempfile.mkdtemp(prefix="kierki-nginx-"))
        self.port = free_port()
        config = self.prefix / "nginx.conf"
        # as root nginx's workers would run as nobody, who may not write its temporary files here
        config.write_text(
            nginx_config(port=self.port, nodes=nodes, prefix=self.prefix, user="root" if os.geteuid() == 0 else None)
        )
        self.log = (self.prefix / "nginx.out").open("w")
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.prefix), "-e", str(self.prefix / "nginx-error.log"), "-c", str(config)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_healthy(self.port, [self.process], self.prefix)

    def stop(self) -> None:
        stop(self.process)
        self.log.close()
        shutil.rmtree(self.prefix, ignore_errors=True)


# --- data, in a Django child process ------------------------------------------------------------

SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from games.write import services
if sys.argv[2] == "migrate":
    call_command("migrate", verbosity=0, interactive=False)
User = get_user_model()
tables = []
for c in range(int(sys.argv[1])):
    names = [f"t{c}{s}-{sys.argv[3]}" for s in "NESW"]
    users = [User.objects.create_user(name) for name in names]
    for u in users:
        services.player_for_user(u)
    match = services.match_create(actor=users[0], first_dealer="N", dealing="server",
                                  seats=dict(zip("NESW", names)))
    services.deal_start(match_id=match.pk, actor=users[0])
    tables.append({"tokens": [Token.objects.create(user=u).key for u in users], "match": str(match.pk),
                   "names": names})
print(json.dumps(tables))
"""

AUDIT = r"""
import json
import django
django.setup()
from games.read.audit import audit_matches
from games.models import MatchEvent
plays = {}
for match_id, seq, payload in MatchEvent.objects.filter(type="card_played").values_list("match_id", "seq", "payload"):
    plays.setdefault(str(match_id), {})[seq] = payload["card"]
print(json.dumps({"failing": audit_matches(), "plays": plays}))
"""


def django_child(script: str, args: list[str], env: dict[str, str]) -> object:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise RuntimeError(f"the Django child process failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def tables_create(env: dict[str, str], count: int, *, tag: str, migrate: bool = False) -> list[dict]:
    """``count`` server-dealt matches of four new users each, the first deal dealt."""
    return django_child(SETUP, [str(count), "migrate" if migrate else "-", tag], env)


def audit(env: dict[str, str]) -> dict:
    """``{"failing": match → failures, "plays": match → {seq: card}}`` of the whole log."""
    return django_child(AUDIT, [], env)


# --- a table that keeps playing through failures -------------------------------------------------


class GaveUp(Exception):
    pass


class RetryingTable:
    """Plays a match's cards, each seat with its token, over ``ports`` in turn (one port: through
    the balancer; two: alternating between nodes). A failed request (no answer, an answer cut off
    by a node killed while sending it, 5xx, 409 while the same key is still running) is sent again
    as it was, ``Idempotency-Key`` included, until ``patience`` seconds pass. ``acknowledged``:
    every play answered 201, as (seq, card)."""

    def __init__(self, table: dict, ports: list[int], *, patience: float = 90):
        self.match, self.tokens, self.ports, self.patience = table["match"], table["tokens"], ports, patience
        self.turn = 0
        self.acknowledged: list[tuple[int, str]] = []
        self.retries = 0

    def _port(self) -> int:
        self.turn += 1
        return self.ports[self.turn % len(self.ports)]

    def _send(
        self, method: str, path: str, token: str, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, dict]:
        import http.client

        deadline = time.monotonic() + self.patience
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Authorization": f"Token {token}", "Accept": "application/json", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self._port(), timeout=30)
            try:
                conn.request(method, f"/api/v1/matches/{self.match}/{path}", data, all_headers)
                response = conn.getresponse()
                status, payload = response.status, response.read()
            except (OSError, http.client.HTTPException):  # no answer, or one cut off by a dying node
                status, payload = None, b""
            finally:
                conn.close()
            if status is not None and status < 500 and status != 409:
                return status, json.loads(payload or b"null")
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {path}: still {status} after {self.patience} s")
            self.retries += 1
            time.sleep(0.2)

    def state(self, seat: int) -> dict:
        status, body = self._send("GET", "state/", self.tokens[seat])
        if status != 200:
            raise GaveUp(f"state: {status} {body}")
        return body

    def play(self) -> bool:
        """One card by the seat on turn; False once the deal is over."""
        view = self.state(0)
        deal = view["deal"]
        if deal is None or deal["to_play"] is None:
            return False
        seat = "NESW".index(deal["to_play"])
        if seat:
            view = self.state(seat)
            deal = view["deal"]
        card = deal["legal_cards"][0]
        headers = {"Idempotency-Key": os.urandom(12).hex(), "If-Match": f'"{view["version"]}"'}
        status, body = self._send("POST", "plays/", self.tokens[seat], {"card": card}, headers)
        if status != 201:
            raise GaveUp(f"play {card}: {status} {body}")
        event = body["events"][0]
        self.acknowledged.append((event["seq"], event["payload"]["card"]))
        return True
