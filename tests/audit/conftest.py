"""Fixtures for the audit, dispute and ruling tests: a club with an arbiter, a season, and
matches played in it through the live commands."""

import random

import pytest
from audit_helpers import play_record, simulated, with_audit_people
from support import api_client
from support.world import season_match as recorded_match


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def world(world):
    """tests/support's world with the audit's people (audit_helpers.with_audit_people)."""
    return with_audit_people(world)


@pytest.fixture
def clients(world):
    return {name: api_client(user) for name, user in world.users.items()}


@pytest.fixture
def season_match(world, django_capture_on_commit_callbacks):
    """A recorded season match scored by ``sam``, played to its end (finished)."""

    def _make(seed: int = 1, deals: int | None = None):
        match = recorded_match(world)
        with django_capture_on_commit_callbacks(execute=True):
            play_record(match, simulated(seed), world.users["sam"], deals=deals)
        match.refresh_from_db()
        return match

    return _make


@pytest.fixture
def rng():
    return random.Random(7)
