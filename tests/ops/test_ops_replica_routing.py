"""Where the router sends a read (config/replica.py), without a replica server: which reads may
go to the replica, and a user who just wrote being pinned to the primary. The real streaming
replica is tests/ops/test_ops_replica.py's."""

from types import SimpleNamespace

import pytest
from django.core.cache import cache

from config import replica
from config.replica import ReplicaPinMiddleware, ReplicaRouter, reading_alias, reads_from_replica


@pytest.fixture
def with_a_replica(monkeypatch):
    monkeypatch.setattr(replica, "replica_configured", lambda: True)
    cache.clear()


def _user(pk: int):
    return SimpleNamespace(pk=pk, is_authenticated=True)


def _request(method: str, user):
    return SimpleNamespace(method=method, user=user)


def _alias_seen_by(method: str, user) -> str:
    """The alias a read inside `reads_from_replica` gets while the middleware handles the request."""
    seen = {}

    def view(request):
        with reads_from_replica():
            seen["alias"] = reading_alias()
        return "response"

    ReplicaPinMiddleware(view)(_request(method, user))
    return seen["alias"]


def test_without_a_replica_every_read_goes_to_the_primary():
    with reads_from_replica():
        assert reading_alias() == "default"


def test_only_reads_inside_a_replica_block_go_to_the_replica(with_a_replica):
    assert reading_alias() == "default"
    with reads_from_replica():
        assert reading_alias() == "replica"
    assert reading_alias() == "default"


def test_writes_go_to_the_primary_even_inside_a_replica_block(with_a_replica):
    with reads_from_replica():
        assert ReplicaRouter().db_for_write(None) == "default"


def test_a_user_who_just_wrote_reads_from_the_primary_and_the_others_from_the_replica(with_a_replica):
    writer, other = _user(101), _user(102)
    assert _alias_seen_by("GET", writer) == "replica"

    _alias_seen_by("POST", writer)

    assert _alias_seen_by("GET", writer) == "default"
    assert _alias_seen_by("GET", other) == "replica"


def test_reading_pins_nobody(with_a_replica):
    reader = _user(103)
    _alias_seen_by("GET", reader)

    assert _alias_seen_by("GET", reader) == "replica"


def test_the_pin_lasts_the_configured_window(with_a_replica, settings, monkeypatch):
    windows = []
    monkeypatch.setattr(replica.cache, "set", lambda key, value, timeout: windows.append((key, timeout)))

    _alias_seen_by("PATCH", _user(104))

    assert windows == [("replica-pin:104", settings.DATABASE_REPLICA_PIN_SECONDS)]


def test_an_unreadable_cache_sends_the_read_to_the_primary(with_a_replica, monkeypatch):
    def down(key):
        raise ConnectionError("redis down")

    monkeypatch.setattr(replica.cache, "get", down)

    assert _alias_seen_by("GET", _user(105)) == "default"


def test_a_read_inside_a_transaction_goes_to_the_primary(with_a_replica, db):
    from django.db import transaction

    with transaction.atomic(), reads_from_replica():
        assert reading_alias() == "default"  # a write may follow: it must see the primary's rows
