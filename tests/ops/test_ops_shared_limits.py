"""Limits that hold in total (issue 11, finding 3): gunicorn with two worker processes, as the web
service runs it, counting in the shared Redis cache. 2N wrong passwords, each on a connection of
its own (so the two workers share them): the first N are answered, every one after is 429 — on
the login form, the admin's, and the API's token endpoint. The control: with local memory (no
REDIS_URL) each worker keeps its own count and more than N get through."""

from __future__ import annotations

import json
import os
import re
import secrets
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from ops_helpers import (
    HOST,
    LOCAL_REDIS,
    REDIS_DB,
    Service,
    behind_tls,
    compose,
    free_port,
    healthz_ok,
    local_command,
    production_env,
    require_redis,
    run,
    wait_for,
)
from test_ops_settings import production, python

LIMIT = 4


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("limits")
    env = production_env(tmp)
    build = run(
        local_command("python manage.py collectstatic --noinput", tmp),  # the pages link static files
        {**env, "DJANGO_DEBUG": "true"},
    )
    assert build.returncode == 0, build.stderr
    migrate = run(local_command(compose()["services"]["migrate"]["command"], tmp), env)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    return tmp


@pytest.fixture
def two_workers(migrated, tmp_path):
    """Starts the web command with WEB_CONCURRENCY=2 and the limits at LIMIT per hour."""
    started = []

    def start(redis_url: str) -> str:
        port = free_port()
        env = production_env(
            migrated,
            PORT=str(port),
            WEB_CONCURRENCY="2",
            REDIS_URL=redis_url,
            LOGIN_FAILURE_LIMIT=f"{LIMIT}/hour",
            LOGIN_FAILURE_USER_LIMIT=f"{LIMIT}/hour",  # the ceilings at the pair's limit: each count shows
            LOGIN_FAILURE_ADDRESS_LIMIT=f"{LIMIT}/hour",
            API_THROTTLE_AUTH=f"{LIMIT}/hour",
            LANGUAGE_CODE="en",  # the page's text is asserted in English (Polish is the default)
        )
        web = Service(
            local_command(compose()["services"]["web"]["command"], migrated), env, tmp_path / f"web-{port}.log"
        )
        started.append(web)
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: healthz_ok(base), 60, "gunicorn to answer /healthz", web.log)
        wait_for(lambda: web.output().count("Booting worker") >= 2, 30, "two workers", web.log)
        return base

    yield start
    for web in started:
        web.stop()


def form_attempt(base: str, path: str, username: str, address: str) -> int:
    """GET the form (its CSRF cookie and token), then POST a wrong password: two new connections."""
    return post_form(form_of(base, path, address), username)


def form_of(base: str, path: str, address: str) -> tuple[str, str, str, str, str]:
    """The form's CSRF cookie and token, fetched as `address`."""
    page = httpx.get(f"{base}{path}", headers=behind_tls(address), timeout=10)
    assert page.status_code == 200, page.text
    cookie = page.headers["set-cookie"].split(";", 1)[0]  # Secure: sent by hand over plain HTTP
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    return base, path, address, cookie, token


def post_form(form: tuple[str, str, str, str, str], username: str) -> int:
    base, path, address, cookie, token = form
    answer = httpx.post(
        f"{base}{path}",
        data={"csrfmiddlewaretoken": token, "username": username, "password": "wrong-" + secrets.token_hex(4)},
        headers=behind_tls(address, Cookie=cookie, Origin=f"https://{HOST}", Referer=f"https://{HOST}{path}"),
        timeout=10,
    )
    if answer.status_code == 429:
        assert int(answer.headers["Retry-After"]) > 0 and "Too many failed sign-ins" in answer.text
    return answer.status_code


def token_attempt(base: str, username: str, address: str) -> int:
    answer = httpx.post(
        f"{base}/api/v1/auth/token/",
        json={"username": username, "password": "wrong"},
        headers=behind_tls(address),
        timeout=10,
    )
    return answer.status_code


def shared_redis() -> str:
    return os.environ.get("REDIS_URL") or f"{LOCAL_REDIS}/{REDIS_DB}"


def an_address() -> str:
    """A client address of this run only: the shared Redis may hold other runs' counts."""
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def test_the_login_limits_hold_in_total_across_two_gunicorn_workers(two_workers):
    require_redis()
    base = two_workers(shared_redis())
    user = f"guess-{secrets.token_hex(4)}"

    per_username = [form_attempt(base, "/accounts/login/", user, an_address()) for _ in range(2 * LIMIT)]
    address = an_address()
    per_address = [form_attempt(base, "/admin/login/", f"{user}-{i}", address) for i in range(2 * LIMIT)]
    tokens_address = an_address()
    token_endpoint = [token_attempt(base, f"{user}-t{i}", tokens_address) for i in range(2 * LIMIT)]

    pair_address = an_address()
    per_pair = [form_attempt(base, "/accounts/login/", f"{user}-p", pair_address) for _ in range(2 * LIMIT)]

    assert per_username == [200] * LIMIT + [429] * LIMIT  # every address new: the username's ceiling
    assert per_address == [200] * LIMIT + [429] * LIMIT  # every username new: the address's ceiling
    assert token_endpoint == [400] * LIMIT + [429] * LIMIT  # the same counts and the auth throttle
    assert per_pair == [200] * LIMIT + [429] * LIMIT  # one address, one username


def test_without_a_shared_cache_each_worker_counts_alone(two_workers):
    """The finding, kept as a control: with local memory the two workers allow up to 2N.

    The wrong passwords arrive all at once: one after another, the kernel may hand every
    connection to the same worker (whichever waits in accept first), and that worker alone
    counts to N. At once, the worker busy hashing one password leaves the next to the other."""
    base = two_workers("")
    user = f"guess-{secrets.token_hex(4)}"
    forms = [form_of(base, "/accounts/login/", an_address()) for _ in range(4 * LIMIT)]

    with ThreadPoolExecutor(max_workers=len(forms)) as pool:
        answers = list(pool.map(lambda form: post_form(form, user), forms))

    assert answers.count(200) > LIMIT, answers


CACHES_OF = """
import json
from django.conf import settings
print(json.dumps([settings.CACHES, settings.LOGIN_FAILURE_LIMIT, settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]]))
"""


def settings_with(**env: str) -> list:
    result = python(CACHES_OF, production(**env))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_redis_url_the_cache_is_djangos_redis_backend_with_the_redis_timeouts():
    caches, login_limit, throttles = settings_with(
        REDIS_URL="redis://cache.internal:6379/3",
        REDIS_CONNECT_TIMEOUT="3",
        REDIS_SOCKET_TIMEOUT="4",
        API_THROTTLE_ANON="100/minute",
        API_THROTTLE_USER="",  # on by default in production (1000/minute): an empty value turns it off
    )

    assert caches["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert caches["default"]["LOCATION"] == "redis://cache.internal:6379/3"
    assert caches["default"]["OPTIONS"] == {"socket_connect_timeout": 3, "socket_timeout": 4}
    assert login_limit == "10/hour" and throttles == ["api.throttles.AnonThrottle"]


def test_without_redis_url_the_cache_is_local_memory():
    caches, _, _ = settings_with(REDIS_URL="")

    assert caches["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


@pytest.mark.parametrize("value", ["ten/hour", "10/fortnight"])
def test_a_malformed_login_limit_stops_start_up(value):
    result = python(CACHES_OF, production(LOGIN_FAILURE_LIMIT=value))

    assert result.returncode != 0 and "LOGIN_FAILURE_LIMIT" in result.stderr
