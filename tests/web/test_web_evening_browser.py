"""A whole club evening through pages only (issue 23's "done when"), in Debian's chromium driven
headless by Playwright, in Polish: a new season; an evening of 13 (twelve members known by their
display names, not their usernames, and a guest added by name); four rounds seated (by the server,
one by hand checked before it is saved); a late arrival and a withdrawal; all twelve tables' sheets
filed by tally through the score-sheet page, one Enter per deal — one deal typed wrong, refused
with its row kept, and corrected; a filed deal corrected; one match withdrawn on its page and its
table filed again; two players confirming a sheet on 360 px phones; the evening's results and the
season's standings checked against the deals' points; the season closed with a reason.

Every page goes through the Polish check (tests/support/polish_check.py: no English, no status code,
no username where a name exists, no decimal point, no ISO date). The test prints how many page
loads and form submissions the organiser needed and the slowest server time of any page or
partial (Playwright's resource timing: response start minus request start), without asserting
wall time.

Set ``WEB_SCREENSHOTS=<dir>`` to keep a screenshot of each page looked at."""

import os
from pathlib import Path

import pytest
from support.polish_check import assert_polish
from support.world import SHORT, build_world
from test_web_sheet_browser import ROZBOJNIK, type_tally

from games.models import DealScore, Match, MatchEvent, Player
from scoring.models import Evening, EveningRound, Season, SeasonStatusChange, StandingRow

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 360, "height": 740}
# Twelve members with an account (username m01…) known by their display names; a guest makes 13.
NAMES = {
    "m01": "Łucja Nowak",
    "m02": "Jędrzej Kowalski",
    "m03": "Józef Wiśniewski",
    "m04": "Żaneta Lis",
    "m05": "Lucyna Zając",
    "m06": "Adam Ślusarz",
    "m07": "Celina Ćwik",
    "m08": "Ewa Dąbrowska",
    "m09": "Bożena Chmielewska",
    "m10": "Teresa Kamińska",
    "m11": "Ryszard Wójcik",
    "m12": "Marek Łęcki",
}
GUEST = "Zofia Gość"
LATE, LEAVES = NAMES["m12"], NAMES["m05"]


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def club(django_user_model):
    world = build_world(
        django_user_model, players=tuple(NAMES), scorer=None, arbiter=None, others=(), staff=None, options=SHORT
    )
    for username, name in NAMES.items():
        Player.objects.filter(user__username=username).update(username=name)
    for user in world.users.values():
        user.set_password(PASSWORD)
        user.save()
    return world


