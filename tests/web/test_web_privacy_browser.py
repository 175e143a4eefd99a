"""The "Moje dane" page on a phone (issue 28), in a real browser: Playwright drives Debian's
chromium headless against a live server, 360 px wide. A member who played season matches finds
the page from the menu, downloads his data, is refused a mistyped confirmation, then erases
himself: signed out, his account unusable, his results kept as "usunięty gracz nr 1".

Set ``WEB_SCREENSHOTS=<dir>`` to keep screenshots of what the browser showed."""

import json
import os
from pathlib import Path

import pytest
from support.privacy_world import club_with_zuzanna

from games.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 360, "height": 740}


def fits_the_width(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def screenshot(page, name: str) -> None:
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_on_a_phone_a_member_downloads_his_data_and_erases_himself(
    live_server, browser, django_user_model, django_capture_on_commit_callbacks
):
    world, filed = club_with_zuzanna(django_user_model, django_capture_on_commit_callbacks, matches=2)
    zuzanna = world.users["zuzanna"]
    zuzanna.set_password(PASSWORD)
    zuzanna.save()
    page = browser.new_page(viewport=PHONE, locale="pl-PL")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "zuzanna")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/matches/")

    page.click("a[href='/accounts/data/']")
    page.wait_for_url(f"{live_server.url}/accounts/data/")
    assert page.inner_text("h1") == "Moje dane" and "zuzanna@example.org" in page.inner_text(".privacy-facts")
    assert fits_the_width(page)
    screenshot(page, "privacy-my-data")

    link = page.get_attribute("#download", "href")
    download = page.request.get(f"{live_server.url}/accounts/data/{link}")  # the session's cookies
    assert download.status == 200, (download.status, download.url, download.text()[:300])
    assert "attachment" in download.headers["content-disposition"]
    data = json.loads(download.text())
    assert data["account"]["username"] == "zuzanna" and len(data["matches"]) == 2

    page.fill("#confirm", "Zuzanna")
    page.click("#erase")
    page.wait_for_selector(".errors")
    assert "nazwę użytkownika" in page.inner_text(".errors") and fits_the_width(page)
    assert Player.objects.get(user=zuzanna).username == "zuzanna"

    page.fill("#confirm", "zuzanna")
    page.click("#erase")
    page.wait_for_selector("[role=status]")
    assert "usunięty gracz nr 1" in page.inner_text("main") and fits_the_width(page)
    screenshot(page, "privacy-erased")
    zuzanna.refresh_from_db()
    assert not zuzanna.is_active and Player.objects.get(erased_number=1).user is None
