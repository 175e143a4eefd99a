"""The fixtures every area may use, registered by tests/conftest.py (``pytest_plugins``): the
club ``world``, uvicorn serving the project, headless chromium. An area that needs a variation
overrides ``world`` in its conftest, asking for this one or calling ``build_world`` itself."""

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from support.servers import AsgiServer, chromium
from support.world import build_world


@pytest.fixture
def world(django_user_model):
    """Club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members ``ala``, ``bartek``,
    ``celina``, ``darek`` (seats N, E, S, W); ``outsider`` and ``staff``, no part of it. League
    ``Liga`` (two regular deals), season ``2025`` (support.world.build_world)."""
    return build_world(django_user_model)


@pytest.fixture
def asgi_server(transactional_db, settings, monkeypatch):
    """uvicorn in a thread, configured as config/asgi.py configures it (no persistent connections;
    a transactional database: the server thread sees what the test commits)."""
    settings.LIVE_POLL_INTERVAL_MS = 20
    monkeypatch.setitem(connections.settings[DEFAULT_DB_ALIAS], "CONN_MAX_AGE", 0)
    server = AsgiServer()
    yield server
    server.stop()


@pytest.fixture
def browser(monkeypatch):
    """Debian's chromium, headless, driven by Playwright (skipped without it, a failure under CI=true)."""
    with chromium(monkeypatch) as launched:
        yield launched
