"""Fixtures for the audit, dispute and ruling tests: a club with an arbiter, a season, and
matches played in it through the live commands."""

import random

import pytest
from audit_helpers import PLAYERS, play_record, simulated
from support import api_client
from support.world import season_match as recorded_match

from games import services as games
from scoring import services as leagues


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def world(world):
    """tests/support's world (club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members
    ``ala``, ``bartek``, ``celina``, ``darek``; ``staff``; ``outsider``) with a member ``member``;
    ``rival`` arbitrates another club; the players have their player profiles."""
    ada = world.users["ada"]
    make = type(ada).objects.create_user
    world.users.update(member=make("member"), rival=make("rival"))
    leagues.membership_set(actor=ada, club_id=world.club.pk, username="member", role="member")
    world.other_club = leagues.club_create(actor=ada, name="Inny Klub", slug="ik")
    leagues.membership_set(actor=ada, club_id=world.other_club.pk, username="rival", role="arbiter")
    for player in PLAYERS:
        games.player_for_user(world.users[player])
    return world


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
