"""Fixtures for the scoring tests: a club with members, a league and an open season."""

import pytest
from scoring_helpers import ClubWorld

from scoring import services


@pytest.fixture
def world(django_user_model):
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p6``), league
    ``Liga``, season ``2025``."""
    users = {
        name: django_user_model.objects.create_user(name)  # no password: hashing one is slow
        for name in ("ada", "sam", "arb", "p1", "p2", "p3", "p4", "p5", "p6", "outsider")
    }
    club = services.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    services.membership_set(actor=users["ada"], club_id=club.pk, username="sam", role="scorer")
    services.membership_set(actor=users["ada"], club_id=club.pk, username="arb", role="arbiter")
    for name in ("p1", "p2", "p3", "p4", "p5", "p6"):
        services.membership_set(actor=users["ada"], club_id=club.pk, username=name)
    league = services.league_create(actor=users["ada"], club_id=club.pk, name="Liga")
    season = services.season_create(actor=users["ada"], league_id=league.pk, name="2025")
    return ClubWorld(users, club, league, season)
