"""Helpers for the audit tests: simulated records played live, URLs, raw tampering."""

import random

from django.db import connection
from support import PLAYERS, PROBLEM, SEATS  # noqa: F401 - re-exported
from support.once import once_per_module
from support.world import (  # noqa: F401 - re-exported
    play_legal_cards,
    play_record,
    ratings_of,
    season_match,
    simulated,
    standings_of,
    state_of,
)

from games.engine.cards import NAMES
from games.engine.simulate import deal_hands
from games.models import MatchEvent
from games.write import services as games


def play_next_deal(match, actor, rng: random.Random, *, cards: int = 52) -> None:
    """Deal fresh random hands (a recorded match) and play ``cards`` legal cards of them."""
    hands = deal_hands(rng)
    games.deal_start(
        match_id=match.pk, actor=actor, hands={seat: [NAMES[c] for c in hand] for seat, hand in zip(SEATS, hands)}
    )
    play_legal_cards(match, actor, cards)


def with_audit_people(world):
    """tests/support's world (club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members
    ``ala``, ``bartek``, ``celina``, ``darek``; ``staff``; ``outsider``) with a member ``member``;
    ``rival`` arbitrates another club; the players have their player profiles."""
    from scoring import services as leagues

    ada = world.users["ada"]
    make = type(ada).objects.create_user
    world.users.update(member=make("member"), rival=make("rival"))
    leagues.membership_set(actor=ada, club_id=world.club.pk, username="member", role="member")
    world.other_club = leagues.club_create(actor=ada, name="Inny Klub", slug="ik")
    leagues.membership_set(actor=ada, club_id=world.other_club.pk, username="rival", role="arbiter")
    for player in PLAYERS:
        games.player_for_user(world.users[player])
    return world


def url(match_id, what: str = "") -> str:
    return f"/api/v1/matches/{match_id}/" + (f"{what}/" if what else "")


def rule(client, dispute_id, body: dict, **headers):
    return client.post(f"/api/v1/disputes/{dispute_id}/ruling/", body, format="json", headers=headers or None)


def dispute(client, match_id, body: dict):
    return client.post(url(match_id, "disputes"), body, format="json")


def db_id(match) -> object:
    """The match id as the database stores it (a uuid on PostgreSQL, 32 hex digits on SQLite)."""
    return MatchEvent._meta.get_field("match").get_db_prep_value(match.pk, connection)


def server_deal_played(world):
    """A server-dealt season match scored by ``sam``, its first deal played through (legal cards)."""
    match = season_match(world, dealing="server", scorer="sam")
    games.deal_start(match_id=match.pk, actor=world.users["sam"])
    play_legal_cards(match, world.users["sam"], 52)
    return match


def filed(world, capture, players=PLAYERS, *, by: str = "sam", seed: int = 4, deals=None, cards=None):
    """A recorded season match created and scored by ``by``, ``players`` seated, ``simulated(seed)``
    entered (``deals`` of it, ``cards`` of the last), its on-commit work run by ``capture``."""
    match = season_match(world, players, by=by)
    with capture(execute=True):
        play_record(match, simulated(seed, players), world.users[by], deals=deals, cards=cards)
    match.refresh_from_db()
    return match


def played_out(world, capture, *, seed: int = 1, deals: int | None = None):
    """A recorded season match scored by ``sam``, ``simulated(seed)`` entered (``deals`` of it: by
    default to its end), its on-commit work run by ``capture``."""
    match = season_match(world)
    with capture(execute=True):
        play_record(match, simulated(seed), world.users["sam"], deals=deals)
    match.refresh_from_db()
    return match


def world_once(*matches: tuple[int, int | None]):
    """A module-scoped fixture (support.once): the audit's world and ``played_out`` matches in it,
    one per (seed, deals), built once for the module; (world, [match, …])."""

    def build():
        from django.contrib.auth import get_user_model
        from django.test import TestCase
        from support.world import build_world

        world = with_audit_people(build_world(get_user_model()))
        capture = TestCase.captureOnCommitCallbacks
        return world, [played_out(world, capture, seed=seed, deals=deals) for seed, deals in matches]

    return once_per_module(build)


def play_to_the_end(match, actor, rng: random.Random) -> int:
    """Deal and play random legal deals until the match is over; how many deals that took."""
    played = 0
    while state_of(match).next_deal is not None:
        play_next_deal(match, actor, rng)
        played += 1
    return played


def league_figures(world) -> dict:
    """The season's standing rows and the league's ratings (current, log, history), as plain values."""
    return {"standings": standings_of(world.season), "ratings": ratings_of(world.league)}
