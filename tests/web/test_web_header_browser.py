"""The signed-in header on a 360 px phone, in Chromium: the brand and the sign-out share a line,
the menu's links wrap below them, every one of them on the first screen and none wider than the
phone; the header leaves the page most of the first screen (beside the brand the menu wrapped
into four lines, 210 px of a 740 px screen)."""

import pytest
from web_helpers import PHONE, keep, phone_tab

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MENU = ("/matches/", "/clubs/", "/invitations/", "/records/view/", "/accounts/tokens/", "/accounts/data/")


@pytest.mark.parametrize("language", ["pl", "en"])
def test_on_a_phone_the_header_is_two_lines_of_links_under_the_brand(browser, live_server, django_user_model, language):
    user = django_user_model.objects.create_user("Małgorzata Wiśniewska")
    page, _ = phone_tab(browser, live_server.url, user, language)
    page.goto(f"{live_server.url}/accounts/data/")

    header = page.locator("header.site").bounding_box()
    brand = page.locator("header.site .brand").bounding_box()
    sign_out = page.locator("header.site .logout button").bounding_box()
    links = [page.locator(f"header.site nav a[href='{href}']").bounding_box() for href in MENU]

    keep(page, f"header-{language}")
    assert header["height"] <= 0.2 * PHONE["height"], header
    assert abs(brand["y"] - sign_out["y"]) < brand["height"]  # one line
    assert all(link["y"] >= brand["y"] + brand["height"] for link in links)  # the menu below it
    assert all(link["x"] + link["width"] <= PHONE["width"] and link["height"] >= 24 for link in links)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
