"""Bounded waits for the tests that run real processes (a worker, a server): a broken one fails
with what it was waiting for instead of hanging CI."""

import time
from pathlib import Path

import pytest


def wait_for(condition, seconds: float, what: str, log=(), every: float = 0.1):
    """Poll ``condition`` every ``every`` seconds until it is true (and return its value), at most
    ``seconds``; else fail, showing ``log``: lines, or a file read then."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    if isinstance(log, Path):
        log = [log.read_text()] if log.exists() else []
    pytest.fail(f"timed out after {seconds} s waiting for {what}; log:\n{''.join(log or ())}", pytrace=False)
