"""The deal viewer's script speaks the page's language (its sentences come with the page), and
the switch turns a Polish page English: in Debian's chromium, driven headless by Playwright."""

import pytest
from i18n_helpers import PLAYERS, sample

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def deal_url(django_user_model):
    from games.write import services

    for name in PLAYERS:
        django_user_model.objects.create_user(name, password=PASSWORD)
    match = services.record_import(actor=django_user_model.objects.create_user("zenon"), record=sample("m1-legal"))
    return f"/matches/{match.pk}/deals/1/"


def test_the_deal_viewer_speaks_polish_and_the_switch_makes_it_english(live_server, browser, deal_url):
    page = browser.new_page(locale="pl-PL")  # Accept-Language: pl-PL
    page.goto(live_server.url + deal_url)
    page.fill("#id_username", "ala")
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(live_server.url + deal_url)
    page.wait_for_function("() => document.querySelector('#viewer').hasAttribute('data-step')")

    assert page.inner_text("#step-counter") == "Rozdane · 0 / 52"
    assert page.inner_text("#play-text").startswith("Karty tak, jak je rozdano. Wistuje ")
    page.keyboard.press("End")
    assert page.inner_text("#step-counter") == "Zagranie 52 / 52"
    assert page.inner_text("#trick-caption").startswith("Lewa 13: bierze ")
    assert page.inner_text("#play-text").startswith("Zagranie 52 (lewa 13): ")
    assert " mógł zagrać (" in page.inner_text("#play-legal")

    page.click("#language-switch button[value=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function("() => document.querySelector('#viewer').hasAttribute('data-step')")
    assert page.inner_text("#step-counter") == "Dealt · 0 / 52"
    page.keyboard.press("End")
    assert page.inner_text("#trick-caption").startswith("Trick 13: won by ")
