"""The servers and processes tests start: ``config.asgi:application`` under uvicorn in a thread of
the test process (so it sees the test database, SQLite in memory included), a Celery worker in a
subprocess, Debian's chromium driven by Playwright; Redis for the tests that need it. Each is slow
to start: tests that use one carry the ``slow`` marker (support.slow's SLOW)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time

import pytest
import redis
import uvicorn

from support import IN_CI, ROOT
from support.polling import wait_for

CHROMIUM = "/usr/bin/chromium"  # Debian's package: the browser tests download none
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The live Redis of the broker tests: CI's REDIS_URL, else database 4 of the local one.
LIVE_REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/4"


class AsgiServer:
    """``config.asgi:application`` under uvicorn, in a thread of the test process."""

    def __init__(self):
        from config.asgi import application

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            application, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True, name="uvicorn")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


# --- Redis ---------------------------------------------------------------------------------------


def require_redis(url: str = LIVE_REDIS, *, mandatory: bool = False) -> None:
    """Skip the calling test when Redis does not answer at ``url``; under CI=true (or
    ``mandatory``) that is a failure."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        reason = f"needs Redis at {url}: {exc}"
        if IN_CI or mandatory:
            pytest.fail(f"CI=true but {reason}" if IN_CI else reason, pytrace=False)
        pytest.skip(reason)


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- a Celery worker in a subprocess ----------------------------------------------------------------


class Worker:
    """``celery -A config worker --pool=solo`` on ``broker`` and the test database (PostgreSQL),
    started and ready ("ready." in its log) when made; ``log`` collects its output."""

    def __init__(self, broker: str, name: str, **env: str):
        from django.db import connection

        db = connection.settings_dict
        database_url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
        environ = dict(
            os.environ, CELERY_BROKER_URL=broker, REDIS_URL=broker, DATABASE_URL=database_url, LOG_FORMAT="text", **env
        )
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}-{os.getpid()}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()
        wait_for(
            lambda: "ready." in "".join(self.log) or self.process.poll() is not None,
            60,
            "the worker to start",
            self.log,
        )
        if self.process.poll() is not None:
            pytest.fail(f"the worker exited with {self.process.returncode}:\n{''.join(self.log)}", pytrace=False)

    def kill(self) -> None:
        """SIGKILL: no clean-up, no acknowledgement, no rollback sent to the database."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


# --- the browser -------------------------------------------------------------------------------------


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if not os.path.exists(CHROMIUM):
        return f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs the playwright package (pip install -e '.[dev]')"
    return None


def require_browser() -> None:
    """Skip the calling test without chromium or Playwright; under CI=true that is a failure."""
    missing = browser_missing()
    if missing is None:
        return
    if IN_CI:
        pytest.fail(f"CI=true but the browser test cannot run: {missing}", pytrace=False)
    pytest.skip(missing)


@contextlib.contextmanager
def chromium(monkeypatch):
    """Headless chromium under Playwright, closed after the block."""
    from playwright.sync_api import sync_playwright

    require_browser()
    # Playwright's sync API keeps an event loop in this thread; the ORM calls of fixtures that
    # run while it is open would otherwise be refused as "async".
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
            # While Playwright's loop runs, asgiref's Local keeps this thread's database connections
            # per context, not per thread: closed here, or the test database's teardown finds them
            # open ("being accessed by other users") since it closes only the thread's own.
            from django.db import connections

            connections.close_all()


PHONE = {"width": 360, "height": 740}


def phone_signed_in(browser, base: str, username: str, password: str, **options):
    """A phone-sized tab (Polish) signed in through the login page, as a person does it."""
    page = browser.new_page(viewport=PHONE, locale="pl-PL", **options)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/matches/")
    return page
