"""Every request: an id on its response and its log lines, JSON logs, a body size limit with a
problem+json 413, CORS for the configured origins."""

import io
import json
import logging
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client, RequestFactory
from ops_helpers import ROOT

from api.problems import PROBLEMS, problem_type
from config import logging as json_logging
from config.middleware import BodySizeLimitMiddleware

PROBLEM = "application/problem+json"
ORIGIN = "https://app.example.org"


@pytest.fixture
def log_lines():
    """What the root logger writes during the test, through the JSON formatter (as on stderr)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_logging.JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)


# --- request id ------------------------------------------------------------------------------------


def test_a_sane_incoming_request_id_is_kept_and_echoed(client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="edge-7f3a.01_b")

    assert response["X-Request-ID"] == "edge-7f3a.01_b"


@pytest.mark.parametrize("incoming", ["", "has space", "x" * 201, "semi;colon", "żółw", "a\tb"])
def test_an_absent_or_odd_request_id_is_replaced_by_a_new_one(client, incoming):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=incoming)

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_two_requests_get_two_ids(client):
    assert client.get("/healthz")["X-Request-ID"] != client.get("/healthz")["X-Request-ID"]


@pytest.mark.django_db
def test_every_line_logged_during_a_request_carries_its_id(client, log_lines):
    response = client.get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID="req-404")
    after = logging.getLogger("kierki.test")
    after.warning("after the request")

    assert response.status_code == 404 and response["X-Request-ID"] == "req-404"
    lines = log_lines()
    ours = [line for line in lines if line["request_id"] == "req-404"]
    assert {line["logger"] for line in ours} >= {"kierki.request", "django.request"}  # Django's own too
    access = next(line for line in ours if line["logger"] == "kierki.request")
    assert access["method"] == "GET" and access["path"] == "/api/v1/no-such-thing/" and access["status"] == 404
    assert access["message"] == "GET /api/v1/no-such-thing/ 404" and access["duration_ms"] >= 0
    assert lines[-1]["message"] == "after the request" and lines[-1]["request_id"] is None


def test_successful_probes_write_no_access_line(client, log_lines):
    client.get("/healthz")

    assert not [line for line in log_lines() if line["logger"] == "kierki.request"]


# --- the JSON formatter --------------------------------------------------------------------------


def test_a_log_line_is_one_json_object_with_the_exception_text():
    logger = logging.getLogger("kierki.test")
    try:
        raise ValueError("bad card\nQX")
    except ValueError:
        record = logger.makeRecord(
            "kierki.test", logging.ERROR, __file__, 1, "failed %s", ("play",), sys.exc_info(), extra={"match": 7}
        )
    token = json_logging.request_id_var.set("req-1")
    try:
        line = json_logging.JsonFormatter().format(record)
    finally:
        json_logging.request_id_var.reset(token)

    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "ERROR" and entry["logger"] == "kierki.test" and entry["message"] == "failed play"
    assert entry["request_id"] == "req-1" and entry["match"] == 7
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"])
    assert entry["exc"].startswith("Traceback") and "ValueError: bad card" in entry["exc"]


def test_the_settings_log_json_to_the_console_through_the_root_logger():
    from django.conf import settings

    assert settings.LOGGING["handlers"]["console"]["formatter"] == "json"
    assert settings.LOGGING["root"]["handlers"] == ["console"]
    assert settings.LOGGING["formatters"]["json"]["()"] == "config.logging.JsonFormatter"


def test_celery_logs_through_the_same_formatter():
    """A worker's logging set-up (as `celery worker` does it), then a task logger's line."""
    script = """
