"""The page on which a club admin corrects a member's display name (docs/privacy.md, Art. 16),
linked from the member's data: saved, it goes back there; a name already taken is refused beside
the field with the typing kept; a member with an account has no such page; on a phone in Chromium.
And the season's standings link such a member's profile for the officials who may read it."""

import pytest
from support.polish_check import assert_polish, page_text
from support.privacy_world import GUEST, club_with_guest

from games.models import Player

pytestmark = pytest.mark.django_db

RIGHT = "Jan Kowalski"


@pytest.fixture
def club(django_user_model, django_capture_on_commit_callbacks):
    return club_with_guest(django_user_model, django_capture_on_commit_callbacks)


def rename_page(client, world, jan, name):
    url = f"/clubs/{world.club.pk}/members/{jan.pk}/name/"
    return client.post(url, {"name": name}, HTTP_ACCEPT_LANGUAGE="pl")


def test_the_page_saves_the_name_and_goes_back_to_the_members_data(client, club):
    world, jan = club
    client.force_login(world.users["ada"])
    data = client.get(f"/clubs/{world.club.pk}/members/{jan.pk}/data/", HTTP_ACCEPT_LANGUAGE="pl")
    assert 'id="name-change-link"' in data.content.decode()

    response = rename_page(client, world, jan, RIGHT)

    assert response.status_code == 302 and response["Location"] == f"/clubs/{world.club.pk}/members/{jan.pk}/data/"
    html = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert RIGHT in page_text(html)
    assert_polish(page_text(html), "the member's data after the rename")


def test_the_page_refuses_a_taken_name_beside_the_field_and_keeps_the_typing(client, club):
    world, jan = club
    client.force_login(world.users["ada"])

    response = rename_page(client, world, jan, "p2")

    html = response.content.decode()
    assert response.status_code == 400 and 'id="error-name"' in html and 'value="p2"' in html
    assert_polish(page_text(html), "the refused name")
    jan.refresh_from_db()
    assert jan.username == GUEST


def test_a_member_with_an_account_has_no_rename_link_and_the_page_refuses(client, club):
    world, _ = club
    p2 = Player.objects.get(username="p2")
    client.force_login(world.users["ada"])
    data = client.get(f"/clubs/{world.club.pk}/members/{p2.pk}/data/", HTTP_ACCEPT_LANGUAGE="pl")
    assert 'id="name-change-link"' not in data.content.decode()

    response = rename_page(client, world, p2, "Piotr")

    assert response.status_code == 403 and Player.objects.filter(username="p2").exists()


def test_another_member_finds_no_rename_page(client, club):
    world, jan = club
    client.force_login(world.users["p2"])

    assert client.get(f"/clubs/{world.club.pk}/members/{jan.pk}/name/").status_code == 404
    assert rename_page(client, world, jan, "Ktoś").status_code == 404
    jan.refresh_from_db()
    assert jan.username == GUEST


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_admin_corrects_a_members_name_from_the_member_list(
    browser, live_server, django_user_model, django_capture_on_commit_callbacks
):
    from web_helpers import keep, phone_tab

    world, jan = club_with_guest(django_user_model, django_capture_on_commit_callbacks, matches=1)
    page, refused = phone_tab(browser, live_server.url, world.users["ada"], "pl")
    page.goto(f"{live_server.url}/clubs/{world.club.pk}/members/")
    page.click(f"a[href='/clubs/{world.club.pk}/members/{jan.pk}/data/']")
    page.click("#name-change-link")
    page.wait_for_url(f"{live_server.url}/clubs/{world.club.pk}/members/{jan.pk}/name/")
    assert page.input_value("#id_name") == GUEST

    page.fill("#id_name", "p2")
    page.click("form.login button[type=submit]")
    page.wait_for_selector("#error-name")
    assert page.input_value("#id_name") == "p2"
    assert_polish(page_text(page.content()), "the refused name")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    keep(page, "member-name-refused-pl")

    page.fill("#id_name", RIGHT)
    page.click("form.login button[type=submit]")
    page.wait_for_url(f"{live_server.url}/clubs/{world.club.pk}/members/{jan.pk}/data/")
    assert RIGHT in page.inner_text("h1") and "Nazwa została poprawiona." in page.inner_text(".messages")
    keep(page, "member-name-saved-pl")
    page.goto(f"{live_server.url}/clubs/{world.club.pk}/members/")
    assert RIGHT in page.inner_text("main") and GUEST not in page.inner_text("main")
    assert refused == []


def test_the_standings_link_a_member_without_an_account_for_the_officials_who_may_read_his_profile(client, club):
    world, jan = club
    link = f'<a href="/players/{jan.pk}/">{GUEST}</a>'

    for who, linked in (("ada", True), ("sam", True), ("p2", False)):
        client.force_login(world.users[who])
        html = client.get(f"/seasons/{world.season.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
        assert (link in html) is linked and GUEST in html, who
        assert client.get(f"/players/{jan.pk}/").status_code == (200 if linked else 404), who


def test_a_member_who_claimed_his_profile_under_another_username_has_the_rename_link(client, club):
    from scoring.invitations import invitation_claim, invitation_create

    world, jan = club
    _, token = invitation_create(actor=world.users["ada"], club_id=world.club.pk, player_id=jan.pk)
    invitation_claim(token=token, username="jkowal", password="a-long-pass-phrase-2026")
    client.force_login(world.users["ada"])

    data = client.get(f"/clubs/{world.club.pk}/members/{jan.pk}/data/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert 'id="name-change-link"' in data and "jkowal" in data
    assert rename_page(client, world, jan, RIGHT).status_code == 302
