"""The spreadsheet downloads (issue 25, item 3) as a club member reaches them: from the season
page and the evening's results page on a 360 px phone in Polish, each link clicked in Debian's
chromium (Playwright), the file saved and opened — the XLSX with openpyxl (typed cells, Polish
headers), the CSV for Excel with Python's csv module (``;``, a BOM, decimal commas).

Set ``WEB_SCREENSHOTS=<dir>`` to keep a screenshot of each page."""

import csv
import datetime
import io
import os
import random
from pathlib import Path

import openpyxl
import pytest
from support.world import SHORT, build_world, play_record

from games.engine import Ruleset
from games.engine.seats import Seat
from games.engine.simulate import simulate_match
from games.models import Match
from scoring import evening_services

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 360, "height": 740}
MEMBERS = [f"m{k:02d}" for k in range(1, 9)]


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def club(django_user_model):
    """Club ``kk``, eight members; an evening of one round at two tables, both played, the standings computed."""
    world = build_world(
        django_user_model, players=tuple(MEMBERS), scorer=None, arbiter=None, others=(), staff=None, options=SHORT
    )
    world.users["m01"].set_password(PASSWORD)
    world.users["m01"].save()
    ada = world.users["ada"]
    evening = evening_services.evening_create(
        actor=ada, season_id=world.season.pk, date=datetime.date(2026, 12, 3), rounds=1, players=MEMBERS
    )
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    for seed, match in enumerate(Match.objects.filter(season_match__evening_table__round__evening=evening)):
        seats = {seat: player.username for seat, player in zip("NESW", match.seat_players())}
        played = simulate_match(
            random.Random(seed),
            ruleset=Ruleset.from_options(SHORT),
            players=seats,
            first_dealer=Seat[match.first_dealer],
        )
        play_record(match, played, ada)
    world.evening = evening
    return world


def download(page, selector: str) -> bytes:
    with page.expect_download() as event:
        page.click(selector)
    return Path(event.value.path()).read_bytes()


def look(page, name: str) -> None:
    """The page's download links wrap within the phone's width; a screenshot kept."""
    links = page.locator("p.actions").first.bounding_box()
    assert links["x"] >= 0 and links["x"] + links["width"] <= PHONE["width"], f"{name}: links wider than the phone"
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"downloads-{name}.png"), full_page=True)


def test_a_member_downloads_the_seasons_and_the_evenings_spreadsheets_on_a_phone(live_server, browser, club):
    context = browser.new_context(locale="pl-PL", viewport=PHONE, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/seasons/{club.season.pk}/")
    page.fill("#id_username", "m01")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form.login button[type=submit]")
    look(page, "season")
    shown = page.locator("#standings tbody tr th[scope=row]").all_inner_texts()

    book = openpyxl.load_workbook(io.BytesIO(download(page, "text=Tabela (XLSX)")))
    sheet = book["Tabela"]
    assert [cell.value for cell in sheet[1]][:2] == ["Miejsce", "Gracz"] and sheet.freeze_panes == "A2"
    assert [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)] == [name.strip() for name in shown]
    assert all(isinstance(row[10], int) for row in sheet.iter_rows(min_row=2, values_only=True))  # Bilans

    text = download(page, "text=Tabela (CSV dla Excela)").decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text[1:]), delimiter=";"))
    assert len(rows) == len(MEMBERS) and all("." not in row["Bilans na partię"] for row in rows)

    book = openpyxl.load_workbook(io.BytesIO(download(page, "text=Partie i rozdania (XLSX)")))
    assert book.sheetnames == ["Partie", "Rozdania"] and book["Partie"].max_row == 3  # header + two tables

    page.goto(f"{live_server.url}/evenings/{club.evening.pk}/results/")
    look(page, "evening-results")
    ranking = page.locator("#evening-ranking tbody tr th[scope=row]").all_inner_texts()
    book = openpyxl.load_workbook(io.BytesIO(download(page, "text=Wyniki (XLSX)")))
    assert [row[1] for row in book["Klasyfikacja"].iter_rows(min_row=2, values_only=True)] == ranking
    context.close()
