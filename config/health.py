"""``GET /healthz`` and ``GET /readyz``: public, unthrottled, unauthenticated probes.

- ``/healthz``: the process is alive and serving: ``200 {"status": "ok"}``; touches nothing.
- ``/readyz``: ready for traffic: the database answers ``SELECT 1``, no migration is unapplied,
  and the Celery broker answers (when ``CELERY_BROKER_URL`` is set; the embedded in-memory
  broker is skipped). ``200`` or ``503`` with every check's outcome::

      {"status": "unavailable", "failed": ["broker"],
       "checks": {"database": "ok", "migrations": "ok", "broker": "unreachable (ConnectionError)"}}

``HealthCheckMiddleware`` (near the top of MIDDLEWARE) answers both paths before host
validation, the HTTPS redirect, sessions and DRF, so a probe at the container's address over
plain HTTP works in production; ``config/urls.py`` routes them too. Failure details go to the
log (with the request id), not into the body.
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse

from .middleware import Middleware

log = logging.getLogger(__name__)

BROKER_TIMEOUT = 2.0  # seconds, for connecting and for the answer
IN_PROCESS_BROKERS = ("memory", "cache")  # nothing to reach


def healthz(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return _not_allowed()
    return _json({"status": "ok"}, 200)


def readyz(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return _not_allowed()
    checks: dict[str, str] = {}
    checks["database"] = _outcome("database", check_database)
    if checks["database"] == "ok":
        checks["migrations"] = _outcome("migrations", check_migrations)
    else:
        checks["migrations"] = "skipped (no database)"
    broker_url = getattr(settings, "CELERY_BROKER_URL", "") or ""
    if broker_url and broker_url.split("://", 1)[0] not in IN_PROCESS_BROKERS:
        checks["broker"] = _outcome("broker", lambda: check_broker(broker_url))
    else:
        checks["broker"] = "skipped (tasks run in-process)"
    failed = [name for name, outcome in checks.items() if outcome != "ok" and not outcome.startswith("skipped")]
    if failed:
        return _json({"status": "unavailable", "failed": failed, "checks": checks}, 503)
    return _json({"status": "ok", "checks": checks}, 200)


class CheckFailed(Exception):
    """A check that ran but found the service not ready (the message says why)."""


def check_database(alias: str = DEFAULT_DB_ALIAS) -> None:
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_migrations(alias: str = DEFAULT_DB_ALIAS) -> None:
    executor = MigrationExecutor(connections[alias])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan[:5])
        raise CheckFailed(f"{len(plan)} unapplied ({names}{', …' if len(plan) > 5 else ''})")


def check_broker(url: str, timeout: float = BROKER_TIMEOUT) -> None:
    """Connect to the broker and get an answer within ``timeout`` seconds, or raise."""
    scheme = url.split("://", 1)[0]
    if scheme in ("redis", "rediss", "unix"):
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
        return
    from kombu import Connection

    with Connection(url, connect_timeout=timeout) as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)


def _outcome(name: str, check) -> str:
    started = time.perf_counter()
    try:
        check()
    except CheckFailed as failure:
        log.warning("readyz: %s: %s", name, failure)
        return str(failure)
    except Exception as error:  # noqa: BLE001 - any failure means "not ready"
        log.warning("readyz: %s unreachable after %.2f s: %r", name, time.perf_counter() - started, error)
        return f"unreachable ({type(error).__name__})"
    return "ok"


def _json(body: dict, status: int) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _not_allowed() -> HttpResponse:
    response = _json({"status": "method not allowed"}, 405)
    response["Allow"] = "GET, HEAD"
    return response


PROBES = {"/healthz": healthz, "/readyz": readyz}


class HealthCheckMiddleware(Middleware):
    """Answers the probes before anything else runs (see the module docstring)."""

    def handle(self, request, get_response):
        probe = PROBES.get(request.path_info)
        return probe(request) if probe is not None else get_response(request)

    async def ahandle(self, request, get_response):
        probe = PROBES.get(request.path_info)
        if probe is None:
            return await get_response(request)
        return await sync_to_async(probe)(request)  # the database checks block: in a thread
