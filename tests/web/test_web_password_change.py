"""A signed-in person changes his password on a page ("Moje dane" links it): the old one first,
the new one twice; he stays signed in, the new password signs in and the old one no longer does;
a wrong old password is refused in Polish and changes nothing."""

import pytest
from support.polish_check import page_text

pytestmark = pytest.mark.django_db

OLD, NEW = "stare-haslo-do-kierek", "nowe-haslo-do-kierek-2026"


@pytest.fixture
def ewa(django_user_model):
    return django_user_model.objects.create_user("ewa", password=OLD)


def change(client, old: str, new: str):
    typed = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post("/accounts/password/", typed, HTTP_ACCEPT_LANGUAGE="pl")


def test_a_person_changes_his_password_and_stays_signed_in(client, ewa):
    client.force_login(ewa)
    assert 'id="password-change-link"' in client.get("/accounts/data/").content.decode()

    response = change(client, OLD, NEW)

    assert response.status_code == 302 and response["Location"] == "/accounts/password/done/"
    assert client.get("/accounts/data/").status_code == 200  # this session goes on
    ewa.refresh_from_db()
    assert ewa.check_password(NEW) and not ewa.check_password(OLD)


def test_a_wrong_old_password_is_refused_in_polish_and_changes_nothing(client, ewa):
    client.force_login(ewa)

    response = change(client, "nie-to-haslo", NEW)

    html = response.content.decode()
    assert response.status_code == 200 and 'role="alert"' in html and 'lang="pl"' in html
    assert "stare hasło jest niepoprawne" in html  # Django's own Polish message
    assert "old_password" not in page_text(html)  # a message, not the field's code name
    ewa.refresh_from_db()
    assert ewa.check_password(OLD)


def test_the_page_is_for_a_signed_in_person_only(client):
    response = client.get("/accounts/password/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_a_person_changes_his_password_from_his_data_page(browser, live_server, ewa):
    from support.polish_check import assert_polish
    from web_helpers import PHONE, keep, phone_signed_in

    page = phone_signed_in(browser, live_server.url, "ewa", OLD)
    page.goto(f"{live_server.url}/accounts/data/")
    page.click("#password-change-link")
    page.wait_for_url(f"{live_server.url}/accounts/password/")

    for old in ("nie-to-haslo", OLD):  # the wrong one first: refused, in Polish
        page.fill("#id_old_password", old)
        page.fill("#id_new_password1", NEW)
        page.fill("#id_new_password2", NEW)
        page.click("form.login button[type=submit]")
        if old != OLD:
            page.wait_for_selector(".errors")
            assert "stare hasło jest niepoprawne" in page.inner_text(".errors")
            assert_polish(page_text(page.content()), "the refused password change")  # no field's code
            keep(page, "password-change-refused-pl")
    page.wait_for_selector("#password-changed")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert_polish(page_text(page.content()), "the password changed page")
    keep(page, "password-changed-pl")
    ewa.refresh_from_db()
    assert ewa.check_password(NEW)
