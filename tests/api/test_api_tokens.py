"""Tokens a user controls (issue 30, finding 5): listed and revoked by their owner through the API
and the "Moje tokeny" page, every one revoked when the password changes (the reset by e-mail, the
change form, the admin, ``set_password``), and password-reset mails limited per client address and
per e-mail address without telling whether an account has it."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase"
NEW_PASSWORD = "another-long-phrase-2"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ewa(django_user_model):
    return django_user_model.objects.create_user("ewa", email="ewa@example.org", password=PASSWORD, is_staff=True)


@pytest.fixture
def ewa_token(ewa):
    return Token.objects.create(user=ewa)


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def works(key: str) -> bool:
    return with_token(key).get("/api/v1/ping/").status_code == 200


# --- the API: list and revoke ---------------------------------------------------------------------


def test_the_owner_lists_her_tokens_by_prefix_and_date_never_the_key(ewa_token):
    answer = with_token(ewa_token.key).get("/api/v1/auth/tokens/")

    assert answer.status_code == 200
    [listed] = answer.json()
    assert listed["id"] == listed["prefix"] == ewa_token.key[:8]
    assert listed["created"].startswith(ewa_token.created.strftime("%Y-%m-%d"))
    assert ewa_token.key not in answer.content.decode()


def test_a_revoked_token_stops_working_at_once(ewa_token):
    client = with_token(ewa_token.key)

    answer = client.delete(f"/api/v1/auth/tokens/{ewa_token.key[:8]}/")

    assert answer.status_code == 204
    assert not works(ewa_token.key)
    assert client.get("/api/v1/auth/tokens/").status_code == 401


def test_another_users_token_is_not_found_and_keeps_working(ewa_token, django_user_model):
    olek = django_user_model.objects.create_user("olek", password=PASSWORD)
    olek_client = with_token(Token.objects.create(user=olek).key)

    answer = olek_client.delete(f"/api/v1/auth/tokens/{ewa_token.key[:8]}/")

    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert works(ewa_token.key)
    assert [t["id"] for t in olek_client.get("/api/v1/auth/tokens/").json()] != [ewa_token.key[:8]]


def test_the_token_list_needs_a_signed_in_user():
    assert APIClient().get("/api/v1/auth/tokens/").status_code == 401


def test_a_signed_in_session_lists_and_revokes_too(client, ewa, ewa_token):
    """The page's own session works with the API (its CSRF check included)."""
    api = APIClient(enforce_csrf_checks=False)
    api.force_login(ewa)

    assert [t["id"] for t in api.get("/api/v1/auth/tokens/").json()] == [ewa_token.key[:8]]
    assert api.delete(f"/api/v1/auth/tokens/{ewa_token.key[:8]}/").status_code == 204
    assert api.get("/api/v1/auth/tokens/").json() == []


# --- a new password revokes every token -------------------------------------------------------------


def test_set_password_then_save_revokes_the_users_tokens(ewa, ewa_token):
    ewa.set_password(NEW_PASSWORD)
    ewa.save()

    assert not works(ewa_token.key)


