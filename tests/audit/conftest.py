"""Fixtures for the audit, dispute and ruling tests: a club with an arbiter, a season, and
matches played in it through the live commands."""

import random

import pytest
from audit_helpers import PLAYERS, SHORT, World, play_record, simulated
from rest_framework.test import APIClient

from games import services as games
from scoring import services as leagues


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def world(django_user_model):
    """Club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members ``ala``, ``bartek``,
    ``celina``, ``darek`` (seats N, E, S, W), ``member``; ``rival`` arbitrates another club;
    ``staff`` is staff; ``outsider`` is nobody. League ``Liga`` (two regular deals), season ``2025``."""
    make = django_user_model.objects.create_user  # no password: hashing one is slow
    users = {name: make(name) for name in ("ada", "sam", "ari", *PLAYERS, "member", "rival", "outsider")}
    users["staff"] = make("staff", is_staff=True)
    club = leagues.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name, role in (
        ("sam", "scorer"),
        ("ari", "arbiter"),
        ("member", "member"),
        *((player, "member") for player in PLAYERS),
    ):
        leagues.membership_set(actor=users["ada"], club_id=club.pk, username=name, role=role)
    other = leagues.club_create(actor=users["ada"], name="Inny Klub", slug="ik")
    leagues.membership_set(actor=users["ada"], club_id=other.pk, username="rival", role="arbiter")
    league = leagues.league_create(actor=users["ada"], club_id=club.pk, name="Liga", ruleset={"options": SHORT})
    season = leagues.season_create(actor=users["ada"], league_id=league.pk, name="2025")
    for player in PLAYERS:
        games.player_for_user(users[player])
    return World(users, club, other, league, season)


@pytest.fixture
def clients(world):
    made = {}
    for name, user in world.users.items():
        client = APIClient()
        client.force_authenticate(user)
        made[name] = client
    return made


@pytest.fixture
def season_match(world, django_capture_on_commit_callbacks):
    """A recorded season match scored by ``sam``, played to its end (finished)."""

    def _make(seed: int = 1, deals: int | None = None):
        match = leagues.season_match_create(
            actor=world.users["sam"],
            season_id=world.season.pk,
            seats=dict(zip("NESW", PLAYERS)),
            first_dealer="N",
            dealing="recorded",
        )
        with django_capture_on_commit_callbacks(execute=True):
            play_record(match, simulated(seed), world.users["sam"], deals=deals)
        match.refresh_from_db()
        return match

    return _make


@pytest.fixture
def rng():
    return random.Random(7)
