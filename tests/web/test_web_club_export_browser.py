"""The club's archive from the club page on a phone, in a real browser (Playwright, Debian's
chromium, 360 px): the admin finds "Pobierz dane klubu (ZIP)" and gets the ZIP."""

import json
import zipfile

import pytest
from support.world import build_world, simulated
from web_helpers import phone_signed_in

from scoring import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"


def test_on_a_phone_the_admin_downloads_the_clubs_archive(live_server, browser, django_user_model, tmp_path):
    world = build_world(django_user_model)
    world.users["ada"].set_password(PASSWORD)
    world.users["ada"].save()
    services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=simulated(1))
    page = phone_signed_in(browser, live_server.url, "ada", PASSWORD, accept_downloads=True)

    page.goto(f"{live_server.url}/clubs/{world.club.pk}/")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(tmp_path / "club-export.png"), full_page=True)
    with page.expect_download() as waited:
        page.click("text=Pobierz dane klubu (ZIP)")
    download = waited.value

    assert download.suggested_filename == "kk-kierki.zip"
    download.save_as(tmp_path / "kk-kierki.zip")
    archive = zipfile.ZipFile(tmp_path / "kk-kierki.zip")
    assert json.loads(archive.read("manifest.json"))["matches"] == 1
