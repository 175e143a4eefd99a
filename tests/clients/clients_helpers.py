"""Helpers for the generated-client tests: the users' password, the players, the CI switch (under
CI=true a missing generator or toolchain fails instead of skipping)."""

import pytest
from support import IN_CI, PLAYERS  # noqa: F401 - re-exported

PASSWORD = "kierki-clients-test"


def missing(what: str) -> None:
    """Skip without ``what``; fail under CI=true, where these tests must run."""
    if IN_CI:
        pytest.fail(f"CI=true but the generated-client test cannot run: {what}", pytrace=False)
    pytest.skip(what)
