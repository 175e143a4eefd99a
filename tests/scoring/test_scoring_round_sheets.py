"""The evening's printing (issue 23, item 4): one PDF with every table's sheet of a round — round
and table, players by seat, first dealer and each deal's dealer (R6), the tally's columns (R31),
24 rows and a continuation sheet, the QR code to the table's score-sheet page, Polish dates —
read back with pypdf; a withdrawn match's sheet says so."""

import io

import pytest
import segno
from pypdf import PdfReader
from scoring_helpers import evening_club
from support import api_client as api

from games.models import Match
from printing.table_sheets import dealer_of, qr_drawing

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def round_one(django_user_model):
    """Eight members of club ``kk`` at an evening of 3 December 2026, round 1 seated (two tables)."""
    world = evening_club(django_user_model, 8, {"regular_deals": ["R", "R", "O", "O"]})
    ada = world.users["ada"]
    body = {
        "season": world.season.pk,
        "date": "2026-12-03",
        "rounds": 2,
        "dealing": "recorded",
        "players": [f"m{k:02d}" for k in range(1, 9)],
    }
    evening = api(ada).post("/api/v1/evenings/", body, format="json").json()
    seated = api(ada).post(f"/api/v1/evenings/{evening['id']}/rounds/", {"round": 1}, format="json")
    assert seated.status_code == 201, seated.json()
    return world.users, evening["id"], seated.json()


def pages_of(response) -> list[str]:
    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    return [page.extract_text(extraction_mode="layout") for page in PdfReader(io.BytesIO(response.content)).pages]


def test_a_rounds_pdf_holds_every_tables_sheet_and_its_continuation(client, round_one):
    users, evening_id, seated = round_one
    client.force_login(users["m01"])

    pages = pages_of(client.get(f"/evenings/{evening_id}/rounds/1/sheets.pdf", HTTP_ACCEPT_LANGUAGE="pl"))

    tables = seated["tables"]
    assert len(pages) == 2 * len(tables)  # a sheet and a continuation sheet per table
    for index, table in enumerate(tables):
        first, more = pages[2 * index], pages[2 * index + 1]
        assert f"Runda 1 · stół {table['number']}" in first and "arkusz dalszy" in more
        assert "3 grudnia 2026" in first
        for seat, name in table["seats"].items():
            assert f"{seat}: {name}" in first
        assert f"Pierwszy rozdaje: {table['first_dealer']}" in first
        assert first.count(" Pkt") >= 4 and " KW " in first and "OL" in first  # the tally's columns, per seat
        rows = {
            line.split()[0]: line.split()[1]
            for line in first.splitlines()
            if line.split()[:1] and line.split()[0].isdigit() and len(line.split()) > 1
        }
        assert rows["1"] == table["first_dealer"] and rows["24"] == dealer_of(table["first_dealer"], 24)  # R6
        assert "25" in more.split() and "48" in more.split()


def test_the_qr_code_is_the_tables_page_address():
    url = "http://testserver/matches/0d3c/sheet/"
    drawing = qr_drawing(url)
    dark = sum(sum(row) for row in segno.make(url, error="m").matrix_iter(border=2))

    assert len(drawing.contents) == dark


def test_a_withdrawn_matchs_sheet_says_so(client, round_one, django_user_model):
    users, evening_id, seated = round_one
    match = Match.objects.get(pk=seated["tables"][0]["match"])
    arbiter = django_user_model.objects.create_user("arbiter", is_staff=True)  # not involved in the match
    withdrawn = api(arbiter).post(f"/api/v1/matches/{match.pk}/withdrawal/", {"reason": "choroba"}, format="json")
    client.force_login(users[seated["tables"][0]["seats"]["N"]])  # a player of that table

    pages = pages_of(client.get(f"/matches/{match.pk}/sheet/print.pdf", HTTP_ACCEPT_LANGUAGE="pl"))

    assert withdrawn.status_code in (200, 201), withdrawn.content
    assert "WYCOFANA" in pages[0] and "choroba" in pages[0]


def test_the_rounds_pdf_is_404_to_outsiders_and_for_a_round_not_seated(client, round_one):
    users, evening_id, _ = round_one
    client.force_login(users["olek"])
    assert client.get(f"/evenings/{evening_id}/rounds/1/sheets.pdf").status_code == 404
    client.force_login(users["m01"])
    assert client.get(f"/evenings/{evening_id}/rounds/2/sheets.pdf").status_code == 404
