"""OAuth 2.0 for third-party apps (issue 26): the authorization code with PKCE (S256 only) for
public and confidential apps, refresh tokens rotated with reuse detection, revocation (RFC 7009),
introspection (RFC 7662), the server metadata (RFC 8414), the consent page, and every token of a
user revoked with his password."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from oauth_helpers import (
    HIDDEN,
    REDIRECT,
    authorize_query,
    bearer,
    code_flow,
    consent,
    make_app,
    pkce_pair,
    token_request,
)

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
def app(ewa):
    return make_app(ewa)[0]


def works(access_token: str) -> bool:
    return bearer(access_token).get("/api/v1/matches/").status_code == 200


# --- the code flow with PKCE ------------------------------------------------------------------------


def test_a_public_app_gets_tokens_through_the_consent_page_and_pkce(ewa, app):
    tokens = code_flow(ewa, app, scope="matches:read matches:play")

    assert tokens["token_type"] == "Bearer"
    assert set(tokens["scope"].split()) == {"matches:read", "matches:play"}
    assert tokens["refresh_token"]
    assert works(tokens["access_token"])


def test_a_confidential_app_needs_its_secret_too(ewa):
    app, secret = make_app(ewa, confidential=True)
    verifier, challenge = pkce_pair()
    code = consent(ewa, app, challenge, scope="matches:read")

    without = token_request(
        app, None, grant_type="authorization_code", code=code, redirect_uri=REDIRECT, code_verifier=verifier
    )
    assert without.status_code == 401 and without.json()["error"] == "invalid_client"
    assert works(code_flow(ewa, app, scope="matches:read", secret=secret)["access_token"])


def test_tokens_are_stored_as_checksums_only(ewa, app):
    tokens = code_flow(ewa, app)

    stored = AccessToken.objects.get(user=ewa)
    assert stored.token == "" and tokens["access_token"] not in str(stored.__dict__)


def test_a_wrong_code_verifier_gets_no_token(ewa, app):
    _, challenge = pkce_pair()
    other_verifier, _ = pkce_pair()
    code = consent(ewa, app, challenge, scope="matches:read")

    answer = token_request(
        app, grant_type="authorization_code", code=code, redirect_uri=REDIRECT, code_verifier=other_verifier
    )

    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


@pytest.mark.parametrize("method", ["plain", None])
def test_no_code_is_issued_without_pkce_or_with_plain_pkce(ewa, app, method):
    browser = Client()
    browser.force_login(ewa)
    verifier, _ = pkce_pair()
    query = authorize_query(app, verifier, scope="matches:read", method=method or "S256")
    if method is None:
        query = re.sub(r"&code_challenge=[^&]*&code_challenge_method=S256", "", query)

    page = browser.get(query)
    fields = dict(HIDDEN.findall(page.content.decode()))
    answer = browser.post("/o/authorize/", {**fields, "allow": "Authorize"}) if fields else page

    assert "code=" not in answer.get("Location", "")
    assert "invalid_request" in answer.get("Location", "") + answer.content.decode()
    assert not Grant.objects.exists()


def test_a_redirect_uri_not_registered_is_never_redirected_to(ewa, app):
    browser = Client()
    browser.force_login(ewa)
    _, challenge = pkce_pair()

    answer = browser.get(authorize_query(app, challenge, scope="matches:read", redirect="https://evil.example/cb"))

    assert answer.status_code != 302 and "evil.example" not in answer.get("Location", "")
    assert "invalid_request" in answer.content.decode() or "Mismatching redirect" in answer.content.decode()


def test_a_code_is_refused_for_another_redirect_uri_at_the_token_endpoint(ewa):
    app, _ = make_app(ewa, redirect=f"{REDIRECT} https://table.example.org/other")
    verifier, challenge = pkce_pair()
    code = consent(ewa, app, challenge, scope="matches:read")

    answer = token_request(
        app,
        grant_type="authorization_code",
        code=code,
        redirect_uri="https://table.example.org/other",
        code_verifier=verifier,
    )

    assert answer.status_code == 400 and not AccessToken.objects.exists()


def test_refusing_on_the_consent_page_sends_access_denied(ewa, app):
    browser = Client()
    browser.force_login(ewa)
    _, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge, scope="matches:read"))
    fields = dict(HIDDEN.findall(page.content.decode()))

    answer = browser.post("/o/authorize/", fields)

    assert answer.status_code == 302 and "error=access_denied" in answer["Location"]
    assert not AccessToken.objects.exists()


def test_the_consent_page_says_in_polish_what_each_scope_lets_the_app_do_and_for_whom(ewa, app):
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    browser.force_login(ewa)
    _, challenge = pkce_pair()

    page = browser.get(authorize_query(app, challenge, scope="matches:read matches:play")).content.decode()

    assert "Stolik" in page and "ewa" in page
    assert "matches:play" in page and "matches:read" in page
    assert "Zezwól" in page and "Odmów" in page
    assert "<script>" not in page and "style=" not in page  # the CSP: nothing inline


def test_an_anonymous_visitor_is_sent_to_sign_in_first(app):
    _, challenge = pkce_pair()

    answer = Client().get(authorize_query(app, challenge, scope="matches:read"))

    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


# --- refresh tokens -------------------------------------------------------------------------------


def test_a_refresh_token_is_rotated(ewa, app):
    first = code_flow(ewa, app)

    second = token_request(app, grant_type="refresh_token", refresh_token=first["refresh_token"])

    assert second.status_code == 200
    renewed = second.json()
    assert renewed["refresh_token"] != first["refresh_token"]
    assert works(renewed["access_token"]) and not works(first["access_token"])


def test_a_refresh_token_used_twice_revokes_the_whole_family(ewa, app):
    first = code_flow(ewa, app)
    renewed = token_request(app, grant_type="refresh_token", refresh_token=first["refresh_token"]).json()

    replay = token_request(app, grant_type="refresh_token", refresh_token=first["refresh_token"])

    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert not works(renewed["access_token"])  # the thief's or the app's: neither is trusted now
    again = token_request(app, grant_type="refresh_token", refresh_token=renewed["refresh_token"])
    assert again.status_code == 400


# --- revocation and introspection -----------------------------------------------------------------


def test_revoking_an_access_token_stops_it_at_once(ewa, app):
    tokens = code_flow(ewa, app)

    answer = Client().post("/o/revoke_token/", {"token": tokens["access_token"], "client_id": app.client_id})

    assert answer.status_code == 200
    assert not works(tokens["access_token"])


def test_revoking_a_refresh_token_stops_refreshing(ewa, app):
    tokens = code_flow(ewa, app)

    Client().post(
        "/o/revoke_token/",
        {"token": tokens["refresh_token"], "token_type_hint": "refresh_token", "client_id": app.client_id},
    )

    assert token_request(app, grant_type="refresh_token", refresh_token=tokens["refresh_token"]).status_code == 400


def test_a_resource_server_introspects_a_token(ewa, app, django_user_model):
    tokens = code_flow(ewa, app, scope="matches:read")
    server_owner = django_user_model.objects.create_user("serwer", password=PASSWORD)
    server, secret = make_app(server_owner, confidential=True)
    resource_server = Client()

    active = resource_server.post(
        "/o/introspect/", {"token": tokens["access_token"], "client_id": server.client_id, "client_secret": secret}
    )
    unknown = resource_server.post(
        "/o/introspect/", {"token": "not-a-token", "client_id": server.client_id, "client_secret": secret}
    )
    anonymous = Client().post("/o/introspect/", {"token": tokens["access_token"]})

    assert active.status_code == 200
    assert active.json()["active"] is True and active.json()["scope"] == "matches:read"
    assert active.json()["username"] == "ewa"
    assert unknown.json() == {"active": False}
    assert anonymous.status_code in (401, 403)


# --- the server metadata ----------------------------------------------------------------------------


def test_the_server_metadata_is_at_the_well_known_address():
    meta = Client().get("/.well-known/oauth-authorization-server").json()

    assert meta["authorization_endpoint"].endswith("/o/authorize/")
    assert meta["token_endpoint"].endswith("/o/token/")
    assert meta["revocation_endpoint"].endswith("/o/revoke_token/")
    assert meta["introspection_endpoint"].endswith("/o/introspect/")
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["response_types_supported"] == ["code"]
    assert set(meta["scopes_supported"]) == {
        "matches:read",
        "matches:play",
        "sheets:file",
        "club:admin",
        "arbiter",
        "webhooks",
    }
    assert "none" in meta["token_endpoint_auth_methods_supported"]


# --- a new password revokes everything ------------------------------------------------------------


def test_a_password_reset_revokes_the_users_oauth_tokens(ewa, app):
    tokens = code_flow(ewa, app)
    browser = Client()
    browser.post("/accounts/password_reset/", {"email": "ewa@example.org"})
    link = re.search(r"/accounts/reset/\S+/", mail.outbox[0].body).group(0)
    form_page = browser.get(link, follow=True)

    browser.post(
        form_page.redirect_chain[-1][0], {"new_password1": "brand-new-phrase-9", "new_password2": "brand-new-phrase-9"}
    )

    assert not works(tokens["access_token"])
    assert token_request(app, grant_type="refresh_token", refresh_token=tokens["refresh_token"]).status_code == 400
    assert not RefreshToken.objects.filter(user=ewa).exists()


# --- apps: registered, listed with who authorised them, revoked by the user -----------------------


def test_any_user_registers_an_app_and_sees_who_authorised_it(ewa, django_user_model):
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    browser.force_login(ewa)

    answer = browser.post("/o/apps/", {"name": "Strona klubu", "redirect_uris": REDIRECT, "confidential": "1"})

    assert answer.status_code == 200
    page = answer.content.decode()
    secret = re.search(r'value="([^"]+)" id="client-secret"', page).group(1)
    app = Application.objects.get(name="Strona klubu")
    assert app.client_type == "confidential" and app.client_secret != secret  # stored hashed
    olek = django_user_model.objects.create_user("olek", password=PASSWORD)
    code_flow(olek, app, scope="matches:read", secret=secret)
    listing = browser.get("/o/apps/").content.decode()
    assert "olek" in listing and "Strona klubu" in listing
    assert secret not in listing  # shown once


def test_a_bad_redirect_uri_registers_nothing(ewa):
    browser = Client()
    browser.force_login(ewa)

    answer = browser.post("/o/apps/", {"name": "Zła", "redirect_uris": "javascript:alert(1)", "confidential": "0"})

    assert answer.status_code == 400
    assert not Application.objects.exists()


@pytest.mark.parametrize("uri", ["http://table.example.org/cb", "http://localhost.example.org/cb"])
def test_a_plaintext_redirect_uri_is_refused_but_to_the_loopback_address(ewa, uri):
    browser = Client()
    browser.force_login(ewa)

    refused = browser.post("/o/apps/", {"name": "Zła", "redirect_uris": uri, "confidential": "0"})
    loopback = browser.post("/o/apps/", {"name": "Bot", "redirect_uris": "http://127.0.0.1/cb", "confidential": "0"})

    assert refused.status_code == 400 and "127.0.0.1" in refused.content.decode()
    assert loopback.status_code == 200
    assert list(Application.objects.values_list("name", flat=True)) == ["Bot"]


def test_the_redirect_names_the_issuer(ewa, app):
    browser = Client()
    browser.force_login(ewa)
    _, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge, scope="matches:read"))

    allowed = browser.post("/o/authorize/", {**dict(HIDDEN.findall(page.content.decode())), "allow": "Authorize"})

    assert "iss=http%3A%2F%2Ftestserver" in allowed["Location"]  # RFC 9207: no mix-up between servers


def test_a_user_sees_the_apps_he_authorised_and_takes_access_back(ewa, app, django_user_model):
    olek = django_user_model.objects.create_user("olek", password=PASSWORD)
    tokens = code_flow(olek, app)
    browser = Client()
    browser.force_login(olek)
    assert "Stolik" in browser.get("/o/authorised/").content.decode()

    answer = browser.post("/o/authorised/", {"revoke": str(app.pk)})

    assert answer.status_code == 302
    assert not works(tokens["access_token"])
    assert token_request(app, grant_type="refresh_token", refresh_token=tokens["refresh_token"]).status_code == 400
    assert "Stolik" not in browser.get("/o/authorised/").content.decode()


def test_a_user_cannot_take_back_another_users_authorisation(ewa, app, django_user_model):
    olek = django_user_model.objects.create_user("olek", password=PASSWORD)
    tokens = code_flow(olek, app)
    browser = Client()
    browser.force_login(ewa)

    browser.post("/o/authorised/", {"revoke": str(app.pk)})

    assert works(tokens["access_token"])


def test_the_consent_pages_csp_lets_the_form_go_on_to_the_app_only(ewa, app):
    browser = Client()
    browser.force_login(ewa)
    _, challenge = pkce_pair()

    consent_page = browser.get(authorize_query(app, challenge, scope="matches:read"))
    other_page = browser.get("/accounts/tokens/")

    form_action = re.search(r"form-action ([^;]+)", consent_page["Content-Security-Policy"]).group(1)
    assert "https://table.example.org" in form_action.split()  # the browser checks the redirect too
    assert "table.example.org" not in other_page["Content-Security-Policy"]
    assert "script-src 'self'" in consent_page["Content-Security-Policy"]  # nothing else loosened
