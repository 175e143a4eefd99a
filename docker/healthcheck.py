#!/usr/bin/env python
"""Container healthchecks (docker-compose.yml): `python docker/healthcheck.py web|worker|beat`.

- web: GET http://127.0.0.1:$PORT/healthz answers 200 (the process serves HTTP);
- worker: this host's Celery worker (celery@<hostname>) answers a ping through the broker;
- beat: a `celery ... beat` process runs here and the broker answers.

Exit 0 when healthy, 1 (with the reason on stderr) when not. The slim image has no curl or
pgrep, hence Python.
"""

import os
import socket
import sys
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
TIMEOUT = float(os.environ.get("HEALTHCHECK_TIMEOUT", "5"))


def web() -> str | None:
    url = f"http://127.0.0.1:{int(os.environ.get('PORT', '8000'))}/healthz"
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return None if response.status == 200 else f"{url} answered {response.status}"


def worker() -> str | None:
    from config.celery import app

    node = f"celery@{socket.gethostname()}"
    replies = app.control.ping(destination=[node], timeout=TIMEOUT)
    return None if any(node in reply for reply in replies) else f"{node} did not answer a ping"


def beat() -> str | None:
    if not _running("celery", "beat"):
        return "no celery beat process"
    from config.health import check_broker

    check_broker(os.environ["CELERY_BROKER_URL"], timeout=TIMEOUT)
    return None


def _running(*words: str) -> bool:
    """A process (not this one) whose command line has all ``words``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        args = {Path(arg.decode(errors="replace")).name for arg in argv if arg}
        if all(word in args for word in words):
            return True
    return False


CHECKS = {"web": web, "worker": worker, "beat": beat}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CHECKS:
        sys.exit(f"usage: {sys.argv[0]} {'|'.join(CHECKS)}")
    try:
        problem = CHECKS[sys.argv[1]]()
    except Exception as error:  # noqa: BLE001 - any failure is "unhealthy"
        problem = f"{type(error).__name__}: {error}"
    if problem:
        sys.exit(f"unhealthy: {problem}")