class Browser:
    """A signed-in tab: counts page loads and form submissions, notes every answer's server
    time, checks each page looked at for anything not Polish, keeps screenshots."""

    def __init__(self, page, base: str, who: str):
        self.page, self.base, self.who = page, base, who
        self.loads = self.submissions = 0
        self.server_ms: list[tuple[float, str]] = []  # (ms, "GET /path/"), in the order asked
        self.refused: list[str] = []  # what the Content-Security-Policy refused
        page.on("load", lambda _page: self._loaded())
        page.on("requestfinished", self._timed)
        page.on("console", lambda message: self._console(message.text))

    def _loaded(self) -> None:
        self.loads += 1

    def _timed(self, request) -> None:
        if request.resource_type in ("document", "fetch", "xhr") and request.url.startswith(self.base):
            timing = request.timing
            took = timing["responseStart"] - timing["requestStart"]
            self.server_ms.append((took, request.method + " " + request.url[len(self.base) :].split("?")[0]))

    def _console(self, text: str) -> None:
        if "Content Security Policy" in text:
            self.refused.append(text)

    def sign_in(self, path: str) -> None:
        self.goto(path)
        self.page.fill("#id_username", self.who)
        self.page.fill("#id_password", PASSWORD)
        self.submit("form.login button[type=submit]")

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def click(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.click(selector)

    def submit(self, selector: str) -> None:
        self.submissions += 1
        self.click(selector)

    def enter(self, selector: str) -> None:
        """One Enter in a field: the form's submission, once the check as typed has answered
        (SQLite's shared in-memory test database refuses a write while another request reads: the
        field's "change" check, which Chromium fires on Enter, is let through first)."""
        self.page.locator(selector).evaluate("field => field.blur()")
        self.page.wait_for_timeout(450)  # the check waits 400 ms after the last key
        self.page.wait_for_function("() => !document.querySelector('.htmx-request')")
        self.page.focus(selector)
        self.submissions += 1
        with self.page.expect_navigation():
            self.page.press(selector, "Enter")

    def look(self, name: str) -> str:
        """The page's main text, checked for anything not Polish; a screenshot kept."""
        text = self.page.inner_text("main")
        assert_polish(text, f"{self.who}: {name}", NAMES)
        assert_polish(self.page.inner_text("header"), f"{self.who}: {name}'s header", NAMES)
        assert self.page.evaluate("document.documentElement.lang") == "pl"
        folder = os.environ.get("WEB_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / f"evening-{self.who}-{name}.png"), full_page=True)
        return text


def file_sheet(me: Browser, match: Match, name: str, *, wrong_first: bool = False, correct: bool = False) -> None:
    """The match's sheet filed from its page by tally, one Enter per deal, as the engine schedules
    them. ``wrong_first``: the first deal typed wrong, refused with its row kept, corrected;
    ``correct``: the first deal, once filed, corrected through the "Correct" link."""
    if me.page.url != f"{me.base}/matches/{match.pk}/sheet/":
        me.goto(f"/matches/{match.pk}/")
        me.click("#table-sheet-link")
    if wrong_first:
        type_tally(me.page, "rozbojnik", wrong=True)
        me.page.wait_for_selector("#sum-hearts .field-error")  # checked as typed: hearts add up to 12
        me.enter("#f-W-hearts")
        assert me.page.input_value("#f-W-hearts") == "0" and me.page.input_value("#f-S-hearts") == "5"
        assert me.page.is_checked("#f-S-king_of_hearts")  # nothing typed is lost
        assert "kiery: razem 12, a powinno być 13" in me.look(f"{name}-refused")
        assert not MatchEvent.objects.filter(match=match, type="deal_tallied").exists()
        me.page.fill("#f-W-hearts", "1")
        me.enter("#f-W-hearts")
        if correct:
            correct_deal_1(me, match, name)
            correct = False
    while me.page.locator("#due-form").count():
        number = me.page.get_attribute("#due", "data-deal")
        type_tally(me.page, me.page.get_attribute('#due td[data-field="kind"]', "data-value"))
        me.enter("#f-N-tricks")
        if correct and number == "1":
            correct_deal_1(me, match, name)
            correct = False
    assert not correct, "deal 1 was never offered for correction"
    assert me.page.locator("#sheet-complete").count() == 1
    me.look(f"{name}-sheet")


def correct_deal_1(me: Browser, match: Match, name: str) -> None:
    """Deal 1, just filed, corrected through its "Popraw" link: N and E swap their counts (a valid
    tally); the correction is one more event, the deal's row replaced."""
    me.click("#correct-1")
    me.look(f"{name}-correcting")
    keys = ("tricks", "hearts", "queens", "kings_jacks", "last_tricks")
    for seat, other in (("N", "E"), ("E", "N")):
        for key, value in zip(keys, ROZBOJNIK[other]):
            me.page.fill(f"#c-{seat}-{key}", str(value))
    me.enter("#c-N-tricks")
    assert MatchEvent.objects.filter(match=match, type="deal_corrected").count() == 1
    assert me.page.locator('tr.filed-row[data-deal="1"]').count() == 1


def file_round(me: Browser, evening: Evening, number: int, tables=(1, 2, 3), **first) -> None:
    one = EveningRound.objects.get(evening=evening, number=number)
    for k, table in enumerate(
        one.tables.filter(number__in=tables).order_by("number").select_related("season_match__match")
    ):
        file_sheet(me, table.season_match.match, f"r{number}-t{table.number}", **(first if k == 0 else {}))


def counted_points(evening: Evening) -> dict[str, int]:
    """Each player's (display name's) Σ points over the evening's tables that count."""
    counted = Match.objects.filter(season_match__evening_table__round__evening=evening, withdrawn=False)
    total: dict[str, int] = {}
    for player, points in DealScore.objects.filter(match__in=counted).values_list("player__username", "points"):
        total[player] = total.get(player, 0) + points
    return total


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def test_a_whole_evening_runs_through_the_pages_in_polish(live_server, browser, club):
    page = browser.new_page(locale="pl-PL", viewport={"width": 1280, "height": 900})
    me = Browser(page, live_server.url, "ada")

    me.sign_in(f"/clubs/{club.club.pk}/")
    me.look("club")
    me.click("a[href$='/seasons/new/']")
    me.look("season-new")
    page.fill("#id_name", "Zima 2026/27")
    page.fill("#id_start_date", "2026-12-01")
    me.submit("#season-form button[type=submit]")
    me.look("season")
    season = Season.objects.get(name="Zima 2026/27")

    # The evening: eleven members ticked and a guest by name; Marek comes late (13 in all)
    me.click("a[href$='/evenings/new/']")
    listed = page.locator("input[name=present]").evaluate_all("boxes => boxes.map(b => b.value)")
    firsts = [name.split()[0] for name in listed]  # in Polish order: ę before ó, L before Ł, Z before Ż
    for first, then in [("Jędrzej", "Józef"), ("Lucyna", "Łucja"), ("Łucja", "Marek"), ("Teresa", "Żaneta")]:
        assert firsts.index(first) < firsts.index(then), listed
    for name in NAMES.values():
        if name != LATE:
            page.check(f"input[name=present][value='{name}']")
    page.fill("#id_date", "2026-12-03")
    page.fill("#id_rounds", "4")
    page.fill("#id_guests", GUEST)
    me.look("evening-new")
    me.submit("#evening-new button[type=submit]")
    evening = Evening.objects.get(season=season)

    me.look("seat-1")
    me.submit("#seat-auto button")
    assert "Runda 1" in me.look("round-1")
    file_round(me, evening, 1, wrong_first=True, correct=True)

    me.goto(f"/evenings/{evening.pk}/players/")
    page.check(f"input[name=arrive][value='{LATE}']")
    me.submit("#arrive button[type=submit]")
    me.look("late-arrival")
    me.click(f"a[href='/evenings/{evening.pk}/seat/']")
    me.submit("#seat-auto button")
    assert len(EveningRound.objects.get(evening=evening, number=2).sitting_out.all()) == 1  # 13 at 3 tables
    file_round(me, evening, 2)

    me.goto(f"/evenings/{evening.pk}/players/")
    page.select_option("#id_leave", LEAVES)
    me.submit("#withdraw button[type=submit]")
    me.look("withdrawal")

    # Round 3 by hand: the twelve still present at three tables, checked before they are saved
    me.click(f"a[href='/evenings/{evening.pk}/seat/']")
    present = [name for name in [*NAMES.values(), GUEST] if name != LEAVES]
    loads = me.loads
    for seat, name in zip("NESW", [LEAVES, *present[1:4]]):  # she has left: refused as typed (htmx)
        page.fill(f"input[name='t1-{seat}']", name)
    page.keyboard.press("Tab")
    page.wait_for_selector("#preview-slot .errors")
    assert LEAVES in page.inner_text("#preview-slot .errors")
    for k, name in enumerate(present):
        page.fill(f"input[name='t{k // 4 + 1}-{'NESW'[k % 4]}']", name)
    page.keyboard.press("Tab")
    page.locator("#preview tbody th[scope=row]").nth(2).wait_for()  # the third table checked too
    assert me.loads == loads  # checked in place, no page load
    assert "Przed zapisaniem" in me.look("seat-3-preview")
    me.submit("#seat-hand button[value=manual]")
    assert EveningRound.objects.get(evening=evening, number=3).seated_by == "manual"
    file_round(me, evening, 3)

    me.goto(f"/evenings/{evening.pk}/seat/")
    me.submit("#seat-auto button")
    file_round(me, evening, 4, tables=(1, 2))

    # Table 3 of round 4 files its own sheet on a phone; two other players confirm it on theirs
    on_phone = EveningRound.objects.get(evening=evening, number=4).tables.get(number=3).season_match.match
    filer, *others = [p.user.username for p in on_phone.seat_players() if p.user_id]
    phone = Browser(browser.new_page(locale="pl-PL", viewport=PHONE), live_server.url, filer)
    phone.sign_in(f"/matches/{on_phone.pk}/sheet/")
    file_sheet(phone, on_phone, "r4-t3-on-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.page.close()
    for username in others[:2]:
        phone = Browser(browser.new_page(locale="pl-PL", viewport=PHONE), live_server.url, username)
        phone.sign_in(f"/matches/{on_phone.pk}/")
        phone.look("match-on-phone")
        phone.submit("#confirm-sheet")
        phone.look("confirmed-on-phone")
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.page.close()
    on_phone.refresh_from_db()
    assert on_phone.confirmed and not on_phone.filed_by_official

    # Table 1 of round 4 was filed at the wrong table: withdrawn on its page, filed again in its place
    withdrawn = EveningRound.objects.get(evening=evening, number=4).tables.get(number=1).season_match.match
    me.goto(f"/matches/{withdrawn.pk}/")
    page.click(".withdraw-match summary")
    page.fill("#id_withdraw_reason", "zły stolik")
    me.submit("#withdraw-match button[type=submit]")
    assert "Partia wycofana" in me.look("withdrawn")
    me.goto(f"/evenings/{evening.pk}/")
    assert "wycofana" in me.look("evening")
    me.submit("form.refile button")  # the new match's page
    refiled = EveningRound.objects.get(evening=evening, number=4).tables.get(number=1).season_match.match
    assert refiled.pk != withdrawn.pk and page.url.endswith(f"/matches/{refiled.pk}/")
    file_sheet(me, refiled, "r4-t1-again")
    me.goto(f"/evenings/{evening.pk}/")
    assert "wycofana" not in me.look("evening-refiled")

    me.click(f"a[href='/evenings/{evening.pk}/results/']")
    me.look("results")
    ranking = page.locator("#evening-ranking tbody tr").all_inner_texts()
    assert len(ranking) == 13
    shown = {row.split("\t")[1]: number(row.split("\t")[3]) for row in ranking}
    assert shown == counted_points(evening)  # by display name: Σ points over the tables that count

    # The season's standings: each player's balance is the sum of his points in the tables that count
    me.goto(f"/seasons/{season.pk}/")
    me.look("standings")
    balances = {
        row.get_attribute("data-player"): number(row.locator("[data-field=balance]").get_attribute("data-value"))
        for row in page.locator("tr[data-player]").all()
    }
    assert balances == counted_points(evening)
    assert StandingRow.objects.filter(season=season).count() == 13

    # Closing the season on a phone-sized window
    page.set_viewport_size(PHONE)
    me.click(f"a[href='/seasons/{season.pk}/close/']")
    me.look("season-closing")
    page.fill("#id_reason", "Koniec sezonu zimowego")
    me.submit("#season-close button[type=submit]")  # the box left unticked: refused, the reason kept
    assert page.input_value("#id_reason") == "Koniec sezonu zimowego"
    me.look("season-closing-refused")
    page.check("input[name=confirm]")
    me.submit("#season-close button[type=submit]")
    assert Season.objects.get(pk=season.pk).status == "closed"
    assert SeasonStatusChange.objects.get(season=season).reason == "Koniec sezonu zimowego"
    me.look("season-closed")

    assert not me.refused, me.refused
    deals = MatchEvent.objects.filter(actor__username="ada", type="deal_tallied").count()
    corrections = MatchEvent.objects.filter(actor__username="ada", type="deal_corrected").count()
    first, rest = me.server_ms[0], sorted(me.server_ms[1:], reverse=True)
    print(
        f"\norganiser: {me.loads} page loads, {me.submissions} form submissions for the {deals} deals and "
        f"{corrections} correction he filed (target ≤ {deals} + ~30)"
        f"\nserver time (response start − request start) over {len(me.server_ms)} pages and partials: "
        f"slowest {rest[0][0]:.0f} ms ({rest[0][1]}), then {rest[1][0]:.0f} ms ({rest[1][1]}), "
        f"{rest[2][0]:.0f} ms ({rest[2][1]}); the slowest page read: "
        f"{max(t for t in rest if t[1].startswith('GET'))[0]:.0f} ms; "
        f"the first page, on a cold server: {first[0]:.0f} ms ({first[1]})"
    )
