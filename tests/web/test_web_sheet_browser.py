"""The table's score-sheet page in a real browser (issue 23): the scorer files a whole recorded
match by tally through the page — the first deal typed wrong, refused by the htmx check and by the
Enter (its row kept), corrected and filed — then two players confirm the sheet on a phone-sized
viewport. Playwright drives Debian's chromium headless against a live server.

Set ``WEB_SCREENSHOTS=<dir>`` to keep screenshots of what the browser showed."""

import pytest
from support.polish_check import assert_polish
from test_web_browser import screenshot
from web_helpers import recorded_match

from games.models import Match, MatchEvent

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
KEYS = ("tricks", "hearts", "queens", "kings_jacks", "last_tricks")
# R31: tallies valid under R32 in which every player took a trick (no compensating deal, R7)
ROZBOJNIK = {
    "N": (3, 4, 1, 2, 0),
    "E": (3, 3, 1, 2, 0),
    "S": (4, 5, 1, 2, 2),
    "W": (3, 1, 1, 2, 0),
}
KING_OF_HEARTS = "S"
ODGRYWKA = {"N": 4, "E": 3, "S": 3, "W": 3}


@pytest.fixture
def match(users):
    for name in ("scorer", "ala", "bartek"):
        users[name].set_password(PASSWORD)
        users[name].save()
    return recorded_match(users)


def sign_in(browser, url: str, username: str, viewport: dict):
    page = browser.new_page(viewport=viewport, locale="pl-PL")
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url)
    return page


def look(page, name: str) -> None:
    """A screenshot, and the Polish check of what the page shows (``scorer`` is a username)."""
    screenshot(page, name)
    assert_polish(page.inner_text("main"), name, accounts=("scorer",))


def type_tally(page, kind: str, wrong: bool = False) -> None:
    if kind == "odgrywka":
        for seat, tricks in ODGRYWKA.items():
            page.fill(f"#f-{seat}-tricks", str(tricks))
        return
    for seat, counts in ROZBOJNIK.items():
        for key, value in zip(KEYS, counts):
            page.fill(f"#f-{seat}-{key}", str(value - 1 if wrong and (seat, key) == ("W", "hearts") else value))
        if seat == KING_OF_HEARTS:
            page.check(f"#f-{seat}-king_of_hearts")


def test_a_match_is_filed_through_the_page_and_confirmed_on_phones(live_server, match, browser):
    url = f"{live_server.url}/matches/{match.pk}/sheet/"
    page = sign_in(browser, url, "scorer", {"width": 1360, "height": 1000})
    on_phone = sign_in(browser, url, "ala", {"width": 390, "height": 844})  # a player may file on his phone
    assert on_phone.locator("#due-form").count() == 1
    look(on_phone, "sheet-0-phone")

    # deal 1 typed wrong: hearts add up to 12 (R32 (c)); the check says so at the column's sum
    type_tally(page, "rozbojnik", wrong=True)
    page.wait_for_selector("#sum-hearts .field-error")
    assert "kiery: razem 12, a powinno być 13" in page.inner_text("#sum-hearts")
    look(page, "sheet-1-checked")
    page.press("#f-W-hearts", "Enter")  # filed anyway: refused, the row kept
    page.wait_for_load_state()
    assert page.input_value("#f-W-hearts") == "0" and page.input_value("#f-S-hearts") == "5"
    assert page.is_checked("#f-S-king_of_hearts")
    assert "kiery: razem 12" in page.inner_text("#sum-hearts")
    assert not MatchEvent.objects.filter(match=match, type="deal_tallied").exists()
    look(page, "sheet-2-refused")

    page.fill("#f-W-hearts", "1")  # corrected: one Enter files it
    page.press("#f-W-hearts", "Enter")
    page.wait_for_selector('tr.filed-row[data-deal="1"]')

    for _ in range(20):  # the rest, as the engine schedules them
        if not page.locator("#due-form").count():
            break
        kind = page.get_attribute('#due td[data-field="kind"]', "data-value")
        number = page.get_attribute("#due", "data-deal")
        type_tally(page, kind)
        page.press("#f-N-tricks", "Enter")
        page.wait_for_selector(f'tr.filed-row[data-deal="{number}"]')
    assert page.locator("#sheet-complete").count() == 1
    look(page, "sheet-3-complete")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    phone = {"width": 390, "height": 844}
    for name in ("ala", "bartek"):
        mobile = sign_in(browser, f"{live_server.url}/matches/{match.pk}/", name, phone)
        mobile.click("#confirm-sheet")
        mobile.wait_for_selector(".messages")
        look(mobile, f"sheet-5-confirmed-by-{name}")
    match.refresh_from_db()
    assert match.confirmed
    assert "Wynik potwierdzony: przez dwie osoby grające przy stole" in mobile.inner_text("#confirmation")
