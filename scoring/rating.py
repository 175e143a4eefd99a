"""Player ratings: openskill's Plackett–Luce model fed with each match's final placements.

Pure: plain values in, plain values out (no Django). ``services`` keeps the league's log.

- Every player starts at μ = 25, σ = 25/3 (openskill's defaults) in each league.
- A finished match is one Plackett–Luce update of its four players, ranked by their match
  totals: place 1 + the number of players with a strictly higher total, so tied totals share
  the better place (R9: ties share the win) and openskill treats them as a draw.
- Matches are rated one by one in the order they finished (their last event's time, then the
  season match id); a match that finishes out of that order is rated by replaying from it.
- The displayed ordinal is the conservative estimate μ − 3σ.
- A rating is **provisional** while σ > ``PROVISIONAL_SIGMA`` (6.5). σ falls by roughly
  0.1–0.15 per match, so in simulated clubs a player leaves it after about a dozen matches.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
PROVISIONAL_SIGMA = 6.5


class Skill(NamedTuple):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


INITIAL = Skill(MODEL.mu, MODEL.sigma)
STORED = ("mu", "sigma", "ordinal", "provisional")  # a Skill as the rating tables keep it


def placements(totals: Sequence[int]) -> list[int]:
    """Each total's place: 1 + how many totals are strictly higher (ties share the better place)."""
    return [1 + sum(other > total for other in totals) for total in totals]


def rate(skills: Mapping[Hashable, Skill], placed: Sequence[tuple[Hashable, int]]) -> dict[Hashable, Skill]:
    """The new skills of one match's players; ``placed`` is (player, place) per seat and
    ``skills`` their skills before it (a player missing there starts at ``INITIAL``)."""
    teams = []
    for player, _ in placed:
        skill = skills.get(player, INITIAL)
        teams.append([MODEL.rating(mu=skill.mu, sigma=skill.sigma)])
    rated = MODEL.rate(teams, ranks=[place for _, place in placed])
    return {player: Skill(team[0].mu, team[0].sigma) for (player, _), team in zip(placed, rated)}