from config.celery import app
app.log.setup(loglevel="INFO")
from celery.utils.log import get_task_logger
get_task_logger("scoring.tasks").info("recomputed %d seasons", 3)
"""
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"},
    )

    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert lines == [
        {
            "time": lines[0]["time"],
            "level": "INFO",
            "logger": "scoring.tasks",
            "message": "recomputed 3 seasons",
            "request_id": None,
        }
    ]


def test_a_task_queued_during_a_request_carries_its_id_to_the_worker():
    headers = {}
    token = json_logging.request_id_var.set("req-9")
    try:
        json_logging._stamp_request_id(headers=headers)
    finally:
        json_logging.request_id_var.reset(token)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False, request_id="req-9"))

    json_logging._restore_request_id(task_id="t1", task=task)
    inside = json_logging.request_id_var.get()
    json_logging._forget_request_id(task_id="t1")

    assert headers == {"request_id": "req-9"}
    assert inside == "req-9" and json_logging.request_id_var.get() is None


# --- body size limit -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_body_over_the_limit_is_413_problem_json(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"seats": {"N": "x" * 1000}})

    response = client.post("/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 413 and response["Content-Type"] == PROBLEM
    registered = PROBLEMS.get("payload_too_large")  # api/problems.py may list it as a problem type
    assert response.json() == {
        "type": problem_type("payload_too_large") if registered else "about:blank",
        "title": registered[1] if registered else "Payload too large",
        "status": 413,
        "code": "payload_too_large",
        "detail": f"The request body is {len(body)} bytes; the limit is 1000 bytes.",
        "limit": 1000,
    }
    assert response["X-Request-ID"]


@pytest.mark.django_db
def test_a_body_at_the_limit_goes_through(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"pad": "x" * 989})  # exactly 1,000 bytes, and JSON
    assert len(body) == 1000

    response = client.post("/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 401  # reached the API: not authenticated


def test_the_default_limit_is_one_mebibyte(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024


def test_djangos_own_request_data_too_big_is_413_too(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    middleware = BodySizeLimitMiddleware(lambda request: None)

    response = middleware.process_exception(RequestFactory().post("/admin/"), RequestDataTooBig("too big"))

    assert response.status_code == 413 and json.loads(response.content)["code"] == "payload_too_large"
    assert middleware.process_exception(RequestFactory().get("/"), ValueError()) is None


# --- CORS ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_allowed_origin_gets_cors_headers_and_may_read_the_etag_and_request_id(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]

    response = client.get("/api/v1/", HTTP_ORIGIN=ORIGIN)

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {name.strip().lower() for name in response["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "x-request-id", "retry-after", "idempotent-replayed"} <= exposed


@pytest.mark.django_db
def test_a_preflight_from_an_allowed_origin_may_send_if_match_and_idempotency_key(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]

    response = client.options(
        "/api/v1/matches/1/plays/",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match, idempotency-key",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {name.strip() for name in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert "POST" in response["Access-Control-Allow-Methods"]


@pytest.mark.django_db
def test_another_origin_gets_no_cors_headers(client, settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]

    response = client.get("/api/v1/", HTTP_ORIGIN="https://evil.example.com")

    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.django_db
def test_a_413_is_readable_by_an_allowed_browser_client(settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10

    response = Client().post(
        "/api/v1/matches/", "{" + " " * 20 + "}", content_type="application/json", HTTP_ORIGIN=ORIGIN
    )

    assert response.status_code == 413 and response["Access-Control-Allow-Origin"] == ORIGIN


def test_no_origin_is_allowed_by_default(settings):
    assert settings.CORS_ALLOWED_ORIGINS == []


# --- under ASGI (uvicorn config.asgi): the same, without a thread hop per middleware ------------------


def asgi_get(path: str, **headers):
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    return async_to_sync(AsyncClient().get)(path, headers=headers)


def test_the_middleware_runs_as_coroutines_under_asgi():
    from asgiref.sync import iscoroutinefunction

    from config.health import HealthCheckMiddleware
    from config.middleware import RequestIDMiddleware
    from web.middleware import LogUnreadableMiddleware

    async def inner(request):
        return None

    for middleware in (RequestIDMiddleware, HealthCheckMiddleware, BodySizeLimitMiddleware, LogUnreadableMiddleware):
        assert iscoroutinefunction(middleware(inner)), middleware
        assert not iscoroutinefunction(middleware(lambda request: None)), middleware


def test_healthz_and_the_request_id_under_asgi():
    response = asgi_get("/healthz", **{"X-Request-ID": "asgi-1"})

    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert response["X-Request-ID"] == "asgi-1"


@pytest.mark.django_db
def test_readyz_and_the_api_under_asgi(settings):
    settings.CELERY_BROKER_URL = "memory://"

    ready = asgi_get("/readyz")
    root = asgi_get("/api/v1/", **{"X-Request-ID": "asgi-2"})

    assert ready.status_code == 200 and ready.json()["checks"]["migrations"] == "ok"
    assert root.status_code == 200 and root["X-Request-ID"] == "asgi-2"


def test_a_body_over_the_limit_is_413_under_asgi(settings):
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    response = async_to_sync(AsyncClient().post)(
        "/api/v1/matches/", "{" + " " * 20 + "}", content_type="application/json"
    )

    assert response.status_code == 413 and response["Content-Type"] == PROBLEM


def test_a_failed_celery_task_line_carries_its_traceback_once():
    try:
        raise RuntimeError("lost connection")
    except RuntimeError:
        record = logging.getLogger("celery.app.trace").makeRecord(
            "celery.app.trace",
            logging.ERROR,
            __file__,
            1,
            "Task %s raised",
            ("t",),
            sys.exc_info(),
            extra={"data": {"id": "t", "traceback": "Traceback (most recent call last): …"}},
        )

    entry = json.loads(json_logging.JsonFormatter().format(record))

    assert entry["data"] == {"id": "t"} and "RuntimeError: lost connection" in entry["exc"]