def test_a_password_reset_by_e_mail_revokes_the_users_tokens(client, ewa, ewa_token):
    """Issue 30: an API token survived a password reset."""
    client.post("/accounts/password_reset/", {"email": "ewa@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert done.status_code == 302
    assert not works(ewa_token.key)


def test_a_password_changed_in_the_admin_revokes_the_users_tokens(client, django_user_model, ewa, ewa_token):
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    client.force_login(boss)

    done = client.post(
        f"/admin/auth/user/{ewa.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )

    assert done.status_code == 302, done.content.decode()[:500]
    assert not works(ewa_token.key)


def test_other_changes_and_a_sign_in_keep_the_tokens(client, ewa, ewa_token):
    ewa.email = "ewa.nowak@example.org"
    ewa.save()
    assert client.post("/accounts/login/", {"username": "ewa", "password": PASSWORD}).status_code == 302

    assert works(ewa_token.key)


def test_a_stored_hash_upgraded_at_sign_in_keeps_the_tokens(client, ewa, ewa_token):
    """Django re-hashes a password whose hasher is no longer the preferred one when it checks it
    (here PBKDF2, the tests preferring MD5; in production after a Django upgrade): the same
    password, so no token is revoked."""
    from django.contrib.auth.hashers import make_password

    type(ewa).objects.filter(pk=ewa.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))

    assert client.post("/accounts/login/", {"username": "ewa", "password": PASSWORD}).status_code == 302
    assert type(ewa).objects.get(pk=ewa.pk).password.startswith("md5$")  # upgraded
    assert works(ewa_token.key)


# --- the page: "Moje tokeny" -------------------------------------------------------------------------


def test_the_tokens_page_lists_and_revokes_on_a_phone_sized_page(client, ewa, ewa_token):
    client.force_login(ewa)

    page = client.get("/accounts/tokens/", HTTP_ACCEPT_LANGUAGE="pl")
    revoked = client.post("/accounts/tokens/", {"revoke": ewa_token.key[:8]})

    text = page.content.decode()
    assert page.status_code == 200 and ewa_token.key[:8] in text and ewa_token.key not in text
    assert 'name="viewport"' in text  # a phone's width
    assert revoked.status_code == 302 and not works(ewa_token.key)
    assert "/accounts/tokens/" in client.get("/matches/").content.decode()  # linked from the signed-in page


def test_the_tokens_page_makes_a_token_and_shows_its_key_once(client, ewa):
    client.force_login(ewa)

    made = client.post("/accounts/tokens/", {"create": "1"})

    key = Token.objects.get(user=ewa).key
    assert made.status_code == 200 and key in made.content.decode()
    assert key not in client.get("/accounts/tokens/").content.decode()
    assert works(key)


def test_the_tokens_page_needs_a_signed_in_user(client):
    assert client.get("/accounts/tokens/")["Location"].startswith("/accounts/login/")


def test_one_cannot_revoke_another_users_token_from_the_page(client, django_user_model, ewa_token):
    client.force_login(django_user_model.objects.create_user("olek", password=PASSWORD))

    answer = client.post("/accounts/tokens/", {"revoke": ewa_token.key[:8]})

    assert answer.status_code == 200 and 'role="alert"' in answer.content.decode()
    assert works(ewa_token.key)


# --- password-reset mails, limited ------------------------------------------------------------------


def reset(email: str, address: str = "203.0.113.5"):
    return Client().post("/accounts/password_reset/", {"email": email}, REMOTE_ADDR=address)


def test_reset_mails_are_limited_per_e_mail_address_with_the_same_answer(settings, ewa):
    """Issue 30: 20 requests sent 20 mails in a second."""
    settings.PASSWORD_RESET_ACCOUNT_LIMIT = "3/hour"

    answers = [reset("ewa@example.org", address=f"198.51.100.{i}") for i in range(20)]

    assert len(mail.outbox) == 3
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, "/accounts/password_reset/done/")}


def test_reset_requests_are_limited_per_client_address(settings, ewa):
    settings.PASSWORD_RESET_ADDRESS_LIMIT = "5/hour"

    answers = [reset(f"someone-{i}@example.org").status_code for i in range(6)]
    refused = reset("ewa@example.org")

    assert answers == [302] * 5 + [429] and refused.status_code == 429
    assert int(refused["Retry-After"]) > 0 and len(mail.outbox) == 0
    assert reset("ewa@example.org", address="192.0.2.44").status_code == 302 and len(mail.outbox) == 1


def test_the_answers_do_not_tell_whether_an_account_has_the_address(settings, ewa):
    settings.PASSWORD_RESET_ACCOUNT_LIMIT = "2/hour"

    known = [reset("ewa@example.org", address=f"198.51.100.{i}") for i in range(4)]
    unknown = [reset("nobody@example.org", address=f"198.51.100.{i + 10}") for i in range(4)]

    def seen(answer):
        return answer.status_code, answer.get("Location"), answer.content

    assert [seen(a) for a in known] == [seen(a) for a in unknown]
