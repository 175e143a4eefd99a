"""Helpers for the audit tests: simulated records played live, URLs, raw tampering."""

import random

from django.db import connection
from support import PLAYERS, PROBLEM, SEATS  # noqa: F401 - re-exported
from support.world import play_record, ratings_of, simulated, standings_of  # noqa: F401 - re-exported

from games import services as games
from games.engine.cards import NAMES
from games.engine.match import restore
from games.engine.simulate import deal_hands
from games.models import MatchEvent, MatchProjection


def state_of(match):
    return restore(MatchProjection.objects.get(pk=match.pk).snapshot)


def play_next_deal(match, actor, rng: random.Random, *, cards: int = 52) -> None:
    """Deal fresh random hands (a recorded match) and play ``cards`` legal cards of them."""
    hands = deal_hands(rng)
    games.deal_start(
        match_id=match.pk, actor=actor, hands={seat: [NAMES[c] for c in hand] for seat, hand in zip(SEATS, hands)}
    )
    for _ in range(cards):
        deal = state_of(match).deal
        seat = deal.to_play
        games.card_play(match_id=match.pk, actor=actor, card=str(deal.legal_cards(seat)[0]), seat=seat.name)


def url(match_id, what: str = "") -> str:
    return f"/api/v1/matches/{match_id}/" + (f"{what}/" if what else "")


def rule(client, dispute_id, body: dict, **headers):
    return client.post(f"/api/v1/disputes/{dispute_id}/ruling/", body, format="json", headers=headers or None)


def dispute(client, match_id, body: dict):
    return client.post(url(match_id, "disputes"), body, format="json")


def db_id(match) -> object:
    """The match id as the database stores it (a uuid on PostgreSQL, 32 hex digits on SQLite)."""
    return MatchEvent._meta.get_field("match").get_db_prep_value(match.pk, connection)


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
