"""A club evening end to end (issue 15, "Done when"): 13 members — one added by display name,
without an account — over 4 rounds, each round seated through the API, its matches created,
every table's paper sheet filed deal by deal by its tally (R31), the standings updated, and the
PDFs printed and read back: the evening's seating, each match's score sheet, the season's
standings."""

import io
import random

import pytest
from pypdf import PdfReader
from scoring_helpers import evening_club
from support import api_client as api

from games.engine import Ruleset, Seat, replay
from games.engine import record as records
from games.engine.simulate import simulate_match
from games.engine.tally import played_tally
from games.models import Match
from scoring import invitations
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db

GUEST = "Łucja Żak"  # a member without an account, added by display name
RULES = {"regular_deals": ["R", "R", "O", "O"]}  # shorter matches; compensating deals and sales still come


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def club(django_user_model):
    """Club ``kk``: admin ``ada`` (who seats and files, never seated), twelve members with accounts
    and one without, outsider ``olek``; an open season."""
    world = evening_club(django_user_model, 12, RULES)
    invitations.club_player_add(actor=world.users["ada"], club_id=world.club.pk, name=GUEST)
    return world.users, world.season


def four_members_evening(users, season, rounds: int) -> dict:
    """An evening of m01–m04 on 3 December 2026, created by ``ada`` through the API."""
    body = {"season": season.pk, "date": "2026-12-03", "rounds": rounds, "players": ["m01", "m02", "m03", "m04"]}
    return api(users["ada"]).post("/api/v1/evenings/", body, format="json").json()


def pdf(response) -> tuple[str, int]:
    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)


def sheet_of(table: dict, seed: int) -> list[dict]:
    """The paper sheet of a table: a simulated match, each deal written down as its tally (what
    each player took, derived from the played deal) with its lead sale, as docs/paper-sheets.md
    files a compensating odgrywki's sale."""
    played = simulate_match(
        random.Random(seed),
        ruleset=Ruleset.from_options(RULES),
        players=table["seats"],
        first_dealer=Seat[table["first_dealer"]],
    )
    state = replay(records.decode(played)).state
    sheet = []
    for deal, result in zip(played["deals"], state.results):
        tally = played_tally(result.kind, result.final.plays, result.final.winners, state.ruleset.last_tricks)
        sheet.append(
            {
                "tally": {seat.name: t.as_json(result.kind) for seat, t in zip(Seat, tally)},
                **({"sale": deal["sale"]} if "sale" in deal else {}),
            }
        )
    return sheet


def file_by_tally(admin, match_id, sheet: list[dict]) -> None:
    for number, body in enumerate(sheet, start=1):
        response = api(admin).post(f"/api/v1/matches/{match_id}/tallies/", body, format="json")
        assert response.status_code == 201, (number, response.json())


def test_an_evening_of_13_members_is_seated_filed_by_tally_ranked_and_printed(club, django_capture_on_commit_callbacks):
    users, season = club
    ada = users["ada"]
    players = [*[f"m{k:02d}" for k in range(1, 13)], GUEST]
    evening = api(ada).post(
        "/api/v1/evenings/",
        {"season": season.pk, "date": "2026-12-03", "rounds": 4, "dealing": "recorded", "players": players},
        format="json",
    )
    assert evening.status_code == 201, evening.json()
    evening_id = evening.json()["id"]

    sat_out, sales, matches = [], 0, []
    for number in range(1, 5):
        seated = api(ada).post(f"/api/v1/evenings/{evening_id}/rounds/", {"round": number}, format="json")
        assert seated.status_code == 201, seated.json()
        one = seated.json()
        assert len(one["tables"]) == 3 and len(one["sitting_out"]) == 1
        sat_out += one["sitting_out"]
        with django_capture_on_commit_callbacks(execute=True):
            for table in one["tables"]:
                sheet = sheet_of(table, seed=10 * number + table["number"])
                sales += sum("sale" in deal for deal in sheet)
                file_by_tally(ada, table["match"], sheet)
                matches.append(table["match"])

    # seated: four different players sat out once each; everyone else played every round
    assert len(set(sat_out)) == 4
    assert sales >= 1  # the sheets carried at least one sold lead (R26, R27)
    # filed: every match finished from its tallies alone, confirmed (filed by an admin not seated)
    filed = Match.objects.filter(pk__in=matches)
    assert filed.count() == 12 and all(m.status == Match.Status.FINISHED and m.confirmed for m in filed)
    assert all({deal["entry"] for deal in m.projection.summary["deals"]} == {"tally"} for m in filed)
    # ranked: a standings row for each of the 13, the guest included; 12 matches × 4 seats
    rows = StandingRow.objects.filter(season=season).select_related("player")
    assert sorted(row.player.username for row in rows) == sorted(players)
    assert sum(row.matches for row in rows) == 48
    assert {row.player.username: row.matches for row in rows} == {name: 4 - sat_out.count(name) for name in players}

    # printed: the evening's seating, each table's score sheet, the season's standings
    member = users["m05"]
    text, pages = pdf(api(member).get(f"/api/v1/evenings/{evening_id}/seating.pdf"))
    assert pages >= 1 and all(f"Round {n}" in text for n in range(1, 5))
    assert all(name in text for name in players) and "Sitting out" in text
    for match_id in matches:
        match = Match.objects.get(pk=match_id)
        text, pages = pdf(api(ada).get(f"/api/v1/matches/{match_id}/sheet.pdf"))  # its scorer
        assert pages >= 1 and "Winner" in text
        assert all(player.username in text for player in match.seat_players())
    text, pages = pdf(api(member).get(f"/api/v1/seasons/{season.pk}/standings.pdf"))
    assert pages == 1 and all(name in text for name in players)


def test_the_seating_pdf_is_404_to_outsiders_and_a_problem(club):
    users, season = club
    evening = four_members_evening(users, season, rounds=2)
    url = f"/api/v1/evenings/{evening['id']}/seating.pdf"

    hidden = api(users["olek"]).get(url, HTTP_ACCEPT="application/pdf")
    missing = api(users["m01"]).get("/api/v1/evenings/99999/seating.pdf")
    anonymous = api().get(url)
    empty, pages = pdf(api(users["m01"]).get(url))

    assert (hidden.status_code, hidden["Content-Type"]) == (404, "application/problem+json")
    assert hidden.json()["code"] == "not_found"
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert anonymous.status_code == 401
    assert pages == 1 and "No round is seated yet." in empty


def test_the_evening_page_links_its_seating_pdf(club, client):
    users, season = club
    evening = four_members_evening(users, season, rounds=1)
    client.force_login(users["m02"])

    page = client.get(f"/evenings/{evening['id']}/")

    assert page.status_code == 200 and f"/api/v1/evenings/{evening['id']}/seating.pdf" in page.content.decode()
