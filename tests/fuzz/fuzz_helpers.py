"""Helpers for the fuzz tests: a club world with matches in every state, and the schemathesis
set-up shared by the WSGI and the ASGI runs (bounds, checks, real ids mixed into the inputs)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

import schemathesis
from django.contrib.auth.models import Group
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from support import PLAYERS, SEATS

from games.engine import Ruleset, Seat
from games.engine.match import restore
from games.engine.simulate import simulate_match
from games.models import MatchProjection
from games.write import disputes
from games.write import services as games
from scoring import recompute
from scoring import services as leagues

SHORT = {"regular_deals": ["R", "O"]}  # two regular deals: quick to simulate

# Per operation and phase (with the coverage phase, a few dozen requests each), and the seed the
# inputs derive from: CI sees the same inputs every run. Raise or vary them for a deeper search.
MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", 25))
SEED = int(os.environ.get("FUZZ_SEED", 20260601))
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
)


def fuzz_settings(max_examples: int = MAX_EXAMPLES) -> settings:
    """The bounds again, for hypothesis: a ``@settings`` decorator's values win over schemathesis's
    configuration, and would otherwise come from the loaded profile (tests/conftest.py). A fuzz
    test uses function-scoped fixtures on purpose: the world is set up once for all its examples."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def wsgi_schema():
    """``/api/v1/schema/`` as the WSGI application serves it, requests sent to that application."""
    from django.core.handlers.wsgi import WSGIHandler

    return schemathesis.openapi.from_wsgi("/api/v1/schema/", WSGIHandler(), config=config())


def config(*, max_examples: int = MAX_EXAMPLES, **overrides) -> schemathesis.Config:
    """Bounded, repeatable runs with the checks the contract promises (no 5xx; status codes,
    content types, bodies and headers as documented). Not enabled: the checks that expect every
    schema-valid input to be accepted — a card you do not hold is schema-valid and still a 422."""
    return schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "generation": {"max-examples": max_examples, "deterministic": True, "database": "none"},
            "phases": {"stateful": {"enabled": False}},
            "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
            **overrides,
        }
    )


# --- the world ---------------------------------------------------------------------------------------


def token(world, name: str) -> dict:
    scheme = "Bearer" if name.endswith("-oauth") else "Token"
    return {"Authorization": f"{scheme} {world.tokens[name]}"}


def oauth_access_token(user, scope: str) -> str:
    """An access token of ``user`` from the code flow with PKCE (issue 26), run in this process:
    a public app, the consent form's "Allow" posted, the code traded with its verifier."""
    import base64
    import hashlib
    import secrets
    from urllib.parse import parse_qs, urlencode, urlsplit

    from django.test import Client

    from api import oauth

    redirect = "https://fuzz.example.org/cb"
    app = oauth.app_register(user=user, name="Fuzz", redirect_uris=redirect, confidential=False).app
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": app.client_id, "redirect_uri": redirect, "scope": scope}
    query |= {"code_challenge": challenge, "code_challenge_method": "S256"}
    browser = Client()
    browser.force_login(user)
    # The consent form's fields posted as the page would (its rendering needs the collected static files)
    allowed = browser.post(f"/o/authorize/?{urlencode(query)}", {**query, "allow": "Authorize"})
    code = parse_qs(urlsplit(allowed["Location"]).query)["code"][0]
    answer = Client().post(
        "/o/token/",
        {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect}
        | {"client_id": app.client_id, "code_verifier": verifier},
    )
    return answer.json()["access_token"]


@dataclass
class World:
    """What the fuzzed requests should sometimes name: ``ids[kind]`` are real path values."""

    tokens: dict = field(default_factory=dict)
    ids: dict = field(default_factory=dict)
    plays: list = field(default_factory=list)  # ala's legal card in each match in play


