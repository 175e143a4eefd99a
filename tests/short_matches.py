"""Short simulated matches (two regular deals) between four fixed players, entered through the
live commands: shared by the audit and fault tests.

Imported by bare name (``from short_matches import simulated``): pytest puts ``tests/``, the
root conftest's folder, on ``sys.path``.
"""

import random
from dataclasses import dataclass

from games import services as games
from games.engine import Ruleset, Seat
from games.engine.simulate import simulate_match

PLAYERS = ("ala", "bartek", "celina", "darek")  # seats N, E, S, W
SEATS = ("N", "E", "S", "W")
SHORT = {"regular_deals": ["R", "O"]}  # two regular deals (and what they make due): quick to play
PROBLEM = "application/problem+json"


@dataclass
class World:
    """A club with a league and an open season, and the users the tests act as."""

    users: dict
    club: object
    other_club: object
    league: object
    season: object


def simulated(seed: int, players: tuple[str, ...] = PLAYERS) -> dict:
    """A finished SHORT match between ``players`` (seats N, E, S, W), first dealer N."""
    return simulate_match(
        random.Random(seed), players=dict(zip(SEATS, players)), first_dealer=Seat.N, ruleset=Ruleset.from_options(SHORT)
    )


def play_record(match, record: dict, actor, *, deals: int | None = None, cards: int | None = None) -> None:
    """The scorer enters ``record``'s deals (the first ``deals`` of them) through the live commands;
    of the last deal entered only ``cards`` cards when given."""
    chosen = record["deals"][:deals]
    for index, deal in enumerate(chosen):
        games.deal_start(match_id=match.pk, actor=actor, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(
                match_id=match.pk, actor=actor, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            games.lead_decide(match_id=match.pk, actor=actor, offer=offered.events[0].seq)
        plays = deal["plays"][:cards] if index == len(chosen) - 1 and cards is not None else deal["plays"]
        for card in plays:
            games.card_play(match_id=match.pk, actor=actor, card=card)
