"""The "Moje tokeny" page on a phone (issue 30, finding 5), in a real browser: Playwright drives
Debian's chromium headless against a live server, 360 px wide. Sign in, find the page from the
signed-in menu, make a token (its key shown once, within the screen's width), revoke it."""

import pytest
from rest_framework.authtoken.models import Token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"
PHONE = {"width": 360, "height": 740}


def fits_the_width(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_on_a_phone_a_user_makes_a_token_sees_it_once_and_revokes_it(live_server, browser, django_user_model):
    ewa = django_user_model.objects.create_user("ewa", password=PASSWORD)
    page = browser.new_page(viewport=PHONE, locale="pl-PL")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ewa")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/matches/")

    page.click("a[href='/accounts/tokens/']")
    page.wait_for_url(f"{live_server.url}/accounts/tokens/")
    assert fits_the_width(page)
    page.click("button[name=create]")
    page.wait_for_selector("#new-token")

    key = Token.objects.get(user=ewa).key
    assert page.input_value("#new-token") == key
    assert fits_the_width(page)
    page.goto(f"{live_server.url}/accounts/tokens/")
    assert key not in page.content() and key[:8] in page.inner_text("#tokens")

    page.click(f"button[name=revoke][value='{key[:8]}']")
    page.wait_for_selector(".messages")
    assert not Token.objects.filter(user=ewa).exists()
    assert fits_the_width(page)
