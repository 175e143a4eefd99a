"""Helpers for the generated-client tests: the users' password, the players, the CI switch (under
CI=true a missing generator or toolchain fails instead of skipping)."""

import pytest
from support import IN_CI, PLAYERS  # noqa: F401 - re-exported

PASSWORD = "kierki-clients-test"


def missing(what: str) -> None:
    """Skip without ``what``; fail under CI=true, where these tests must run."""
    if IN_CI:
        pytest.fail(f"CI=true but the generated-client test cannot run: {what}", pytrace=False)
    pytest.skip(what)


# --- signing in as a third-party app does (issue 26) ----------------------------------------------

BOT_REDIRECT = "http://127.0.0.1/callback"  # RFC 8252: any port of the loopback address
HIDDEN = r'<input type="hidden" name="([^"]+)" value="([^"]*)"'


def registered_app(owner, name: str = "Bot stolikowy"):
    """A public app of ``owner`` for programs on a computer (loopback redirect)."""
    from api import oauth

    return oauth.app_register(user=owner, name=name, redirect_uris=BOT_REDIRECT, confidential=False).app


def person_allowing(base_url: str, username: str):
    """``open_url`` for ``games.bot.oauth_sign_in``: the person signs in on the site's login page,
    presses "Allow" on the consent page, and the browser follows the redirect to the app."""
    import re
    import threading

    import httpx

    def open_url(url: str) -> None:
        with httpx.Client(base_url=base_url, follow_redirects=False, timeout=30) as browser:
            login = browser.get("/accounts/login/")
            fields = dict(re.findall(HIDDEN, login.text))
            signed_in = browser.post("/accounts/login/", data={**fields, "username": username, "password": PASSWORD})
            assert signed_in.status_code == 302, signed_in.text
            consent = browser.get(url)
            assert consent.status_code == 200, consent.text
            allowed = browser.post("/o/authorize/", data={**dict(re.findall(HIDDEN, consent.text)), "allow": "1"})
            assert allowed.status_code == 302, allowed.text
        # the app's loopback server answers once the bot waits on it: follow the redirect beside it
        threading.Thread(target=httpx.get, args=(allowed.headers["Location"],), daemon=True).start()

    return open_url


def oauth_token(base_url: str, username: str, app, scope: str) -> str:
    """An access token of ``username`` for ``app`` through the code flow with PKCE."""
    from games import bot

    return bot.oauth_sign_in(base_url, app.client_id, scope=scope, open_url=person_allowing(base_url, username))[
        "access_token"
    ]
