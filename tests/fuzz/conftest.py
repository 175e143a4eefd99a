"""Fixtures for the fuzz tests: one seeded world per module, each operation's test rolled back to
it; the Django request signals that would close the test's connection, disconnected."""

import pytest
from django.contrib.auth import get_user_model
from django.core import signals
from django.db import close_old_connections, transaction
from fuzz_helpers import seed_world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Seeded once per module inside a transaction that is rolled back at its end; every test's
    ``db`` runs in a savepoint of it, so what one operation's requests store is gone for the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield seed_world(get_user_model())
        transaction.set_rollback(True)


@pytest.fixture
def in_process_requests(db):
    """Requests sent to the WSGI handler in this thread, inside the test's transaction: Django
    closes "old" connections when a request starts and finishes, which would close this one
    (Django's test client disconnects the same handler)."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()
