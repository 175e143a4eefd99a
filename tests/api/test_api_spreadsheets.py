"""The downloads a spreadsheet opens (issue 25, item 3): XLSX workbooks of the standings, a
season's matches and deals and an evening's results, typed and with a frozen header row; the
standings CSV in the ``excel-pl`` dialect; both neutralise text a spreadsheet would run as a
formula; permissions as the JSON's."""

import csv
import datetime
import io
import random
import zoneinfo

import openpyxl
import pytest
from api_helpers import PROBLEM, fresh_users
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import TestCase
from support import api_client as client
from support.once import fresh, once_per_module
from support.world import play_record

from games.engine import Ruleset, Seat
from games.engine.simulate import simulate_match
from games.models import DealScore, Match
from scoring import evening_selectors, evening_services, services
from scoring.models import Evening

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HOSTILE = ('=HYPERLINK("http://x.example/","klik")', "+48 600", "-1+2", "@SUM(A1:A9)", "=1+1", "bartek")


def build_season():
    """Club ``kk`` (admin ``ada``, scorer ``sam``), members named as formulas, outsider ``olek``; an
    open season with two imported matches among them (standings computed) and an evening of one
    round whose table played two deals so far."""
    make = get_user_model().objects.create_user
    users = {name: make(name) for name in ("ada", "sam", "olek", *HOSTILE)}
    users["staff"] = make("staff", is_staff=True)
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
        evening = evening_services.evening_create(
            actor=users["ada"], season_id=season.pk, date=datetime.date(2026, 12, 3), rounds=1, players=HOSTILE[:4]
        )
        evening_services.evening_round_seat(actor=users["ada"], evening_id=evening.pk)
        match = Match.objects.get(season_match__evening_table__round__evening=evening)
        record = simulate_match(
            random.Random(7),
            players=dict(zip("NESW", (player.username for player in match.seat_players()))),
            first_dealer=Seat[match.first_dealer],
            ruleset=Ruleset.from_options(match.ruleset_options),
        )
        play_record(match, record, match.scorer or users["ada"], deals=2)  # two deals of it so far
    return users, season, evening


built = once_per_module(build_season)


@pytest.fixture
def world(built):
    users, season, evening = built
    return fresh_users(users), fresh(season), fresh(evening)


def workbook(response) -> openpyxl.Workbook:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == XLSX
    return openpyxl.load_workbook(io.BytesIO(response.content))


def sheet_rows(sheet) -> list[dict]:
    header, *rows = sheet.iter_rows(values_only=True)
    return [dict(zip(header, row)) for row in rows]


def json_standings(user, season) -> list[dict]:
    return client(user).get(f"/api/v1/seasons/{season.pk}/standings/").json()["rows"]


# --- the standings as XLSX ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, headers",
    [
        ("standings/?format=xlsx", {}),
        ("standings/", {"HTTP_ACCEPT": XLSX}),
        ("standings/xlsx/", {}),
    ],
)
def test_the_standings_workbook_holds_the_json_rows_as_typed_cells(world, path, headers):
    users, season, _evening = world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/{path}", HTTP_ACCEPT_LANGUAGE="en", **headers)

    sheet = workbook(response).active
    assert response["Content-Disposition"] == f'attachment; filename="season-{season.pk}-standings.xlsx"'
    assert sheet.freeze_panes == "A2"  # the header row stays in view
    rows = sheet_rows(sheet)
    expected = json_standings(users["ada"], season)
    assert [row["Player"] for row in rows] == [row["player"] for row in expected]
    warsaw = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    for got, want in zip(rows, expected, strict=True):
        assert got["Place"] == want["position"] and isinstance(got["Place"], int)
        assert got["Balance"] == want["balance"] and isinstance(got["Balance"], int)
        assert got["Balance per match"] == pytest.approx(want["balance_per_match"])
        assert isinstance(got["Balance per match"], int | float)
        assert got["Rating μ − 3σ"] == pytest.approx(want["rating"]["ordinal"])
        assert got["Ranked"] is want["ranked"]
        assert [got[f"{n} places"] for n in ("1st", "2nd", "3rd", "4th")] == want["placements"]
        played = datetime.datetime.fromisoformat(want["last_played"]).astimezone(warsaw).replace(tzinfo=None)
        assert got[f"Last played ({settings.TIME_ZONE})"] == played.replace(microsecond=0)  # to the second
    assert min(row["Balance"] for row in rows) < 0  # a negative balance is a number, not text


