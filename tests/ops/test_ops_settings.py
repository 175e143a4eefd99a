"""Settings come only from the environment: production defaults are safe (`check --deploy` is
clean), and a missing or malformed value stops start-up. Each case runs in a fresh process."""

import json
import os
import secrets
import subprocess
import sys

import pytest
from ops_helpers import ROOT

DUMP = """
import json
from django.conf import settings
names = ["DEBUG", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
         "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_CONTENT_TYPE_NOSNIFF",
         "X_FRAME_OPTIONS", "SECURE_REFERRER_POLICY", "CORS_ALLOWED_ORIGINS", "DATA_UPLOAD_MAX_MEMORY_SIZE",
         "STATIC_ROOT", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "REST_FRAMEWORK"]
print(json.dumps({name: getattr(settings, name, None) for name in names}, default=str))
"""


def production(**overrides: str) -> dict[str, str]:
    """A production environment: DEBUG off, a real secret key, the site's host name."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "API_", "CORS_", "CELERY_", "LOG_")) and k != "DATABASE_URL"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="kierki.example.org",
        DATABASE_URL="sqlite:///:memory:",
    )
    env.update(overrides)
    return {k: v for k, v in env.items() if v is not None}


def python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def dump(env: dict[str, str]) -> dict:
    result = python(DUMP, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_is_clean_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production(),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_complains_when_https_is_switched_off():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production(DJANGO_SECURE_SSL_REDIRECT="false"),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0 and "security.W008" in result.stderr + result.stdout


def test_production_defaults_are_safe():
    values = dump(production())

    assert values["DEBUG"] is False
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and values["SECURE_HSTS_PRELOAD"] is True
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY" and values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["CORS_ALLOWED_ORIGINS"] == [] and values["DATA_UPLOAD_MAX_MEMORY_SIZE"] == 1024 * 1024
    assert values["ALLOWED_HOSTS"] == ["kierki.example.org"]


def test_the_deployment_settings_come_from_the_environment(tmp_path):
    values = dump(
        production(
            DJANGO_SECURE_SSL_REDIRECT="false",
            DJANGO_SECURE_HSTS_SECONDS="600",
            CORS_ALLOWED_ORIGINS="https://a.example.org, https://b.example.org",
            DJANGO_CSRF_TRUSTED_ORIGINS="https://kierki.example.org",
            API_MAX_BODY_BYTES="65536",
            DJANGO_STATIC_ROOT=str(tmp_path / "static"),
            API_THROTTLE_USER="1000/min",
            API_THROTTLE_ANON="100/minute",
            API_NUM_PROXIES="1",
        )
    )

    assert values["SECURE_SSL_REDIRECT"] is False and values["SECURE_HSTS_SECONDS"] == 600
    assert values["CORS_ALLOWED_ORIGINS"] == ["https://a.example.org", "https://b.example.org"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://kierki.example.org"]
    assert values["DATA_UPLOAD_MAX_MEMORY_SIZE"] == 65536
    assert values["STATIC_ROOT"] == str(tmp_path / "static")
    rest = values["REST_FRAMEWORK"]
    assert rest["DEFAULT_THROTTLE_CLASSES"] == [
        "api.throttles.UserThrottle",  # DRF's, failing open (Redis down)
        "api.throttles.AnonThrottle",
    ]
    assert rest["DEFAULT_THROTTLE_RATES"] == {"auth": "30/minute", "user": "1000/min", "anon": "100/minute"}
    assert rest["NUM_PROXIES"] == 1


def test_production_throttles_every_user_and_anonymous_client_by_default():
    """Issue 30, finding 2: no per-user throttle was on unless configured."""
    rest = dump(production())["REST_FRAMEWORK"]

    assert rest["DEFAULT_THROTTLE_CLASSES"] == ["api.throttles.UserThrottle", "api.throttles.AnonThrottle"]
    assert rest["DEFAULT_THROTTLE_RATES"] == {"auth": "30/minute", "user": "1000/minute", "anon": "100/minute"}


def test_production_throttles_are_switched_off_only_by_an_explicit_empty_value():
    rest = dump(production(API_THROTTLE_USER="", API_THROTTLE_ANON=""))["REST_FRAMEWORK"]

    assert rest["DEFAULT_THROTTLE_CLASSES"] == []


def test_embedded_mode_keeps_debug_and_plain_http():
    values = dump(production(DJANGO_DEBUG=None, DJANGO_SECRET_KEY=None, DJANGO_ALLOWED_HOSTS=None))

    assert values["DEBUG"] is True and values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False and values["SECURE_HSTS_SECONDS"] == 0
    assert values["REST_FRAMEWORK"]["DEFAULT_THROTTLE_CLASSES"] == []


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"DJANGO_SECRET_KEY": None}, "DJANGO_SECRET_KEY must be set"),
        ({"API_MAX_BODY_BYTES": "1MB"}, "API_MAX_BODY_BYTES='1MB' is not an integer"),
        ({"DJANGO_SECURE_SSL_REDIRECT": "sometimes"}, "DJANGO_SECURE_SSL_REDIRECT='sometimes' is not a boolean"),
        ({"API_THROTTLE_ANON": "lots"}, "API_THROTTLE_ANON='lots' is not a rate"),
        ({"LOG_LEVEL": "chatty"}, "LOG_LEVEL='CHATTY'"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT='xml'"),
    ],
)
def test_a_missing_or_malformed_value_stops_start_up(overrides, message):
    result = python("import django; django.setup()", production(**overrides))

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr


DATABASE_OPTIONS = """
import json
from django.conf import settings
print(json.dumps(settings.DATABASES["default"].get("OPTIONS", {})))
"""


@pytest.mark.parametrize(
    "threshold, options",
    [
        (None, {"server_side_binding": True, "prepare_threshold": 5}),  # the default: the hot statements prepared
        ("0", {}),  # for a PgBouncer in transaction mode that cannot keep prepared statements
    ],
)
def test_postgresql_prepares_repeated_statements_unless_told_not_to(threshold, options):
    env = production(DATABASE_URL="postgres://postgres@127.0.0.1:5432/kierki", DATABASE_PREPARE_THRESHOLD=threshold)
    result = python(DATABASE_OPTIONS, env)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == options
