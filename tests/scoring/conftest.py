"""Fixtures for the scoring tests: a club with members, a league and an open season."""

import pytest
from support.world import build_world


@pytest.fixture
def world(django_user_model):
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p6``), league
    ``Liga`` (the default ruleset), season ``2025``; ``outsider``, ``staff`` (tests/support's world
    with these names)."""
    return build_world(django_user_model, players=("p1", "p2", "p3", "p4", "p5", "p6"), arbiter="arb", options=None)