def seed_world(user_model) -> World:
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``ari``, the four players), its league and
    open season; a finished season match with an open and a ruled dispute, two server-dealt matches
    in play and a recorded one, ``ala`` on turn in each; tokens for ``ala`` (a seated player) and
    ``staff``."""
    make = user_model.objects.create_user  # no password: hashing one is slow
    users = {name: make(name) for name in ("ada", "sam", "ari", *PLAYERS, "outsider")}
    users["staff"] = make("staff", is_staff=True)
    users["sam"].groups.add(Group.objects.get_or_create(name="scorers")[0])
    club = leagues.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name, role in (("sam", "scorer"), ("ari", "arbiter"), *((player, "member") for player in PLAYERS)):
        leagues.membership_set(actor=users["ada"], club_id=club.pk, username=name, role=role)
    league = leagues.league_create(actor=users["ada"], club_id=club.pk, name="Liga", ruleset={"options": SHORT})
    season = leagues.season_create(actor=users["ada"], league_id=league.pk, name="2026")

    finished = leagues.season_record_import(actor=users["sam"], season_id=season.pk, record=_simulated(1))
    recompute.standings_recompute(season_id=season.pk)
    open_dispute = disputes.dispute_raise(
        match_id=finished.pk, actor=users["ala"], deal=1, statement="W revoked in trick 3"
    )
    ruled = disputes.dispute_raise(
        match_id=finished.pk, actor=users["bartek"], deal=2, play_index=0, statement="N led out of turn"
    )
    disputes.ruling_record(dispute_id=ruled.pk, actor=users["ari"], ruling="no_change", reason="N was on lead")

    seated = {seat: users[name] for seat, name in zip(SEATS, PLAYERS)}
    in_play = []  # ala (N) on turn in each: her feed has three notices at once
    for first_dealer in ("N", "E"):
        server = games.match_create(actor=users["ala"], first_dealer=first_dealer, seats=dict(zip(SEATS, PLAYERS)))
        games.deal_start(match_id=server.pk, actor=users["ala"])
        _play_until_on_turn(server, seated, "N", cards=4)
        in_play.append(server)
    recorded = games.match_create(
        actor=users["sam"], first_dealer="N", seats=dict(zip(SEATS, PLAYERS)), dealing="recorded", scorer="sam"
    )
    games.deal_start(match_id=recorded.pk, actor=users["sam"], hands=_simulated(2)["deals"][0]["hands"])
    _play_until_on_turn(recorded, dict.fromkeys(SEATS, users["sam"]), "N", cards=1)

    world = World()
    world.plays = [{"card": str(_deal(match).legal_cards(Seat.N)[0])} for match in in_play]
    world.tokens = {name: Token.objects.create(user=users[name]).key for name in ("ala", "staff")}
    # A third-party table app of ala's: reads and plays, nothing else (403 insufficient_scope elsewhere).
    world.tokens["ala-oauth"] = oauth_access_token(users["ala"], "matches:read matches:play")
    world.ids = {
        "match": [str(m.pk) for m in (finished, *in_play, recorded)],
        "dispute": [str(open_dispute.pk), str(ruled.pk)],
        "club": [club.pk],
        "league": [league.pk],
        "season": [season.pk],
        "player": [games.player_for_user(users[name]).pk for name in PLAYERS],
        "username": [*PLAYERS, "sam"],
        "code": ["not_found", "must_follow_suit", "invalid"],
    }
    return world


def _simulated(seed: int) -> dict:
    return simulate_match(
        random.Random(seed), players=dict(zip(SEATS, PLAYERS)), first_dealer=Seat.N, ruleset=Ruleset.from_options(SHORT)
    )


def _deal(match):
    return restore(MatchProjection.objects.get(pk=match.pk).snapshot).deal


def _play_until_on_turn(match, actors: dict, seat: str, *, cards: int) -> None:
    """The seat on turn plays its first legal card (``actors[seat]`` acting): at least ``cards``
    cards, then until ``seat`` is on turn."""
    played = 0
    while True:
        deal = _deal(match)
        if played >= cards and deal.to_play.name == seat:
            return
        games.card_play(
            match_id=match.pk,
            actor=actors[deal.to_play.name],
            seat=deal.to_play.name,
            card=str(deal.legal_cards(deal.to_play)[0]),
        )
        played += 1


# --- real ids in the generated inputs ------------------------------------------------------------------

# The path's first segment → the kind of its ``{id}``.
ID_KINDS = {
    "matches": "match",
    "disputes": "dispute",
    "clubs": "club",
    "leagues": "league",
    "seasons": "season",
    "players": "player",
}


class Current:
    """The world of the running test, for the hooks that draw inputs: set by the test's fixture
    (there is none yet at collection, when the schema's own examples are drawn)."""

    world: World | None = None


def mix_in_real_ids(schema) -> None:
    """Half of the generated path parameters name objects of ``Current.world``, so that operations
    reach existing objects and not only 404s; the other half stay as generated."""

    @schema.hook
    def flatmap_path_parameters(context, path_parameters):
        world = Current.world
        real = _real_values(context.operation.path, path_parameters, world.ids) if world else []
        if not real:
            return st.just(path_parameters)
        return st.one_of(st.just(path_parameters), st.sampled_from(real))

    @schema.hook
    def flatmap_body(context, body):
        """A card ala may play, in some of the plays: with a match of hers (above), a 201. On every
        operation, some bodies with a lone surrogate in each string, or each collection empty
        (issue 30, finding 7: ``"\\ud800"`` and ``"deals": []`` were 500s)."""
        world = Current.world
        hostile = [st.just(body), st.just(with_lone_surrogates(body)), st.just(emptied(body))]
        if world is None or not context.operation.path.endswith("/plays/"):
            return st.one_of(*hostile)
        return st.one_of(*hostile, st.sampled_from(world.plays))


LONE_SURROGATE = "\ud800"  # decodes from the JSON escape to text no UTF-8 can hold


def with_lone_surrogates(value):
    """``value`` with a lone surrogate appended to every string (keys included)."""
    if isinstance(value, str):
        return value + LONE_SURROGATE
    if isinstance(value, dict):
        return {with_lone_surrogates(k): with_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [with_lone_surrogates(item) for item in value]
    return value


def emptied(value):
    """``value`` with every array and every nested object emptied."""
    if isinstance(value, dict):
        return {
            key: [] if isinstance(item, list) else {} if isinstance(item, dict) else item for key, item in value.items()
        }
    return [] if isinstance(value, list) else value


def _real_values(path: str, generated, ids: dict) -> list[dict]:
    """``generated`` with its ``id``, ``username`` and ``code`` replaced by real values: one variant
    per value (of the longest list), none when the path names nothing the world has."""
    if not isinstance(generated, dict):
        return []
    kind = ID_KINDS.get(path.removeprefix("/api/v1/").split("/")[0])
    choices = {"id": ids.get(kind, []), "username": ids["username"], "code": ids["code"]}
    names = [name for name in generated if choices.get(name)]
    if not names:
        return []
    return [
        {**generated, **{name: choices[name][i % len(choices[name])] for name in names}}
        for i in range(max(len(choices[name]) for name in names))
    ]
