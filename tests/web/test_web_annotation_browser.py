"""The annotated deal in a real browser on a 360 px phone (Playwright, Debian's chromium): each
played card's cell takes its grade's colour and shows its symbol, the best card stands beside a
costly one, and the ranges table keeps inside its section (it scrolls in its own box). (The
table of hands above is wider than a phone already: not this page's part.) In Polish, the same
page and the analysis of the position shown fit the phone, their negative points with a real
minus sign.

Set ``WEB_SCREENSHOTS=<dir>`` to keep the screenshot."""

import pytest
from support.polish_check import assert_polish, page_text
from web_helpers import keep, phone_tab, sample

from games.write import services
from printing.formats import number
from scoring.annotations import match_annotate
from scoring.models import DealAnnotation
from web.templatetags.web_tags import cost

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
RIGHT = "s => document.querySelector(s).getBoundingClientRect().right"
INNER_RIGHT = (  # where an element's content ends: inside its padding
    "s => { const e = document.querySelector(s);"
    " return e.getBoundingClientRect().right - parseFloat(getComputedStyle(e).paddingRight); }"
)
COLOURS = {  # web/static/web/viewer.css: --grade-bg of each grade
    "best": "rgb(227, 243, 229)",
    "inaccuracy": "rgb(255, 241, 191)",
    "mistake": "rgb(255, 217, 173)",
    "blunder": "rgb(247, 197, 197)",
    "unknown": "rgb(236, 239, 241)",
}


def test_each_card_is_coloured_by_its_grade_on_a_phone(live_server, browser, django_user_model, settings):
    make = django_user_model.objects.create_user
    make("ala", password=PASSWORD)
    for name in ("bartek", "celina", "darek"):
        make(name)
    match = services.record_import(actor=make("scorer"), record=sample("m1-legal"))
    settings.ANNOTATION_BUDGET_NODES = 20_000  # most positions graded, some not: every grade can show
    match_annotate(match_id=match.pk)
    notes = {n["play"]: n for n in DealAnnotation.objects.get(match=match, number=1).cards}

    url = f"{live_server.url}/matches/{match.pk}/deals/1/"
    page = browser.new_page(viewport={"width": 360, "height": 800})
    page.goto(url)
    page.fill("#id_username", "ala")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url)

    cells = page.locator(".trick-list td.graded")
    assert cells.count() == 52
    for index in range(52):
        cell = cells.nth(index)
        play = int(cell.locator("button.jump").get_attribute("data-step")) - 1
        grade = notes[play]["grade"] or "unknown"
        assert grade in cell.get_attribute("class")
        assert cell.evaluate("e => getComputedStyle(e).backgroundColor") == COLOURS[grade]
        assert cell.locator(".grade-mark [aria-hidden]").inner_text() in {"✓", "?!", "?", "??", "~"}
        assert (cell.locator(".best-card").count() == 1) == (notes[play]["cost"][0] > 0)
    assert page.evaluate(RIGHT, "#ranges") <= page.evaluate(RIGHT, "#annotation")  # scrolls in its own box
    assert page.evaluate(RIGHT, ".trick-list table") <= page.evaluate(RIGHT, ".trick-list")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the page fits the phone
    page.locator("#annotation").scroll_into_view_if_needed()
    keep(page, "annotation-360")


