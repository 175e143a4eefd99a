"""The organiser's half of a club evening through pages only (issue 23), in Debian's chromium
driven headless by Playwright, in Polish: a new season, an evening of 13 members (one of them a
guest without an account, added by name), four rounds seated (by the server, and one by hand
checked before it is saved), a late arrival, a withdrawal, the round's tables and a table's
match page, the evening's results, naming an arbiter, and closing the season with a reason on a
phone-sized viewport. The tables' results are filed through the services (the score-sheet page
is another page's work). No page says a word of English; the test prints how many page loads
and form submissions the organiser needed, and the slowest page's server time.

Set ``WEB_SCREENSHOTS=<dir>`` to keep a screenshot of each page."""

import os
import random
import re
from pathlib import Path

import pytest
from support.world import SHORT, build_world

from games.engine import Ruleset
from games.engine.seats import Seat
from games.engine.simulate import simulate_match
from games.models import DealScore, Match
from games.write import signoffs
from scoring.models import Evening, EveningRound, Membership, Season, SeasonStatusChange

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 390, "height": 844}
MEMBERS = [f"m{k:02d}" for k in range(1, 13)]  # twelve with an account; the guest makes thirteen
GUEST = "Zofia Gość"
# Words of the pages' English msgids: none may show on a Polish page (names are m01…, "Zofia Gość").
ENGLISH = re.compile(
    r"\b(the|and|of|round|rounds|evening|evenings|season|table|tables|players?|seat|seated|results?|"
    r"close|save|present|withdraw|withdrawn|sign|guests?|finished|confirmed|arbiter|scorer|member)\b",
    re.IGNORECASE,
)


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def club(django_user_model):
    world = build_world(
        django_user_model, players=tuple(MEMBERS), scorer=None, arbiter=None, others=(), staff=None, options=SHORT
    )
    world.users["ada"].set_password(PASSWORD)
    world.users["ada"].save()
    return world