def test_the_standings_workbook_has_polish_headers_for_a_polish_reader_and_widths_to_fit(world):
    users, season, _evening = world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/standings/xlsx/", HTTP_ACCEPT_LANGUAGE="pl")

    sheet = workbook(response).active
    header = [cell.value for cell in sheet[1]]
    assert header[:4] == ["Miejsce", "Gracz", "W klasyfikacji", "Partie"] and sheet.title == "Tabela"
    hyperlink = sheet.column_dimensions["B"].width
    assert hyperlink >= len(HOSTILE[0]) and sheet.column_dimensions["A"].width < hyperlink


def test_a_name_a_spreadsheet_would_run_is_text_in_the_workbook(world):
    users, season, _evening = world

    sheet = workbook(client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/standings/xlsx/")).active

    cells = {cell.value: cell for cell in sheet["B"][1:]}
    assert set(cells) == set(HOSTILE)  # written as typed: the quote prefix is a style, not a character
    for name in HOSTILE[:-1]:
        assert cells[name].data_type == "s" and cells[name].quotePrefix
    assert not any(cell.data_type == "f" for row in sheet.iter_rows() for cell in row)


# --- the standings as CSV for a Polish Excel ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["standings/csv/?dialect=excel-pl", "standings/?format=csv&dialect=excel-pl"])
def test_the_excel_pl_csv_has_semicolons_a_bom_decimal_commas_and_polish_headers(world, path):
    users, season, _evening = world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/{path}", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    expected = json_standings(users["ada"], season)
    assert len(rows) == len(expected)
    for got, want in zip(rows, expected, strict=True):
        assert int(got["Bilans"]) == want["balance"]  # a negative balance: a number, not quoted text
        assert float(got["Ranking μ"].replace(",", ".")) == pytest.approx(want["rating"]["mu"])
        assert "." not in got["Ranking μ"] and "," in got["Ranking μ"]
        assert got["W klasyfikacji"] == ("tak" if want["ranked"] else "nie")
    assert {row["Gracz"] for row in rows} == {"'" + name for name in HOSTILE[:-1]} | {"bartek"}


def test_the_plain_csv_stays_machine_readable(world):
    users, season, _evening = world

    text = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/standings/csv/").content.decode()

    assert not text.startswith("\ufeff") and text.splitlines()[0].startswith("position,player,ranked,")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert all(row["ranked"] in ("True", "False") and "," not in row["mu"] for row in rows)


@pytest.mark.parametrize("path", ["standings/csv/", "standings/", "standings/xlsx/"])
def test_a_dialect_the_api_does_not_have_is_a_400_problem_naming_it(world, path):
    users, season, _evening = world

    response = client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/{path}", {"dialect": "excel-de"})

    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    assert response.json()["field"] == "dialect"


# --- permissions: as the JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["standings/xlsx/", "standings/?format=xlsx", "standings/csv/?dialect=excel-pl"])
def test_the_standings_downloads_are_read_as_the_json_is(world, path):
    users, season, _evening = world
    url = f"/api/v1/seasons/{season.pk}/{path}"

    assert client(users["olek"]).get(f"/api/v1/seasons/{season.pk}/standings/").status_code == 200
    assert client(users["olek"]).get(url).status_code == 200  # any signed-in user, as the JSON
    anonymous = client(None).get(url)
    assert anonymous.status_code == 401 and anonymous["Content-Type"] == PROBLEM
    missing = client(users["ada"]).get(url.replace(f"/{season.pk}/", "/999999/"))
    assert missing.status_code == 404 and missing["Content-Type"] == PROBLEM


def test_the_matches_workbook_is_for_the_clubs_members_and_staff_as_the_records_export(world):
    users, season, _evening = world
    url = f"/api/v1/seasons/{season.pk}/matches/xlsx/"

    for name in ("ada", "bartek", "staff"):
        assert client(users[name]).get(url).status_code == 200
        assert client(users[name]).get(f"/api/v1/seasons/{season.pk}/records/").status_code == 200
    for name in ("olek",):
        assert client(users[name]).get(url).status_code == 404
        assert client(users[name]).get(f"/api/v1/seasons/{season.pk}/records/").status_code == 404
    assert client(None).get(url).status_code == 401


def test_the_evening_workbook_is_for_the_clubs_members_and_staff_as_the_evening(world):
    users, _season, evening = world
    url = f"/api/v1/evenings/{evening.pk}/results/xlsx/"

    for name, status in (("bartek", 200), ("staff", 200), ("olek", 404)):
        assert client(users[name]).get(url).status_code == status
        assert client(users[name]).get(f"/api/v1/evenings/{evening.pk}/").status_code == status
    anonymous = client(None).get(url)
    assert anonymous.status_code == 401 and anonymous["Content-Type"] == PROBLEM


# --- a season's matches and deals, an evening's results --------------------------------------------------


def test_the_matches_workbook_has_a_row_per_match_and_per_deal_and_seat_with_equal_sums(world):
    users, season, evening = world

    book = workbook(client(users["ada"]).get(f"/api/v1/seasons/{season.pk}/matches/xlsx/", HTTP_ACCEPT_LANGUAGE="en"))

    assert book.sheetnames == ["Matches", "Deals"]
    assert all(book[name].freeze_panes == "A2" for name in book.sheetnames)
    matches, deals = sheet_rows(book["Matches"]), sheet_rows(book["Deals"])
    assert len(matches) == 3 and len(deals) == DealScore.objects.filter(match__season_match__season=season).count()
    for row in matches:
        points = [row[f"Points {seat}"] for seat in "NESW"]
        assert all(isinstance(p, int) for p in points) and row["Deals"] > 0
        assert isinstance(row["Played on"], datetime.date) and isinstance(row["Confirmed"], bool)
        by_deals = [d["Points"] for d in deals if d["Match"] == row["Match"]]
        assert sum(by_deals) == sum(points) and len(by_deals) == 4 * row["Deals"]
    from_evening = [row for row in matches if row["Evening"] is not None]
    assert len(from_evening) == 1 and from_evening[0]["Evening"].date() == evening.date
    assert from_evening[0]["Round"] == 1 and from_evening[0]["Table"] == 1
    assert {row["N"] for row in matches} <= set(HOSTILE)
    assert {d["Kind"] for d in deals} == {"rozbójnik", "odgrywka"}  # the names people read, not the enum's codes


def test_the_evening_workbook_holds_the_pages_ranking_and_tables(world):
    users, _season, evening = world

    response = client(users["bartek"]).get(f"/api/v1/evenings/{evening.pk}/results/xlsx/", HTTP_ACCEPT_LANGUAGE="pl")

    book = workbook(response)
    assert book.sheetnames == ["Klasyfikacja", "Stoliki"]
    assert response["Content-Disposition"] == f'attachment; filename="evening-{evening.pk}-2026-12-03-results.xlsx"'
    results = evening_selectors.evening_results(Evening.objects.get(pk=evening.pk))
    ranking = sheet_rows(book["Klasyfikacja"])
    assert [(r["Gracz"], r["Punkty"], r["Stoliki"]) for r in ranking] == [
        (row["name"], row["points"], row["tables"]) for row in results["ranking"]
    ]
    assert [r["Miejsce"] for r in ranking] == [1, 2, 3, 4] and any(r["Punkty"] for r in ranking)
    seats = sheet_rows(book["Stoliki"])
    assert [(r["Runda"], r["Stolik"], r["Miejsce"]) for r in seats] == [(1, 1, seat) for seat in "NESW"]
    table = results["rounds"][0]["tables"][0]
    assert [r["Punkty"] for r in seats] == [seat["points"] for seat in table["seats"]]
    assert all(r["Wycofana"] is False and r["Potwierdzona"] is table["match"].confirmed for r in seats)
