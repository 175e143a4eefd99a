"""The annotated deal in a real browser on a 360 px phone (Playwright, Debian's chromium): each
played card's cell takes its grade's colour and shows its symbol, the best card stands beside a
costly one, and the ranges table keeps inside its section (it scrolls in its own box). (The
table of hands above is wider than a phone already: not this page's part.)

Set ``WEB_SCREENSHOTS=<dir>`` to keep the screenshot."""

import os
from pathlib import Path

import pytest
from web_helpers import sample

from games.write import services
from scoring.annotations import match_annotate
from scoring.models import DealAnnotation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
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
    right = "s => document.querySelector(s).getBoundingClientRect().right"
    assert page.evaluate(right, "#ranges") <= page.evaluate(right, "#annotation")  # scrolls in its own box
    assert page.evaluate(right, ".trick-list table") <= page.evaluate(right, ".trick-list")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the page fits the phone
    page.locator("#annotation").scroll_into_view_if_needed()
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / "annotation-360.png"), full_page=True)
