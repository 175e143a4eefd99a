"""The CSV exports (issue 30, finding 6): a text cell a spreadsheet would run as a formula is
neutralised by OWASP's rule (a leading ``'``), numbers stay numbers; a format the API does not have
is a problem+json answer, not a 500 (finding 7)."""

import csv
import io
import random

import pytest
from api_helpers import PROBLEM, fresh_users
from django.contrib.auth import get_user_model
from django.test import TestCase
from support import api_client as client
from support.once import fresh, once_per_module

from games.engine import Ruleset
from games.engine.simulate import simulate_match
from scoring import services
from scoring.spreadsheet_cells import spreadsheet_cell

pytestmark = pytest.mark.django_db

HOSTILE = ('=HYPERLINK("http://x.example/","klik")', "+1", "-1+2", "@SUM(A1:A9)", "=1+1", "bartek")


def build_season():
    """Club ``kk`` (admin ``ada``, scorer ``sam``), members named as a formula, an open season with
    one imported match among four of them, its standings computed."""
    make = get_user_model().objects.create_user
    users = {name: make(name) for name in ("ada", "sam", *HOSTILE)}
    club = services.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    services.membership_set(actor=users["ada"], club_id=club.pk, username="sam", role="scorer")
    for name in HOSTILE:
        services.membership_set(actor=users["ada"], club_id=club.pk, username=name)
    league = services.league_create(actor=users["ada"], club_id=club.pk, name="Liga")
    season = services.season_create(actor=users["ada"], league_id=league.pk, name="2026")
    with TestCase.captureOnCommitCallbacks(execute=True):
        for seed, seats in ((41, HOSTILE[:4]), (42, HOSTILE[2:])):
            record = simulate_match(
                random.Random(seed), players=dict(zip("NESW", seats)), ruleset=Ruleset.from_options({})
            )
            services.season_record_import(actor=users["sam"], season_id=season.pk, record=record)
    return users, season


built = once_per_module(build_season)


@pytest.fixture
def season_world(built):
    users, season = built
    return fresh_users(users), fresh(season)


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("path", ["standings/csv/", "standings/?format=csv"])
def test_standings_csv_neutralises_every_name_a_spreadsheet_would_run(season_world, path):
    users, season = season_world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/{path}")

    assert response.status_code == 200, response.content
    players = {row["player"] for row in csv_rows(response)}
    assert players == {"'" + name for name in HOSTILE[:-1]} | {"bartek"}


def test_standings_csv_keeps_numbers_as_numbers(season_world):
    users, season = season_world

    rows = csv_rows(client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/standings/csv/"))

    balances = [int(row["balance"]) for row in rows]  # a negative balance is a number, not a quoted text
    assert sum(balances) == 0 and min(balances) < 0
    assert all(not row["balance_per_match"].startswith("'") for row in rows)


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("ala", "ala"),
        ("", ""),
        ("a=1", "a=1"),
        (-3, -3),
        (-1.5, -1.5),
        (True, True),
        (None, None),
    ],
)
def test_a_cell_is_neutralised_by_owasps_rule_and_numbers_stay_numbers(value, cell):
    assert spreadsheet_cell(value) == cell


@pytest.mark.parametrize("path", ["standings/csv/", "standings/"])
@pytest.mark.parametrize("fmt", ["x", "ndjson", "csv\x00"])
def test_standings_in_a_format_the_api_does_not_have_is_a_404_problem(season_world, path, fmt):
    users, season = season_world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/{path}", {"format": fmt})

    assert response.status_code == 404, response.content
    assert response["Content-Type"] == PROBLEM
