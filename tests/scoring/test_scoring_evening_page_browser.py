"""The evening page in a real browser at a phone's width (issue 24): each table's pairs who met
before and the evening's repeats against their lower bound are there to read, and the page
stays within the phone's width. ``WEB_SCREENSHOTS=<dir>`` keeps the screenshot."""

import os
from pathlib import Path

import pytest
from scoring_helpers import evening_club
from support.world import SHORT

from scoring import evening_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def evening(django_user_model):
    """Nine members over three rounds seated by hand, round 2 against round 1 so that pairs meet again."""
    world = evening_club(django_user_model, 9, SHORT)
    world.users["m05"].set_password(PASSWORD)
    world.users["m05"].save()
    ada = world.users["ada"]
    one = evening_services.evening_create(
        actor=ada, season_id=world.season.pk, date="2026-12-03", rounds=3, players=[f"m0{k}" for k in range(1, 10)]
    )
    for tables in (
        [["m01", "m02", "m03", "m04"], ["m05", "m06", "m07", "m08"]],
        [["m01", "m02", "m05", "m09"], ["m03", "m04", "m06", "m07"]],
    ):
        evening_services.evening_round_seat(actor=ada, evening_id=one.pk, tables=tables)
    return one


def test_a_phone_shows_each_tables_pairs_who_met_before(live_server, evening, browser):
    page = browser.new_page(viewport=PHONE)
    url = f"{live_server.url}/evenings/{evening.pk}/"
    page.goto(url)
    page.fill("#id_username", "m05")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url)

    second = page.locator("#round-2")
    assert "Repeats this evening: 3 (the fewest possible with no pair three times: 3)" in second.inner_text()
    pairs = second.locator("tr.met-before").all_inner_texts()
    assert (
        len(pairs) == 2 and "m01 – m02 · tonight: 1×" in pairs[0] and "m03 – m04 · tonight: 1×; m06 – m07" in pairs[1]
    )
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / "evening-phone.png"), full_page=True)
    box = second.bounding_box()  # (the site's header is wider than a phone: not this page's part)
    assert box["x"] + box["width"] <= PHONE["width"]
