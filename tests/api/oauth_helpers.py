"""Helpers for the OAuth tests (issue 26): an app, the code flow with PKCE driven through the
consent form as a person would, and clients holding the tokens it gives."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

from django.test import Client
from rest_framework.test import APIClient

REDIRECT = "https://table.example.org/callback"
ALL_SCOPES = "matches:read matches:play sheets:file club:admin arbiter webhooks"
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def pkce_pair() -> tuple[str, str]:
    """A code verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def make_app(owner, *, confidential: bool = False, redirect: str = REDIRECT):
    """An app registered by ``owner`` (``api.oauth.app_register``): (the app, its secret or None)."""
    from api import oauth

    registered = oauth.app_register(user=owner, name="Stolik", redirect_uris=redirect, confidential=confidential)
    return registered.app, registered.client_secret


def authorize_query(app, challenge: str, *, scope: str, redirect: str = REDIRECT, method: str = "S256") -> str:
    return "/o/authorize/?" + urlencode(
        {
            "response_type": "code",
            "client_id": app.client_id,
            "redirect_uri": redirect,
            "scope": scope,
            "code_challenge": challenge,
            "code_challenge_method": method,
            "state": "s-123",
        }
    )


def consent(user, app, challenge: str, *, scope: str, redirect: str = REDIRECT) -> str:
    """Signs ``user`` in, opens the consent page and presses "Allow": the code sent to the app."""
    browser = Client()
    browser.force_login(user)
    page = browser.get(authorize_query(app, challenge, scope=scope, redirect=redirect))
    assert page.status_code == 200, page.content
    fields = dict(HIDDEN.findall(page.content.decode()))
    answer = browser.post("/o/authorize/", {**fields, "allow": "Authorize"})
    assert answer.status_code == 302, answer.content
    location = urlsplit(answer["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == redirect
    query = parse_qs(location.query)
    assert query["state"] == ["s-123"]
    return query["code"][0]


def token_request(app, secret: str | None = None, **fields):
    data = {"client_id": app.client_id, **fields}
    if secret:
        data["client_secret"] = secret
    return Client().post("/o/token/", data)


def code_flow(user, app, *, scope: str = ALL_SCOPES, secret: str | None = None) -> dict:
    """The whole code flow with PKCE: the token response (access, refresh, scope)."""
    verifier, challenge = pkce_pair()
    code = consent(user, app, challenge, scope=scope)
    answer = token_request(
        app, secret, grant_type="authorization_code", code=code, redirect_uri=REDIRECT, code_verifier=verifier
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def scoped_token(user, scope: str) -> str:
    """An access token of ``user`` with ``scope``, as the code flow makes them (no browser): for
    tests about what a scope allows rather than how it is obtained."""
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken, set_token_value

    raw = secrets.token_urlsafe(30)
    token = AccessToken(user=user, scope=scope, expires=timezone.now() + timedelta(hours=1))
    set_token_value(token, raw)  # stored as its checksum only (COMPLIANT_BCP_RFC9700_TOKEN_STORAGE)
    token.save()
    return raw
