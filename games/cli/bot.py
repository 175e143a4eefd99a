"""The reference bot: plays one seat of a match through the public REST API (``kierki play``).

Like the rest of the ``kierki`` command it imports the rules engine and the standard library
only — no Django — and talks plain HTTP (``urllib``) to any Kierki server:

- every command is sent with ``?wait=25``: its answer carries the state after it and, once it is
  the bot's move again, that state too (``next_move``), so a card costs one request — the POST
  that plays it also waits for the next one (``requests`` counts them); when nothing came in
  time it long-polls ``GET state/?after=<version>&wait=25&until=move``, and the lead holder
  waiting for offers follows every change (``until=change``);
- it plays a card of ``legal_cards`` chosen by a strategy of ``games.engine.simulate``
  (``random``, ``low``, ``high``); deals the next deal of a server-dealt match when it is due, if
  it sits North or was told to (``--deal``); in a compensating odgrywka it offers to buy the lead
  now and then, and as the lead holder waits a moment for offers, then accepts one or keeps;
- every POST carries ``If-Match`` (the version it decided on) and an ``Idempotency-Key``:
  ``412`` (someone moved first) means read the state again; a network error, ``429``, ``5xx``
  or ``409 idempotency_in_progress`` is retried with exponential backoff, with the same key;
- it returns when the match is over (``kierki play`` then exits 0).

Sign-in (issue 26): the token is an OAuth access token or a personal access token (sent as
``Authorization: Bearer``), or a key of the deprecated token endpoint (``Token``, 40 hex digits).
``oauth_sign_in`` gets an OAuth token the standard way for a program on a computer: the code flow
with PKCE and a loopback redirect (RFC 8252) — the person allows the bot in his browser, the bot
never sees his password. Its scopes: ``matches:read matches:play``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field
from http.client import HTTPException
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

from games.engine.cards import Card
from games.engine.simulate import STRATEGIES

USER_AGENT = "kierki-bot/1"
LONG_POLL = 25  # seconds the server may hold a long-poll
TRANSIENT = {429, 500, 502, 503, 504}


class ApiError(Exception):
    """An answer the bot cannot retry its way out of: the status and the problem+json body."""

    def __init__(self, status: int, body: Any):
        self.status, self.body = status, body
        code = body.get("code") if isinstance(body, dict) else None
        detail = body.get("detail") if isinstance(body, dict) else None
        super().__init__(f"HTTP {status} {code or ''}: {detail or body}".strip())

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None


class BotError(Exception):
    """The bot cannot play this match (not seated, not a player's token)."""


def api_base(server: str) -> str:
    """``http://host:8000`` or ``http://host:8000/api/v1`` → the API root, ending in ``/``."""
    base = server.rstrip("/")
    if not base.endswith("/api/v1"):
        base += "/api/v1"
    return base + "/"


OLD_KEY_LENGTH = 40  # keys of the deprecated POST /api/v1/auth/token/: 40 hex digits
BOT_SCOPES = "matches:read matches:play"


def authorization(token: str) -> str:
    """The ``Authorization`` header for a token: ``Token`` for an old key, else ``Bearer``."""
    old = len(token) == OLD_KEY_LENGTH and all(c in "0123456789abcdef" for c in token)
    return f"Token {token}" if old else f"Bearer {token}"


def server_origin(server: str) -> str:
    """``http://host:8000/api/v1`` or ``http://host:8000`` → ``http://host:8000``."""
    base = server.rstrip("/")
    return base[: -len("/api/v1")] if base.endswith("/api/v1") else base


def pkce_pair() -> tuple[str, str]:
    """A PKCE code verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


class _Callback(BaseHTTPRequestHandler):
    """The loopback redirect: keeps the query the authorisation server sent the browser to."""

    def do_GET(self):
        self.server.query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        body = b"Kierki: you may close this page."
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet: the bot logs what matters
        pass


def oauth_sign_in(
    server: str,
    client_id: str,
    *,
    scope: str = BOT_SCOPES,
    open_url: Callable[[str], Any] = webbrowser.open,
    timeout: float = 300,
) -> dict[str, Any]:
    """The OAuth code flow with PKCE for a public app registered with the redirect URI
    ``http://127.0.0.1/callback`` (any port): opens the consent page with ``open_url``, waits for
    the browser's redirect on a loopback port, trades the code for tokens. The token response
    (``access_token``, ``refresh_token``, ``scope``, ``expires_in``)."""
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)
    with HTTPServer(("127.0.0.1", 0), _Callback) as callback:
        callback.timeout, callback.query = timeout, None
        redirect_uri = f"http://127.0.0.1:{callback.server_address[1]}/callback"
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": scope,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        open_url(f"{server_origin(server)}/o/authorize/?{urllib.parse.urlencode(query)}")
        callback.handle_request()
        answer = callback.query or {}
    if answer.get("state") != [state] or "code" not in answer:
        raise BotError(f"not signed in: {answer.get('error', ['no answer from the browser'])[0]}")
    form = {
        "grant_type": "authorization_code",
        "code": answer["code"][0],
        "redirect_uri": redirect_uri,
        "client_id": client_id,
        "code_verifier": verifier,
    }
    request = urllib.request.Request(
        f"{server_origin(server)}/o/token/", data=urllib.parse.urlencode(form).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Api:
    """JSON over HTTP with a token; transient failures retried with exponential backoff."""

    def __init__(
        self,
        server: str,
        token: str,
        *,
        retries: int = 8,
        backoff: float = 0.5,
        max_backoff: float = 15.0,
        timeout: float = LONG_POLL + 15,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] = lambda message: None,
    ):
        self.base, self.token = api_base(server), token
        self.retries, self.backoff, self.max_backoff, self.timeout = retries, backoff, max_backoff, timeout
        self.sleep, self.log = sleep, log
        self.requests = 0  # HTTP requests sent, retries included (the bot's requests per card)

    def get(self, path: str, **query: Any) -> tuple[Any, dict[str, str]]:
        if query:
            path += "?" + urllib.parse.urlencode(query)
        return self.request("GET", path)

    def post(self, path: str, body: dict, *, version: int | None = None) -> tuple[Any, dict[str, str]]:
        headers = {"Idempotency-Key": uuid.uuid4().hex}  # one per action: its retries are replays
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        return self.request("POST", path, body, headers)

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict[str, str] | None = None
    ) -> tuple[Any, dict[str, str]]:
        all_headers = {
            "Authorization": authorization(self.token),
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            **(headers or {}),
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        for attempt in range(self.retries + 1):
            self.requests += 1
            request = urllib.request.Request(self.base + path, data=data, headers=all_headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return _json(response.read()), dict(response.headers)
            except urllib.error.HTTPError as error:
                answer, retry_after = _json(error.read()), error.headers.get("Retry-After")
                if not _transient(error.code, answer) or attempt == self.retries:
                    raise ApiError(error.code, answer) from None
                reason = f"HTTP {error.code}"
            except (urllib.error.URLError, HTTPException, OSError) as error:  # refused, reset, timed out
                if attempt == self.retries:
                    raise
                reason, retry_after = f"{type(error).__name__}: {error}", None
            delay = self._delay(attempt, retry_after)
            self.log(f"{method} {path}: {reason}; retrying in {delay:.1f} s")
            self.sleep(delay)
        raise AssertionError("unreachable")

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after is not None and retry_after.strip().isdigit():
            return float(retry_after)
        return min(self.max_backoff, self.backoff * 2**attempt) * random.uniform(0.75, 1.25)


def _transient(status: int, answer: Any) -> bool:
    code = answer.get("code") if isinstance(answer, dict) else None
    return status in TRANSIENT or (status == 409 and code == "idempotency_in_progress")


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode(errors="replace")


@dataclass
class Policy:
    """How the bot plays. ``deal``: None → only when seated North."""

    strategy: str = "random"
    deal: bool | None = None
    offer_rate: float = 0.3  # a player but the holder offers for the lead this often…
    max_price: int = 3  # …a price of 1 to this many tricks
    accept_rate: float = 0.5  # the holder accepts the best standing offer this often, else keeps
    offer_wait: float = 2.0  # seconds the holder waits for offers (less once all three offered)

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r} (one of {', '.join(STRATEGIES)})")


@dataclass
class Bot:
    api: Api
    match: str
    policy: Policy = field(default_factory=Policy)
    rng: random.Random = field(default_factory=random.Random)
    log: Callable[[str], None] = lambda message: None
    long_poll: int = LONG_POLL
    _considered: set = field(default_factory=set)  # deals whose lead sale this bot has weighed
    _sale_open: dict = field(default_factory=dict)  # deal → when the holder first saw it open
    _deadline: float | None = None
    _conflicts: int = 0  # 409/412/422 answers in a row
    cards: int = 0  # cards this bot played

    MAX_CONFLICTS = 50  # then something is wrong with the bot, not a race

    def run(self) -> dict[str, Any]:
        """Play until the match is over; the match (``GET matches/{id}/``) as it ended."""
        detail, _ = self.api.get(self._path())
        server_dealt = detail["dealing"] == "server"
        state, _ = self.api.get(self._path("state"))
        while True:
            if state["status"] != "in_progress":
                final, _ = self.api.get(self._path())
                self.log(f"the match is {final['status']}: totals {final['totals']}, winners {final['winners']}")
                self.log(self.request_count())
                return final
            if state["role"] != "player":
                raise BotError(f"this token's user is {state['role']!r} to the match, not a seated player")
            self._deadline = None
            try:
                answer = self.step(state, server_dealt)
            except ApiError as error:
                # Someone moved first (412), the sale or the match just closed (422, 409): look again.
                if error.status not in (409, 412, 422) or self._conflicts >= self.MAX_CONFLICTS:
                    raise
                self._conflicts += 1
                self.log(f"{error}; reading the state again")
                state, _ = self.api.get(self._path("state"))
                continue
            self._conflicts = 0
            # A command's answer carries the state after it (a server without it: read it).
            state = self._state_after(answer) if answer is not None else self.wait(state["version"])

    def request_count(self) -> str:
        """``requests: R, cards: C, per card: R/C`` (every request, waits included)."""
        requests = getattr(self.api, "requests", 0)
        return f"requests: {requests}, cards: {self.cards}, per card: {requests / max(self.cards, 1):.2f}"

    def _state_after(self, answer: Any) -> dict[str, Any]:
        """The state the command's answer brings: the next move when it came, else right after it."""
        if isinstance(answer, dict) and isinstance(answer.get("next_move"), dict):
            return answer["next_move"]
        if isinstance(answer, dict) and isinstance(answer.get("state"), dict):
            return answer["state"]
        state, _ = self.api.get(self._path("state"))
        return state

    def step(self, state: dict[str, Any], server_dealt: bool) -> Any:
        """Do what is due for this seat, if anything: the command's answer, or None when none was sent."""
        seat, version, deal = state["seat"], state["version"], state["deal"]
        if deal is None:
            dealer = self.policy.deal if self.policy.deal is not None else seat == "N"
            if server_dealt and dealer and state["next_deal"] is not None:
                answer, _ = self.api.post(self._command("deals"), {}, version=version)
                self.log(f"dealt deal {state['next_deal']['number']}")
                return answer
            return None
        number, sale = deal["number"], deal["lead_sale"]
        if sale["can_sell"]:
            if sale["holder"] == seat:
                decided = self._decide_sale(number, sale, version)
                if decided is not None:
                    return decided
                if self._deadline is not None:
                    return None  # still waiting for offers
            elif number not in self._considered:
                self._considered.add(number)
                if self.rng.random() < self.policy.offer_rate:
                    price = self.rng.randint(1, self.policy.max_price)
                    # No If-Match: others' offers do not change this one (a closed sale is a 422).
                    answer, _ = self.api.post(self._command("lead-offers"), {"price": price})
                    self.log(f"deal {number}: offered {price} for the lead")
                    return answer
        if deal["to_play"] == seat and deal["legal_cards"]:
            legal = tuple(Card.parse(name) for name in deal["legal_cards"])
            card = str(STRATEGIES[self.policy.strategy](self.rng, legal))
            answer, _ = self.api.post(self._command("plays"), {"card": card}, version=version)
            self.cards += 1
            self.log(f"deal {number}: played {card}")
            return answer
        return None

    def _decide_sale(self, number: int, sale: dict[str, Any], version: int) -> Any:
        """As the lead holder: wait for offers (until all three players offered or ``offer_wait``
        passed), then accept the best with ``accept_rate``, else keep. With no offer at all the
        first card closes the sale (R28), nothing to send."""
        opened = self._sale_open.setdefault(number, time.monotonic())
        offers = sale["offers"]
        if len({offer["buyer"] for offer in offers}) < 3 and time.monotonic() < opened + self.policy.offer_wait:
            self._deadline = opened + self.policy.offer_wait
            return None
        if not offers:
            return None
        if self.rng.random() < self.policy.accept_rate:
            best = max(offers, key=lambda offer: (offer["price"], -offer["seq"]))
            answer, _ = self.api.post(self._command("lead-decision"), {"offer": best["seq"]}, version=version)
            self.log(f"deal {number}: sold the lead to {best['buyer']} for {best['price']}")
        else:
            answer, _ = self.api.post(self._command("lead-decision"), {"keep": True}, version=version)
            self.log(f"deal {number}: kept the lead")
        return answer

    def wait(self, version: int) -> dict[str, Any]:
        """The state once it is this seat's move after ``version`` (long-poll), or at its own deadline."""
        wait = self.long_poll
        if self._deadline is not None:
            wait = max(1, min(wait, math.ceil(self._deadline - time.monotonic())))
        started = time.monotonic()
        until = "change" if self._deadline is not None else "move"  # the holder watches the offers come in
        state, _ = self.api.get(self._path("state"), after=version, wait=wait, until=until)
        if state["version"] == version and time.monotonic() - started < min(wait, 1):
            time.sleep(min(wait, 1))  # a server without long-poll: do not spin
        return state

    def _path(self, what: str = "") -> str:
        return f"matches/{self.match}/" + (f"{what}/" if what else "")

    def _command(self, what: str) -> str:
        """A command's path, asking its answer to bring the bot's next move (``next_move``)."""
        return f"{self._path(what)}?wait={self.long_poll}"


def play(
    server: str, token: str, match: str, *, policy: Policy, seed: int | None = None, quiet: bool = False
) -> dict[str, Any]:
    """``kierki play``: one seat of ``match`` until it ends; the match as it ended."""

    def log(message: str) -> None:
        if not quiet:
            print(f"[{match[:8]}] {message}", file=sys.stderr, flush=True)

    bot = Bot(Api(server, token, log=log), match, policy, random.Random(seed), log)
    return bot.run()
