"""Short simulated matches (two regular deals) between four fixed players, entered through the
live commands: shared by the audit and fault tests.

Imported by bare name (``from short_matches import simulated``): pytest puts ``tests/``, the
root conftest's folder, on ``sys.path``.
"""
import random

from games import services as games
from games.engine import Ruleset, Seat
from games.engine.simulate import simulate_match

PLAYERS = ("ala", "bartek", "celina", "darek")  # seats N, E, S, W
SEATS = ("N", "E", "S", "W")
SHORT = {"regular_deals": ["R", "O"]}  # two regular deals (and what they make due): quick to play
PROBLEM = "application/problem+json"


def simulated(seed: int) -> dict:
    """A finished SHORT match between PLAYERS, first dealer N."""
    return simulate_match(random.Random(seed), players=dict(zip(SEATS, PLAYERS)), first_dealer=Seat.N,
                          ruleset=Ruleset.from_options(SHORT))


def play_record(match, record: dict, actor, *, deals: int | None = None) -> None:
    """The scorer enters ``record``'s deals (the first ``deals`` of them) through the live commands."""
    for deal in record["deals"][:deals]:
        games.deal_start(match_id=match.pk, actor=actor, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(match_id=match.pk, actor=actor, price=deal["sale"]["price"],
                                       seat=deal["sale"]["buyer"])
            games.lead_decide(match_id=match.pk, actor=actor, offer=offered.events[0].seq)
        for card in deal["plays"]:
            games.card_play(match_id=match.pk, actor=actor, card=card)
