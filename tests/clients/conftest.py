"""Fixtures for the generated-client tests: uvicorn serving the project (a transactional database:
the server thread sees what the test commits) and users with passwords."""

import pytest
from asgi_server import AsgiServer
from clients_helpers import PASSWORD, PLAYERS
from django.db import DEFAULT_DB_ALIAS, connections


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
