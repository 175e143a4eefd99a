"""Every page a member or a club's admin reads fits a 360 px phone in Polish (Playwright, Debian's
chromium): the page never scrolls sideways. A wide table scrolls inside its own box, and the
screen-reader-only labels in it stay in that box (they are absolute: without a positioned box
they sat at the table's far end and made the score sheet 1,024 px wide); breadcrumbs wrap; a
long option of a select stays on the screen.

Set ``WEB_SCREENSHOTS=<dir>`` to keep the screenshots (``phone-<page>.png``)."""

import datetime

import pytest
from web_helpers import keep, phone_tab

from games.models import Match, Player
from scoring.annotations import match_annotate
from scoring.evening_services import evening_create, evening_round_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360
# guests with long names (profiles without an account: the members page offers each an invitation
# link), seated at an evening's tables beside the club's members
GUESTS = ("Bartłomiej Wiśniewski-Kowalczyk", "Małgorzata Żółkiewska-Brzęczyszczykiewicz", "Zenon Gość")


def overflowing(page, base: str, pages: dict[str, str]) -> dict[str, int]:
    """The pages (by name) wider than the phone, with their width; each one's screenshot kept."""
    wide = {}
    for name, path in pages.items():
        response = page.goto(base + path)
        assert response.status == 200, path
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > WIDTH:
            wide[name] = width
        keep(page, f"phone-{name}")
    return wide


def test_every_page_fits_a_phone_in_polish(live_server, browser, users, finished_match, club, settings):
    for match in Match.objects.all():  # the accuracy tables and the annotated deal show
        match_annotate(match_id=match.pk)
    season, ala, player = club.season, users["ala"], Player.objects.get(username="ala")
    settings.EVENING_SEATING_SECONDS = 0.5
    evening = evening_create(
        actor=club.ada,
        season_id=season.pk,
        date=datetime.date(2026, 12, 3),
        rounds=2,
        players=("ala", "bartek", "celina", "darek", "scorer"),
        guests=GUESTS,
    )
    evening_round_seat(actor=club.ada, evening_id=evening.pk)  # round 1 of 2: two tables of long names
    member = {
        "home": "/",
        "matches": "/matches/",
        "score-sheet": f"/matches/{finished_match.pk}/",
        "deal": f"/matches/{finished_match.pk}/deals/1/",
        "disputes": f"/matches/{finished_match.pk}/disputes/",
        "season": f"/seasons/{season.pk}/",
        "season-summary": f"/seasons/{season.pk}/summary/",
        "season-player": f"/seasons/{season.pk}/players/{player.pk}/",
        "profile": f"/players/{player.pk}/",
        "clubs": "/clubs/",
        "club": f"/clubs/{club.pk}/",
        "invitations": "/invitations/",
        "tokens": "/accounts/tokens/",
        "my-data": "/accounts/data/",
        "record-viewer": "/records/view/",
    }
    admin = {
        "members": f"/clubs/{club.pk}/members/",
        "roles": f"/clubs/{club.pk}/roles/",
        "season-new": f"/clubs/{club.pk}/seasons/new/",
        "season-edit": f"/seasons/{season.pk}/edit/",
        "evenings": f"/seasons/{season.pk}/evenings/",
        "evening-new": f"/seasons/{season.pk}/evenings/new/",
        "season-close": f"/seasons/{season.pk}/close/",
        "evening": f"/evenings/{evening.pk}/",
        "evening-seat": f"/evenings/{evening.pk}/seat/",
        "evening-players": f"/evenings/{evening.pk}/players/",
        "evening-results": f"/evenings/{evening.pk}/results/",
    }
    wide = {}
    for user, pages in ((ala, member), (club.ada, admin)):
        page, refused = phone_tab(browser, live_server.url, user, "pl")
        wide |= overflowing(page, live_server.url, pages)
        assert refused == []

    assert wide == {}
