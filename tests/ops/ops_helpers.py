"""Helpers for the deployment tests: the compose file and .env.example read as docker compose
would, and each service's command turned into one that runs here (outside Docker)."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml
from support import servers
from support.polling import wait_for  # noqa: F401 - re-exported
from support.servers import closed_port as free_port  # noqa: F401 - re-exported

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LOCAL_REDIS = "redis://127.0.0.1:6379"
HOST = "kierki.example.org"  # DJANGO_ALLOWED_HOSTS of .env.example
# Redis databases of these tests (the scoring tests use 14, CI's REDIS_URL 15).
BROKER_DB, REDIS_DB = 13, 12

# The variables a test process may have that must not leak into a production-like child.
_PROJECT_PREFIXES = (
    "DJANGO_",
    "CELERY_",
    "POSTGRES_",
    "API_",
    "CORS_",
    "LOG_",
    "GUNICORN_",
    "SCORING_",
    "IDEMPOTENCY_",
)
_PROJECT_NAMES = {"DATABASE_URL", "REDIS_URL", "WEB_CONCURRENCY", "PORT", "HEALTHCHECK_TIMEOUT"}


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def dotenv(path: Path = ROOT / ".env.example") -> dict[str, str]:
    """``KEY=value`` lines (docker compose's env-file format, as the example uses it)."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, sep, value = line.partition("=")
            assert sep, f"not KEY=value: {line!r}"
            values[key.strip()] = value.strip()
    return values


def documented(path: Path = ROOT / ".env.example") -> set[str]:
    """Every variable named in .env.example, set or commented out (``# KEY=…``)."""
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", path.read_text(), re.MULTILINE))


_INTERPOLATION = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}``, ``${VAR:?error}``, ``$VAR`` and ``$$``."""

    def one(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(4)
        op, arg = match.group(2), match.group(3)
        value = env.get(name)
        empty = value is None or (value == "" and op and op.startswith(":"))
        if op and op.endswith("-") and empty:
            return arg
        if op and op.endswith("?") and empty:
            raise ValueError(f"${{{name}}}: {arg}")
        return value or ""

    return _INTERPOLATION.sub(one, text)


def redis_reachable(url: str = LOCAL_REDIS) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping())
    except Exception:  # noqa: BLE001
        return False


def require_redis() -> None:
    """Skip without a Redis on 127.0.0.1:6379, except under CI=true, where that fails."""
    servers.require_redis(LOCAL_REDIS)


def _on_this_machine(url: str, db: int) -> str:
    """A compose service address (``redis://redis:6379/0``) as the local Redis, database ``db``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, f"127.0.0.1:{parts.port or 6379}", f"/{db}", "", ""))


def production_env(tmp: Path, **overrides: str) -> dict[str, str]:
    """The environment docker compose gives web, worker, beat and migrate (.env.example filled in,
    then the compose file's own ``environment:``), minus the hostnames: SQLite in ``tmp`` for
    PostgreSQL, the local Redis for ``redis``, paths of the image moved under ``tmp``."""
    env = {k: v for k, v in os.environ.items() if not (k.startswith(_PROJECT_PREFIXES) or k in _PROJECT_NAMES)}
    example = dotenv()
    example.update(DJANGO_SECRET_KEY=secrets.token_urlsafe(50), POSTGRES_PASSWORD=secrets.token_hex(12))
    env.update(example)
    app_env = compose()["x-app"]["environment"]
    for key, value in app_env.items():
        env[key] = interpolate(str(value), env)
    assert urlsplit(env["DATABASE_URL"]).hostname == "postgres"
    env["DATABASE_URL"] = f"sqlite:///{tmp / 'db.sqlite3'}"
    env["CELERY_BROKER_URL"] = _on_this_machine(env["CELERY_BROKER_URL"], BROKER_DB)
    env["REDIS_URL"] = _on_this_machine(env["REDIS_URL"], REDIS_DB)
    env["DJANGO_STATIC_ROOT"] = str(tmp / "staticfiles")  # the image's ENV: /app/staticfiles
    env["PYTHONPATH"] = str(ROOT)  # the image's ENV: /app
    for key, value in env.items():  # the volumes of the image
        if "/var/lib/kierki" in value:
            env[key] = value.replace("/var/lib/kierki", str(tmp / "var-lib-kierki"))
    env.update(overrides)
    return env


def local_command(argv: list[str] | str, tmp: Path) -> list[str]:
    """A compose ``command``/healthcheck as it runs here: this virtualenv's programs, and the
    image's /var/lib/kierki moved under ``tmp``."""
    if isinstance(argv, str):
        import shlex

        argv = shlex.split(argv)
    program, *args = argv
    program = sys.executable if program == "python" else str(BIN / program)
    return [program, *(arg.replace("/var/lib/kierki", str(tmp / "var-lib-kierki")) for arg in args)]


def run(argv: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def json_lines(text: str) -> list[dict]:
    """Every line as a JSON object (fails naming the first line that is not one)."""
    entries = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            pytest.fail(f"not a JSON log line: {line!r}", pytrace=False)
        assert isinstance(entry, dict), line
        assert {"time", "level", "logger", "message", "request_id"} <= entry.keys(), line
        entries.append(entry)
    return entries


class Service:
    """A long-running command in the background, its output in a file; stopped with SIGTERM."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path):
        self.log = log
        self._file = log.open("w")
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self._file, stderr=subprocess.STDOUT, text=True)

    def output(self) -> str:
        if not self._file.closed:
            self._file.flush()
        return self.log.read_text()

    def stop(self, timeout: float = 20) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._file.close()
        return self.process.returncode


def healthz_ok(base: str) -> bool:
    """Whether the server at ``base`` answers its liveness probe."""
    import httpx

    try:
        return httpx.get(f"{base}/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def behind_tls(address: str, **headers: str) -> dict:
    """As the TLS proxy forwards a request (API_NUM_PROXIES=1: the client is X-Forwarded-For's)."""
    return {"Host": HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": address, **headers}
