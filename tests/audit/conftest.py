"""Fixtures for the audit, dispute and ruling tests: a club with an arbiter, a season, and
matches played in it through the live commands."""

import random

import pytest
from audit_helpers import played_out, with_audit_people
from support import api_client


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
    """A recorded season match scored by ``sam``, played to its end (audit_helpers.played_out)."""

    def _make(seed: int = 1, deals: int | None = None):
        return played_out(world, django_capture_on_commit_callbacks, seed=seed, deals=deals)

    return _make


@pytest.fixture
def rng():
    return random.Random(7)