class Organiser:
    """The organiser's browser tab: counts page loads and form submissions, keeps screenshots,
    checks each page for English and notes its server time."""

    def __init__(self, page, base: str):
        self.page, self.base = page, base
        self.loads = self.submissions = 0
        self.server_ms: list[float] = []
        self.refused: list[str] = []  # what the Content-Security-Policy refused (nothing inline, this origin only)
        page.on("load", lambda _page: self._loaded())
        page.on("console", lambda message: self._console(message.text))

    def _loaded(self) -> None:
        self.loads += 1

    def _console(self, text: str) -> None:
        if "Content Security Policy" in text:
            self.refused.append(text)

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def click(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.click(selector)

    def submit(self, selector: str) -> None:
        self.submissions += 1
        self.click(selector)

    def look(self, name: str) -> str:
        """The page's main text, checked for English; its server time noted; a screenshot kept."""
        timing = self.page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n ? n.responseStart - n.requestStart : 0; }"
        )
        self.server_ms.append(timing)
        text = self.page.inner_text("main")
        english = ENGLISH.findall(text)
        assert not english, f"{name}: English on a Polish page: {english}"
        assert self.page.evaluate("document.documentElement.lang") == "pl"
        folder = os.environ.get("WEB_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / f"evening-{name}.png"), full_page=True)
        return text


def file_round(evening: Evening, number: int, actor) -> None:
    """Each table of the round filed as its scorer (the organiser) would from the paper sheet."""
    one = EveningRound.objects.get(evening=evening, number=number)
    for table in one.tables.select_related("season_match__match"):
        file_match(table.season_match.match, 100 * number + table.number, actor)


def file_match(match: Match, seed: int, actor) -> None:
    from support.world import play_record

    seats = {seat: player.username for seat, player in zip("NESW", match.seat_players())}
    played = simulate_match(
        random.Random(seed), ruleset=Ruleset.from_options(SHORT), players=seats, first_dealer=Seat[match.first_dealer]
    )
    play_record(match, played, actor)


def test_an_organiser_runs_an_evening_through_the_pages_in_polish(live_server, browser, club):
    ada = club.users["ada"]
    page = browser.new_page(locale="pl-PL", viewport={"width": 1280, "height": 900})
    me = Organiser(page, live_server.url)

    me.goto(f"/clubs/{club.club.pk}/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", PASSWORD)
    me.submit("form.login button[type=submit]")
    me.click("a[href$='/seasons/new/']")
    me.look("season-new")
    page.fill("#id_name", "Zima 2026/27")
    page.fill("#id_start_date", "2026-12-01")
    me.submit("#season-form button[type=submit]")
    season = Season.objects.get(name="Zima 2026/27")

    # The evening: eleven members ticked and a guest by name; m12 comes late (13 in all)
    me.click("a[href$='/evenings/new/']")
    for name in MEMBERS[:11]:
        page.check(f"input[name=present][value={name}]")
    page.fill("#id_date", "2026-12-03")
    page.fill("#id_rounds", "4")
    page.fill("#id_guests", GUEST)
    me.look("evening-new")
    me.submit("#evening-new button[type=submit]")
    evening = Evening.objects.get(season=season)

    me.look("seat-1")
    me.submit("#seat-auto button")
    text = me.look("round-1")
    assert "Runda 1" in text
    file_round(evening, 1, ada)
    me.click("#round-1 tbody tr:first-child a")  # the table's match page
    me.page.go_back()

    me.click(f"a[href='/evenings/{evening.pk}/players/']")
    page.check("input[name=arrive][value=m12]")
    me.submit("#arrive button[type=submit]")
    me.look("late-arrival")
    me.click(f"a[href='/evenings/{evening.pk}/seat/']")
    me.submit("#seat-auto button")
    file_round(evening, 2, ada)
    assert len(EveningRound.objects.get(evening=evening, number=2).sitting_out.all()) == 1  # 13 at 3 tables

    me.click(f"a[href='/evenings/{evening.pk}/players/']")
    page.select_option("#id_leave", "m05")
    me.submit("#withdraw button[type=submit]")
    me.look("withdrawal")

    # Round 3 by hand: the twelve still present at three tables, checked before they are saved
    me.click(f"a[href='/evenings/{evening.pk}/seat/']")
    present = [name for name in [*MEMBERS, GUEST] if name != "m05"]
    loads = me.loads
    for seat, name in zip("NESW", ["m05", "m02", "m03", "m04"]):  # m05 has left: refused as typed (htmx)
        page.fill(f"input[name='t1-{seat}']", name)
    page.keyboard.press("Tab")
    page.wait_for_selector("#preview-slot .errors")
    assert "m05" in page.inner_text("#preview-slot .errors")
    for k, name in enumerate(present):
        page.fill(f"input[name='t{k // 4 + 1}-{'NESW'[k % 4]}']", name)
    page.keyboard.press("Tab")
    page.locator("#preview tbody th[scope=row]").nth(2).wait_for()  # the third table checked too
    assert me.loads == loads  # checked in place, no page load
    text = me.look("seat-3-preview")
    assert "Przed zapisaniem" in text and not page.locator("#preview-slot .errors").count()
    me.submit("#seat-hand button[value=manual]")
    assert EveningRound.objects.get(evening=evening, number=3).seated_by == "manual"
    file_round(evening, 3, ada)

    me.click(f"a[href='/evenings/{evening.pk}/seat/']")
    me.submit("#seat-auto button")
    file_round(evening, 4, ada)
    withdrawn = EveningRound.objects.get(evening=evening, number=4).tables.get(number=1).season_match.match
    signoffs.match_withdraw(match_id=withdrawn.pk, actor=ada, reason="zły stolik")  # the organiser rules on it
    me.goto(f"/evenings/{evening.pk}/")
    text = me.look("evening")
    assert "wycofana" in text and "in_progress" not in text
    me.submit("form.refile button")  # the withdrawn table filed again in its place: its new match's page
    refiled = EveningRound.objects.get(evening=evening, number=4).tables.get(number=1).season_match.match
    assert refiled.pk != withdrawn.pk and page.url.endswith(f"/matches/{refiled.pk}/")
    file_match(refiled, 999, ada)
    me.goto(f"/evenings/{evening.pk}/")
    assert "wycofana" not in me.look("evening-refiled")

    me.click(f"a[href='/evenings/{evening.pk}/results/']")
    text = me.look("results")
    ranking = page.locator("#evening-ranking tbody tr").all_inner_texts()
    assert len(ranking) == 13
    counted = Match.objects.filter(season_match__evening_table__round__evening=evening, withdrawn=False)
    total = {}
    for player, points in DealScore.objects.filter(match__in=counted).values_list("player__username", "points"):
        total[player] = total.get(player, 0) + points
    shown = {row.split("\t")[1]: int(row.split("\t")[3].replace("−", "-")) for row in ranking}
    assert shown == total  # each player's Σ points over the tables that count (the withdrawn one left out)
    points = [int(row.split("\t")[3].replace("−", "-")) for row in ranking]
    assert points == sorted(points, reverse=True)

    me.goto(f"/clubs/{club.club.pk}/")
    me.click(f"a[href='/clubs/{club.club.pk}/roles/']")
    page.select_option("#id_user", "m03")
    page.select_option("#id_role", "arbiter")
    me.submit("#role-form button[type=submit]")
    me.look("roles")
    assert Membership.objects.get(user__username="m03").role == "arbiter"

    # Closing the season on a phone
    page.set_viewport_size(PHONE)
    me.goto(f"/seasons/{season.pk}/")
    me.click(f"a[href='/seasons/{season.pk}/close/']")
    me.look("season-closing")
    page.fill("#id_reason", "Koniec sezonu zimowego")
    me.submit("#season-close button[type=submit]")  # the box left unticked: refused, the reason kept
    assert page.input_value("#id_reason") == "Koniec sezonu zimowego"
    me.look("season-closing-refused")
    assert page.locator("#season-close").bounding_box()["width"] <= PHONE["width"]
    page.check("input[name=confirm]")
    me.submit("#season-close button[type=submit]")
    assert Season.objects.get(pk=season.pk).status == "closed"
    assert SeasonStatusChange.objects.get(season=season).reason == "Koniec sezonu zimowego"

    assert not me.refused, me.refused
    print(
        f"\norganiser: {me.loads} page loads, {me.submissions} form submissions; "
        f"slowest server time {max(me.server_ms):.0f} ms over {len(me.server_ms)} pages looked at"
    )
