"""A signed-in person corrects his e-mail address (GDPR/RODO Art. 16) on a page "Moje dane"
links: confirmed by his password; a wrong password or a malformed address is refused beside its
field with the address as typed kept, and nothing changes."""

import pytest
from support.polish_check import page_text

pytestmark = pytest.mark.django_db

PASSWORD = "haslo-ewy-do-kierek"


@pytest.fixture
def ewa(django_user_model):
    return django_user_model.objects.create_user("ewa", email="ewa@stary.example", password=PASSWORD)


def correct(client, email: str, password: str = PASSWORD):
    return client.post("/accounts/email/", {"email": email, "password": password}, HTTP_ACCEPT_LANGUAGE="pl")


def test_a_person_corrects_his_address_with_his_password(client, ewa):
    client.force_login(ewa)
    assert 'id="email-change-link"' in client.get("/accounts/data/").content.decode()
    assert 'value="ewa@stary.example"' in client.get("/accounts/email/").content.decode()

    response = correct(client, "  ewa@nowy.example ")

    assert response.status_code == 302 and response["Location"] == "/accounts/data/"
    ewa.refresh_from_db()
    assert ewa.email == "ewa@nowy.example"
    assert "ewa@nowy.example" in client.get("/accounts/data/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()


@pytest.mark.parametrize(
    ("email", "password", "field"),
    [("ewa@nowy.example", "nie-to-haslo", "password"), ("ewa@@nowy", PASSWORD, "email")],
)
def test_a_wrong_password_or_a_malformed_address_changes_nothing_and_keeps_the_typing(
    client, ewa, email, password, field
):
    client.force_login(ewa)

    response = correct(client, email, password)

    html = response.content.decode()
    assert response.status_code == 400 and f'id="error-{field}"' in html and f'value="{email}"' in html
    assert 'lang="pl"' in html and "password" not in page_text(html)
    ewa.refresh_from_db()
    assert ewa.email == "ewa@stary.example"


def test_an_empty_address_keeps_none(client, ewa):
    client.force_login(ewa)
    assert correct(client, "").status_code == 302
    ewa.refresh_from_db()
    assert ewa.email == ""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_a_person_corrects_his_address_from_his_data_page(browser, live_server, ewa):
    from support.polish_check import assert_polish
    from web_helpers import PHONE, keep, phone_tab

    page, refused = phone_tab(browser, live_server.url, ewa, "pl")
    page.goto(f"{live_server.url}/accounts/data/")
    page.click("#email-change-link")
    page.wait_for_url(f"{live_server.url}/accounts/email/")
    page.fill("#id_email", "ewa@nowy.example")
    page.fill("#id_password", "nie-to-haslo")
    page.click("form.login button[type=submit]")
    page.wait_for_selector("#error-password")
    assert page.input_value("#id_email") == "ewa@nowy.example"
    assert_polish(page_text(page.content()), "the refused address")
    keep(page, "email-refused-pl")

    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(f"{live_server.url}/accounts/data/")
    assert "ewa@nowy.example" in page.inner_text(".privacy-facts")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"] and refused == []
    assert_polish(page_text(page.content()), "my data after the correction")
    keep(page, "email-saved-pl")
