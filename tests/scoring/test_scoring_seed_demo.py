"""``manage.py seed_demo``: a demo club, league, season of simulated matches and demo users with
their API tokens; a second run adds nothing and prints the same tokens."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from games.models import Match, MatchEvent
from scoring.models import Club, Membership, Season, SeasonMatch, StandingRow

pytestmark = pytest.mark.django_db

DEMO_USERS = ("demo-admin", "demo-scorer", "ala", "bartek", "celina", "darek")


def seed(**options) -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out, **options)
    return out.getvalue()


def counts() -> dict:
    User = get_user_model()
    return {
        "users": User.objects.count(),
        "clubs": Club.objects.count(),
        "seasons": Season.objects.count(),
        "memberships": Membership.objects.count(),
        "matches": Match.objects.count(),
        "season_matches": SeasonMatch.objects.count(),
        "events": MatchEvent.objects.count(),
        "tokens": Token.objects.count(),
        "standings": StandingRow.objects.count(),
    }


def test_seed_demo_is_idempotent_and_prints_tokens():
    first = seed(matches=3)
    after_first = counts()
    second = seed(matches=3)
    assert counts() == after_first
    assert after_first["users"] == 6 and after_first["season_matches"] == 3 and after_first["events"] > 0
    season = Season.objects.get(league__club__slug="demo", name="Demo Season")
    assert set(Match.objects.values_list("status", flat=True)) == {"finished"}
    names = set(StandingRow.objects.filter(season=season).values_list("player__username", flat=True))
    assert {"ala", "bartek", "celina", "darek"} <= names
    for name in DEMO_USERS:
        key = Token.objects.get(user__username=name).key
        assert re.search(rf"{re.escape(name)}\s+{key}", first) and key in second
    assert f"/api/v1/seasons/{season.pk}/standings/" in first and "kierki-demo" in first
    assert "0 added" in second
    admin = get_user_model().objects.get(username="demo-admin")
    assert admin.is_staff and admin.check_password("kierki-demo")
    roles = dict(Membership.objects.filter(club=season.league.club).values_list("user__username", "role"))
    assert roles == {
        "demo-admin": "admin",
        "demo-scorer": "scorer",
        "ala": "member",
        "bartek": "member",
        "celina": "member",
        "darek": "member",
    }


def test_seed_demo_tops_up_to_more_matches(client):
    seed(matches=2)
    out = seed(matches=4)
    assert SeasonMatch.objects.count() == 4 and "2 added" in out
    season = Season.objects.get(name="Demo Season")
    key = Token.objects.get(user__username="ala").key
    response = client.get(f"/api/v1/seasons/{season.pk}/standings/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 200 and len(response.json()["rows"]) == 4
