"""Personal access tokens (issue 26): made on the "Moje tokeny" page with a name, chosen scopes and
an expiry, shown once, stored as a checksum, listed with their last use beside the old tokens,
revocable, refused outside their scopes, revoked by a new password; the old token endpoint still
works and says it is deprecated."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken
from oauth_helpers import bearer
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import PersonalToken

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ewa(django_user_model):
    return django_user_model.objects.create_user("ewa", email="ewa@example.org", password=PASSWORD)


@pytest.fixture
def browser(ewa):
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    client.force_login(ewa)
    return client


def make_token(browser, *, scopes=("matches:read",), days=30, name="wyniki klubu") -> str:
    page = browser.post(
        "/accounts/tokens/", {"create_personal": "1", "name": name, "scopes": list(scopes), "days": str(days)}
    )
    assert page.status_code == 200, page.content
    return re.search(r'value="([^"]+)" id="new-personal-token"', page.content.decode()).group(1)


def test_a_token_made_on_the_page_is_shown_once_and_stored_as_a_checksum(browser):
    value = make_token(browser)

    assert value.startswith("kpat_")
    assert AccessToken.objects.get().token == ""  # only its checksum is kept
    listing = browser.get("/accounts/tokens/").content.decode()
    assert value not in listing
    assert "wyniki klubu" in listing and value[:12] in listing and "matches:read" in listing


def test_a_token_acts_within_its_scopes_only(browser):
    client = bearer(make_token(browser, scopes=["matches:read"]))

    assert client.get("/api/v1/matches/").status_code == 200
    refused = client.post("/api/v1/clubs/", {"name": "Klub"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "insufficient_scope"


def test_a_token_expires_after_the_days_chosen(browser):
    value = make_token(browser, days=7)
    expires = AccessToken.objects.get().expires

    assert timedelta(days=6, hours=23) < expires - timezone.now() <= timedelta(days=7)
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert bearer(value).get("/api/v1/matches/").status_code == 401


def test_its_last_use_is_listed(browser):
    value = make_token(browser)
    assert PersonalToken.objects.get().last_used is None

    bearer(value).get("/api/v1/matches/")

    used = PersonalToken.objects.get().last_used
    assert used is not None
    row = browser.get("/accounts/tokens/").content.decode().split('id="personal-tokens"')[1].split("</tr>")[1]
    local = timezone.localtime(used)
    assert f"{local.day} " in row and local.strftime("%Y %H:%M") in row  # "3 grudnia 2026 19:11", Warsaw time


def test_a_token_without_a_scope_or_a_name_is_not_made(browser):
    answer = browser.post("/accounts/tokens/", {"create_personal": "1", "name": "", "days": "30"})

    assert answer.status_code == 400 and not AccessToken.objects.exists()


def test_the_owner_revokes_a_token_on_the_page_and_it_stops_at_once(browser):
    value = make_token(browser)

    answer = browser.post("/accounts/tokens/", {"revoke_personal": str(PersonalToken.objects.get().pk)})

    assert answer.status_code == 302
    assert bearer(value).get("/api/v1/matches/").status_code == 401
    assert not PersonalToken.objects.exists()


def test_another_users_token_cannot_be_revoked(browser, django_user_model):
    olek = django_user_model.objects.create_user("olek", password=PASSWORD)
    other = Client()
    other.force_login(olek)
    value = make_token(browser)

    other.post("/accounts/tokens/", {"revoke_personal": str(PersonalToken.objects.get().pk)})

    assert bearer(value).get("/api/v1/matches/").status_code == 200


def test_old_tokens_are_listed_on_the_same_page(browser, ewa):
    old = Token.objects.create(user=ewa)
    make_token(browser)

    page = browser.get("/accounts/tokens/").content.decode()

    assert old.key[:8] in page and "wyniki klubu" in page


def test_a_password_change_revokes_personal_tokens(browser, ewa):
    value = make_token(browser)

    ewa.set_password("brand-new-phrase-9")
    ewa.save()

    assert bearer(value).get("/api/v1/matches/").status_code == 401
    assert not PersonalToken.objects.exists()


def test_the_old_token_endpoint_still_works_and_says_it_is_deprecated(ewa):
    answer = APIClient().post("/api/v1/auth/token/", {"username": "ewa", "password": PASSWORD}, format="json")

    assert answer.status_code == 200 and answer["Deprecation"].startswith("@")
    old = APIClient()
    old.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert old.get("/api/v1/auth/tokens/").status_code == 200  # full scope still: no Bearer token may do this
