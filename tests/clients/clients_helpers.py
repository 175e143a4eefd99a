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


# The deals the client tests file, as a club secretary copies them from a paper sheet (RULES.md
# R31): deals 1 and 2 of a match whose first dealer is N are rozbójniki, deal 3 an odgrywka.
ROZBOJNIK_TALLIES = [
    {
        "N": {"tricks": 2, "hearts": 0, "queens": 0, "kings_jacks": 3, "king_of_hearts": False, "last_tricks": 0},
        "E": {"tricks": 3, "hearts": 2, "queens": 1, "kings_jacks": 2, "king_of_hearts": True, "last_tricks": 0},
        "S": {"tricks": 5, "hearts": 3, "queens": 2, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 1},
        "W": {"tricks": 3, "hearts": 8, "queens": 1, "kings_jacks": 1, "king_of_hearts": False, "last_tricks": 1},
    },
    {
        "N": {"tricks": 5, "hearts": 11, "queens": 0, "kings_jacks": 4, "king_of_hearts": False, "last_tricks": 2},
        "E": {"tricks": 0, "hearts": 0, "queens": 0, "kings_jacks": 0, "king_of_hearts": False, "last_tricks": 0},
        "S": {"tricks": 4, "hearts": 1, "queens": 1, "kings_jacks": 2, "king_of_hearts": True, "last_tricks": 0},
        "W": {"tricks": 4, "hearts": 1, "queens": 3, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 0},
    },
]
ODGRYWKA_TALLY = {"N": {"tricks": 9}, "E": {"tricks": 0}, "S": {"tricks": 2}, "W": {"tricks": 2}}


def record_of_tallies(players) -> dict:
    """A ``kierki-match/1`` record (version 1.1) of three deals filed by their tallies."""
    return {
        "format": "kierki-match/1",
        "ruleset": {"name": "rozbojnik-odgrywka", "options": {}},
        "players": dict(zip("NESW", players)),
        "first_dealer": "N",
        "played_on": "2025-09-16",
        "deals": [{"tally": tally} for tally in (*ROZBOJNIK_TALLIES, ODGRYWKA_TALLY)],
    }


def webhook_bodies(world, settings, secret: str = "whsec_test-secret") -> tuple[list[bytes], dict]:
    """The bodies the server would POST to a club's webhook (webhooks.signing.body of each delivery
    written) for a season match filed from its sheet deal by deal (R33: points), and a ping: a
    ``deal.finished`` per deal, the ``match.finished``, the ``ping``; with the filed match's summary."""
    from support.world import season_match, simulated

    from games.engine import record as records
    from games.engine.replay import replay
    from games.write import services
    from webhooks import services as hooks
    from webhooks import signing
    from webhooks.models import Delivery

    settings.WEBHOOKS_ALLOW_PRIVATE = True
    endpoint = hooks.endpoint_create(
        actor=world.users["ada"],
        club_id=world.club.pk,
        url="http://127.0.0.1:9/hook",  # nothing listens: the deliveries are only written
        event_types=["deal.finished", "match.finished"],
        secret=secret,
    )
    record = simulated(3)
    match = season_match(world)
    played = replay(records.decode(record)).summary()
    for deal, filed in zip(played["deals"], record["deals"]):
        services.deal_tally(match_id=match.pk, actor=world.users["sam"], points=deal["points"], sale=filed.get("sale"))
    hooks.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)
    bodies = [
        signing.body(event_id=d.event_id, type=d.event_type, created_at=d.created_at, data=d.payload)
        for d in Delivery.objects.order_by("pk")
    ]
    return bodies, {**played, "match": str(match.pk)}


# --- signing in as a third-party app does (issue 26) ----------------------------------------------

BOT_REDIRECT = "http://127.0.0.1/callback"  # RFC 8252: any port of the loopback address
HIDDEN = r'<input type="hidden" name="([^"]+)" value="([^"]*)"'


def registered_app(owner, name: str = "Bot stolikowy"):
    """A public app of ``owner`` for programs on a computer (loopback redirect)."""
    from api import oauth

    return oauth.app_register(user=owner, name=name, redirect_uris=BOT_REDIRECT, confidential=False).app


def person_allowing(base_url: str, username: str):
    """``open_url`` for ``games.cli.bot.oauth_sign_in``: the person signs in on the site's login page,
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
    from games.cli import bot

    return bot.oauth_sign_in(base_url, app.client_id, scope=scope, open_url=person_allowing(base_url, username))[
        "access_token"
    ]
