"""A newcomer's first commands: ``make run PORT=8123`` migrates, seeds the demo and serves on that
port; seed_demo's output is the tokens, URLs and commands — no log line, no broker warning."""

import os
import re
import signal
import subprocess
import sys
import urllib.request

from ops_helpers import ROOT, free_port, wait_for

# What seed_demo prints, line by line: nothing else may appear.
SEED_LINES = [
    r"demo: club .*",
    r"demo password .*",
    r"API tokens:",
    r"  [\w-]+ +[0-9a-f]{40}",
    r"open:",
    r"  http://\S+  \(.*\)",
    r"try:",
    r'  curl -H "Authorization: Token [0-9a-f]{40}" http://\S+',
]


def local_env(tmp_path) -> dict:
    """The embedded defaults (no DJANGO_* or broker variables), a SQLite file of this test."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CELERY_", "DATABASE_", "REDIS_")) and k != "PORT"
    }
    return {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PYTHONPATH": str(ROOT)}


def test_seed_demo_prints_only_the_tokens_urls_and_commands(tmp_path):
    env = {**local_env(tmp_path), "LANGUAGE_CODE": "en"}  # the lines below are the English ones (Polish by default)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )

    done = subprocess.run(
        [sys.executable, "manage.py", "seed_demo", "--matches", "2", "--url", "http://127.0.0.1:8123"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    lines = done.stdout.splitlines()
    strays = [line for line in lines if not any(re.fullmatch(pattern, line) for pattern in SEED_LINES)]
    assert strays == []
    urls = re.findall(r"http://\S+", done.stdout)
    assert urls and all(url.startswith("http://127.0.0.1:8123/") for url in urls)
    assert "http://127.0.0.1:8123/api/v1/docs/" in urls


def test_make_run_serves_on_the_port_given_and_seed_demo_names_it(tmp_path):
    """Issue 29: ``make run`` serves the ASGI application, so a stream works on a fresh clone."""
    port = free_port()
    out, err = (tmp_path / "make.out").open("w+"), (tmp_path / "make.err").open("w+")
    # PY: this interpreter (CI's .venv is the same); RUN_STAMP: a file that exists, so nothing installs.
    make = subprocess.Popen(
        ["make", "run", f"PORT={port}", f"PY={sys.executable}", "RUN_STAMP=Makefile"],
        cwd=ROOT,
        env=local_env(tmp_path),
        stdout=out,
        stderr=err,
        start_new_session=True,
    )
    try:

        def landing():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    return response.status == 200
            except OSError:
                return make.poll() is not None and pytest_fail_exited(make, err)

        wait_for(landing, 180, f"make run to serve http://127.0.0.1:{port}/")
        out.seek(0)
        token = re.search(r"Token ([0-9a-f]{40})", out.read()).group(1)
        stream = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/me/stream/")
        stream.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(stream, timeout=10) as response:  # WSGI would answer 501
            assert (response.status, response.headers["Content-Type"]) == (200, "text/event-stream")
    finally:
        os.killpg(make.pid, signal.SIGTERM)
        make.wait(20)
    out.seek(0)
    printed = out.read()
    err.seek(0)
    # inotify on the project's folders: polling the whole checkout (.venv too) held half a core while
    # idle and made a Ctrl-C wait for the scan (this test's wait above ran out under CI's load).
    assert "using WatchFiles" in err.read()
    assert f"http://127.0.0.1:{port}/api/v1/docs/" in printed
    assert f"http://127.0.0.1:{port}/api/v1/seasons/" in printed and ":8000" not in printed


def pytest_fail_exited(process, err) -> bool:
    err.seek(0)
    raise AssertionError(f"make run exited with {process.returncode}:\n{err.read()[-3000:]}")
