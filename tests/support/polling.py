"""Bounded waits for the tests that run real processes (a worker, a server): a broken one fails
with what it was waiting for instead of hanging CI.

Imported by bare name (``from polling import wait_for``): pytest puts ``tests/``, the root
conftest's folder, on ``sys.path``.
"""

import time

import pytest


def wait_for(condition, seconds: float, what: str, log=()):
    """Poll ``condition`` until it is true (and return its value), at most ``seconds``; else fail,
    showing ``log`` (lines)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out after {seconds} s waiting for {what}; log:\n{''.join(log)}", pytrace=False)