def test_the_annotated_deal_reads_in_polish_on_a_phone(live_server, browser, django_user_model, settings):
    """The grades' legend, the costliest cards and each seat's range after each trick in Polish;
    negative points with a real minus sign, as every other number of the site: in the ranges and
    in the analysis of the position shown."""
    make = django_user_model.objects.create_user
    ala = make("ala")
    for name in ("bartek", "celina", "darek"):
        make(name)
    match = services.record_import(actor=make("scorer"), record=sample("m1-legal"))
    settings.ANNOTATION_BUDGET_NODES = 20_000
    match_annotate(match_id=match.pk)

    page, refused = phone_tab(browser, live_server.url, ala, "pl")
    page.goto(f"{live_server.url}/matches/{match.pk}/deals/1/")

    heading = page.locator("#annotation-heading")
    assert heading.inner_text() == "Rozdanie z oceną kart"
    assert_polish(page_text(page.content()), "the annotated deal")
    ranges = page.locator("#ranges tbody").inner_text()
    assert "−" in ranges and "-" not in ranges  # U+2212, never a hyphen
    page.wait_for_selector("#analysis-table:not([hidden])", timeout=30_000)  # the rozbójnik's first lead
    values = page.locator("#analysis-table tbody").inner_text()
    assert "−" in values and "-" not in values
    assert_shows_the_proven_ranges(page, live_server.url)
    assert page.evaluate(RIGHT, "#analysis-table") <= page.evaluate(INNER_RIGHT, "#analysis")  # the Polish headings fit
    keep(page, "analysis-360-pl", "#analysis")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert refused == []
    page.locator("#annotation").scroll_into_view_if_needed()
    keep(page, "annotation-360-pl")


def range_text(low: int, high: int) -> str:
    """A proven range as the server's ranges after each trick write it (_annotation.html)."""
    return number(low) if low == high else f"{number(low)}…{number(high)}"


def assert_shows_the_proven_ranges(page, base: str):
    """Past its budget the panel shows what is proven, not one end of it: each value as the
    API's ``bounds`` range, and each card's value and cost as ranges (points lost, both ends,
    as the server's ``cost`` filter writes them)."""
    links = page.evaluate("() => JSON.parse(document.getElementById('deal-data').textContent).analysis")
    answer = page.request.get(f"{base}{links['url']}?at={links['seqs'][0]}").json()["analysis"]
    assert not answer["exact"] and "Niedokładnie" in page.inner_text("#analysis-status")
    bounds = answer["bounds"]
    for seat, modes in bounds["seats"].items():
        for mode, (low, high) in modes.items():
            assert page.inner_text(f"#analysis-table tr[data-seat='{seat}'] .{mode}") == range_text(low, high)
    assert any(low < high for modes in bounds["seats"].values() for low, high in modes.values())
    top_low = max(low for low, _ in bounds["cards"].values())
    top_high = max(high for _, high in bounds["cards"].values())
    for card, (low, high) in bounds["cards"].items():
        shown = " ".join(page.locator(f"#analysis-cards .card-value[data-card='{card}']").text_content().split())
        lost = (max(0, top_low - high), max(0, top_high - low))
        lost_text = f" ({cost(lost)})" if lost[1] else ""
        assert shown.endswith(range_text(low, high) + lost_text), (card, shown)


def test_where_no_job_annotates_deals_the_phone_says_who_does_in_polish(
    live_server, browser, django_user_model, settings
):
    """With no task queue (the embedded default, ``ANNOTATE_DEALS`` off) a finished deal is not
    annotated until the administrator runs the command: the deal page and the score sheet say so
    in Polish instead of asking to reload, and the command's name wraps inside a phone's width."""
    settings.ANNOTATE_DEALS = False
    make = django_user_model.objects.create_user
    ala = make("ala")
    for name in ("bartek", "celina", "darek"):
        make(name)
    match = services.record_import(actor=make("scorer"), record=sample("m1-legal"))

    page, refused = phone_tab(browser, live_server.url, ala, "pl")
    page.goto(f"{live_server.url}/matches/{match.pk}/deals/1/")
    status = page.locator("#annotation-status")
    assert "ocenia je administrator poleceniem manage.py annotate_deals" in " ".join(status.inner_text().split())
    assert status.locator("code").inner_text() == "manage.py annotate_deals"
    assert page.locator(".trick-list td.graded").count() == 0  # no grade is made up meanwhile
    assert page.evaluate(RIGHT, "#annotation-status") <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    status.scroll_into_view_if_needed()
    keep(page, "annotation-by-command-360-pl", "#annotation")

    page.goto(f"{live_server.url}/matches/{match.pk}/")
    progress = " ".join(page.locator("#annotation-progress").inner_text().split())
    assert progress.startswith("Ocenione rozegrane rozdania: 0 z ") and "manage.py annotate_deals" in progress
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    keep(page, "sheet-by-command-360-pl", "#annotation-progress")
    assert refused == []
