"""The OAuth pages on a phone (issue 26), in a real browser (Playwright, Debian's chromium,
360 px wide, Polish): the consent page says what the app asks for and "Zezwól" sends the code to
the app; a personal access token is made with its scopes and shown once; nothing overflows."""

from urllib.parse import parse_qs, urlsplit

import pytest
from oauth_helpers import REDIRECT, authorize_query, make_app, pkce_pair
from support.servers import phone_signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"


def fits_the_width(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def signed_in(live_server, browser, username):
    return phone_signed_in(browser, live_server.url, username, PASSWORD)


def test_on_a_phone_a_person_reads_the_consent_page_and_allows_the_app(live_server, browser, django_user_model):
    ewa = django_user_model.objects.create_user("ewa", password=PASSWORD)
    app, _ = make_app(ewa)
    page = signed_in(live_server, browser, "ewa")
    _, challenge = pkce_pair()
    sent_to_app = []
    page.route(f"{REDIRECT}*", lambda route: (sent_to_app.append(route.request.url), route.fulfill(body="ok")))

    page.goto(live_server.url + authorize_query(app, challenge, scope="matches:read matches:play"))

    scopes = page.inner_text("#scopes")
    assert "matches:play" in scopes and "Grać za ciebie" in scopes
    assert "ewa" in page.inner_text("main") and fits_the_width(page)
    page.click("button[name=allow]")
    page.wait_for_url(f"{REDIRECT}*")
    assert parse_qs(urlsplit(sent_to_app[0]).query)["code"]
    page.goto(f"{live_server.url}/o/apps/")  # ewa's own app, listed
    assert "Stolik" in page.inner_text("#apps") and fits_the_width(page)


def test_on_a_phone_a_user_makes_a_personal_token_with_scopes(live_server, browser, django_user_model):
    django_user_model.objects.create_user("ewa", password=PASSWORD)
    page = signed_in(live_server, browser, "ewa")
    page.goto(f"{live_server.url}/accounts/tokens/")
    assert fits_the_width(page)

    page.fill("#id_name", "skrypt wyników")
    page.check("input[name=scopes][value='matches:read']")
    page.click("button[name=create_personal]")
    page.wait_for_selector("#new-personal-token")

    assert page.input_value("#new-personal-token").startswith("kpat_")
    assert "skrypt wyników" in page.inner_text("#personal-tokens") and fits_the_width(page)
