"""Fixtures for the generated-client tests: uvicorn serving the project (a transactional database:
the server thread sees what the test commits), users with passwords, and the CI switch (under
CI=true a missing generator or toolchain fails instead of skipping)."""
import os

import pytest
from asgi_server import AsgiServer
from django.db import DEFAULT_DB_ALIAS, connections

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
PASSWORD = "kierki-clients-test"
PLAYERS = ("ala", "bartek", "celina", "darek")  # seats N, E, S, W


def missing(what: str) -> None:
    """Skip without ``what``; fail under CI=true, where these tests must run."""
    if IN_CI:
        pytest.fail(f"CI=true but the generated-client test cannot run: {what}", pytrace=False)
    pytest.skip(what)


@pytest.fixture
def asgi_server(transactional_db, settings, monkeypatch):
    settings.LIVE_POLL_INTERVAL_MS = 20
    monkeypatch.setitem(connections.settings[DEFAULT_DB_ALIAS], "CONN_MAX_AGE", 0)
    server = AsgiServer()
    yield server
    server.stop()


@pytest.fixture
def people(transactional_db, django_user_model):
    """``admin`` (founds the club) and the four players, each with ``PASSWORD``."""
    return {name: django_user_model.objects.create_user(name, password=PASSWORD) for name in ("admin", *PLAYERS)}
