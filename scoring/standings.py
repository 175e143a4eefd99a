"""Season standings from match lines: pure functions over plain values (no Django).

A *line* is one player's result in one finished match; a *tally* sums a player's lines over a
season (``tally``; the services compute the same sums in SQL); ``rank`` orders the tallies:

1. total balance (Σ points, the seed's "bilans"; R9), higher first;
2. balance per match (the exact ratio), higher first;
3. matches won (a shared win counts for each winner), more first;
4. head-to-head balance among the players still tied: each one's balance summed over the
   season's matches in which he met at least one other of them, higher first.

Players still tied after all four share the position (1, 2, 2, 4) and are listed by name.
Players with fewer finished matches than the season's ``min_matches`` form an unranked tail
below, ordered the same way, with no position.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import datetime
from fractions import Fraction
from typing import NamedTuple

from .rating import INITIAL, Skill


def counts(*, status: str, confirmed: bool, withdrawn: bool) -> bool:
    """Whether a season match counts in standings and ratings: finished, its result confirmed
    by the table (``games.domain.confirmation``), and not withdrawn by an arbiter. The one place this
    is decided: the incremental recompute and the full rebuild both ask it."""
    return status == "finished" and confirmed and not withdrawn


class Line(NamedTuple):
    """One player's result in one finished match."""

    match: Hashable
    player: Hashable
    total: int  # Σ points of the match
    deals: int
    kreski: int
    max_deals: int  # rozbójniki where he took all 13 tricks (R21)
    zero_odgrywki: int  # odgrywki where he took no trick (R22)
    place: int  # 1–4, ties share the better place
    finished_at: datetime


class Tally(NamedTuple):
    """One player's season: the sums of his lines."""

    player: Hashable
    matches: int
    wins: int
    first: int
    second: int
    third: int
    fourth: int
    deals: int
    balance: int
    best_match: int
    worst_match: int
    kreski: int
    max_deals: int
    zero_odgrywki: int
    last_played: datetime

    @property
    def per_match(self) -> Fraction:
        return Fraction(self.balance, self.matches)


class Row(NamedTuple):
    """A line of the standings: ``position`` None for the unranked tail."""

    position: int | None
    ranked: bool
    tally: Tally
    skill: Skill


def tally(lines: Iterable[Line]) -> dict[Hashable, Tally]:
    """Each player's sums over ``lines`` (the reference for the services' SQL aggregate)."""
    by_player: dict[Hashable, list[Line]] = defaultdict(list)
    for line in lines:
        by_player[line.player].append(line)
    tallies = {}
    for player, own in by_player.items():
        places = [sum(1 for line in own if line.place == place) for place in (1, 2, 3, 4)]
        totals = [line.total for line in own]
        tallies[player] = Tally(
            player=player,
            matches=len(own),
            wins=places[0],
            first=places[0],
            second=places[1],
            third=places[2],
            fourth=places[3],
            deals=sum(line.deals for line in own),
            balance=sum(totals),
            best_match=max(totals),
            worst_match=min(totals),
            kreski=sum(line.kreski for line in own),
            max_deals=sum(line.max_deals for line in own),
            zero_odgrywki=sum(line.zero_odgrywki for line in own),
            last_played=max(line.finished_at for line in own),
        )
    return tallies


def head_to_head(lines: Iterable[Line], players: frozenset) -> dict[Hashable, int]:
    """Each of ``players``' balance over the matches where he met at least one other of them."""
    by_match: dict[Hashable, list[Line]] = defaultdict(list)
    for line in lines:
        if line.player in players:
            by_match[line.match].append(line)
    balance = dict.fromkeys(players, 0)
    for met in by_match.values():
        if len(met) >= 2:
            for line in met:
                balance[line.player] += line.total
    return balance


LinesOf = Callable[[frozenset], Iterable[Line]]  # the lines of the given players (for head-to-head)


def rank(
    tallies: Iterable[Tally],
    lines_of: LinesOf,
    *,
    min_matches: int = 0,
    skills: Mapping[Hashable, Skill] | None = None,
    names: Mapping[Hashable, str] | None = None,
) -> list[Row]:
    """The standings: ranked players, then the unranked tail (see the module's docstring)."""
    skills = skills or {}
    name = (lambda player: names[player]) if names is not None else str
    ranked, unranked = [], []
    for one in tallies:
        (ranked if one.matches >= min_matches else unranked).append(one)
    rows = []
    for group, is_ranked in ((ranked, True), (unranked, False)):
        for position, one in _ordered(group, lines_of, name):
            rows.append(Row(position if is_ranked else None, is_ranked, one, skills.get(one.player, INITIAL)))
    return rows


def standings(lines: Iterable[Line], **options) -> list[Row]:
    """``rank`` over ``lines`` alone: what the services compute, in one call (for tests)."""
    lines = list(lines)
    return rank(tally(lines).values(), lambda players: [line for line in lines if line.player in players], **options)


def _key(one: Tally) -> tuple:
    return (-one.balance, -one.per_match, -one.wins)


def _ordered(group: list[Tally], lines_of: LinesOf, name) -> list[tuple[int, Tally]]:
    """(position, tally) in order; equal keys after head-to-head share the position."""
    tied: dict[tuple, list[Tally]] = defaultdict(list)
    for one in group:
        tied[_key(one)].append(one)
    keyed = []
    for key, players in tied.items():
        h2h = {players[0].player: 0}
        if len(players) > 1:
            who = frozenset(one.player for one in players)
            h2h = head_to_head(lines_of(who), who)
        keyed.extend(((*key, -h2h[one.player]), name(one.player), one) for one in players)
    keyed.sort(key=lambda item: item[:2])
    result, position = [], 0
    for index, (key, _, one) in enumerate(keyed):
        if index == 0 or key != keyed[index - 1][0]:
            position = index + 1
        result.append((position, one))
    return result
