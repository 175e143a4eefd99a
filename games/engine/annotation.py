"""The annotated deal (issue 27): what each card played cost the player who played it.

A card's **cost** is its player's ``guaranteed`` value (``analysis.analyse``: what he secures by
his own best play against the other three) just before it, minus the same value just after it
— the value the analysis gives that card. It is never negative: his best card costs 0. A card
of another seat can only raise his ``guaranteed`` (the three play against him): that rise is
what the card **gave** him. So, for every seat, his result (R20–R22, the sale's transfer of R27
included) equals his ``guaranteed`` at the first card annotated, minus what his own cards cost,
plus what the others' cards gave him (tested as a property).

Grades, in points of the deal's final score (docs/analysis.md, "Grades", says why these):

- ``best``: cost 0; ``inaccuracy``: 1 to 9; ``mistake``: 10 to 29; ``blunder``: 30 or more.

A search cut short by its budget gives proven bounds, not values: a card's cost is then an
interval, and the card is graded only when both ends fall in one grade (a cost proven ≥ 30 is a
blunder whatever the exact figure); otherwise it is **not graded** (``grade`` None), and
accuracy (``scoring.accuracy``) leaves it out.

``ENGINE_VERSION`` names the engine's answers: a digest of the sources that decide them and of
this module. Stored annotations of another version are stale and recomputed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.analysis import Analyser, Analysis, Interval, deal_position
from games.engine.cards import NAMES, Card
from games.engine.deal import DealState
from games.engine.seats import SEATS, Seat

BEST, INACCURACY, MISTAKE, BLUNDER = "best", "inaccuracy", "mistake", "blunder"
GRADES = (BEST, INACCURACY, MISTAKE, BLUNDER)
# the least cost of each grade above ``best``, in points of the deal's final score
THRESHOLDS: tuple[tuple[int, str], ...] = ((30, BLUNDER), (10, MISTAKE), (1, INACCURACY))

# The sources whose change may change an annotation: the search, the rules and scoring it
# applies, and this module.
VERSIONED_SOURCES = (
    "analysis.py",
    "annotation.py",
    "cards.py",
    "deal.py",
    "masks.py",
    "rules.py",
    "scoring.py",
    "takes_all.py",
)


def engine_version() -> str:
    """A short digest of ``VERSIONED_SOURCES`` (read from the engine's directory)."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in VERSIONED_SOURCES:
        digest.update(name.encode())
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = engine_version()


def grade_of(cost: int) -> str:
    return next((grade for least, grade in THRESHOLDS if cost >= least), BEST)


def grade_of_bounds(cost: Interval) -> str | None:
    """The grade when both ends of the proven cost fall in one, else None (not graded)."""
    low, high = grade_of(cost.low), grade_of(cost.high)
    return low if low == high else None


@dataclass(frozen=True, slots=True)
class CardNote:
    """One card played: by whom, what it cost him (a proven range), its grade, and the card
    the analysis rates best at that position (his highest proven guaranteed) with its value."""

    play: int  # the card's index in the deal, from 0
    seat: Seat
    card: Card
    cost: Interval
    grade: str | None
    best: Card
    best_value: Interval
    value: Interval  # the played card's guaranteed value for its player

    def as_json(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "seat": self.seat.name,
            "card": NAMES[self.card],
            "cost": [self.cost.low, self.cost.high],
            "grade": self.grade,
            "best": NAMES[self.best],
            "best_value": [self.best_value.low, self.best_value.high],
            "value": [self.value.low, self.value.high],
        }


@dataclass(frozen=True, slots=True)
class DealAnnotation:
    """``positions[i]``: the analysis after ``start + i`` cards (the last one: the deal over);
    ``notes[i]``: card ``start + i``."""

    start: int
    positions: tuple[Analysis, ...]
    notes: tuple[CardNote, ...]

    @property
    def exact(self) -> bool:
        return all(p.exact for p in self.positions)

    def guaranteed(self, seat: Seat, at: int) -> Interval:
        """``seat``'s guaranteed value after ``at`` cards of the deal."""
        return self.positions[at - self.start].seat(seat).guaranteed

    def costliest(self, count: int = 3) -> list[CardNote]:
        """The cards that cost most (by proven least cost; ties: the earlier card), none of cost 0."""
        ranked = sorted((n for n in self.notes if n.cost.low > 0), key=lambda n: (-n.cost.low, n.play))
        return ranked[:count]

    def ranges_json(self) -> list[dict[str, Any]]:
        """After each position: per seat ``[worst, best]`` (proven outer) and ``guaranteed`` (least proven)."""
        return [
            {
                s.name: {"range": [a.seat(s).worst.low, a.seat(s).best.high], "guaranteed": a.seat(s).guaranteed.low}
                for s in SEATS
            }
            for a in self.positions
        ]

    def as_json(self) -> dict[str, Any]:
        return {
            "version": ENGINE_VERSION,
            "start": self.start,
            "exact": self.exact,
            "cards": [n.as_json() for n in self.notes],
            "positions": self.ranges_json(),
        }


def annotate(
    deal: DealState,
    *,
    budget: float = 10.0,
    nodes: int | None = None,
    start: int = 0,
    analyser: Callable[[DealState], Analysis] | None = None,
) -> DealAnnotation:
    """Annotate ``deal`` (finished, or as far as it went) from card ``start`` on; ``budget``
    seconds per position, or ``nodes`` (deterministic: the same deal, the same annotation).
    The positions are searched in order by one ``Analyser`` (the tables the early positions
    fill answer part of the later ones); ``analyser`` replaces the search, for tests and
    benchmarks."""
    search = Analyser()
    run = analyser or (lambda position: search.analyse(position, budget=budget, nodes=nodes))
    plays = len(deal.plays)
    positions = tuple(run(deal_position(deal, at)) for at in range(start, plays + 1))
    notes = tuple(card_note(positions[at - start], at, deal.plays[at]) for at in range(start, plays))
    return DealAnnotation(start, positions, notes)


def card_note(before: Analysis, play: int, card: Card) -> CardNote:
    """What ``card``, played at ``before``'s position, cost the seat on turn there."""
    seat = before.to_play
    values = dict(before.cards)
    value = values[card]
    # the played card itself when none is proven better, else the lowest of the best
    best, best_value = max(before.cards, key=lambda item: (item[1].low, item[0] == card, -int(item[0])))
    top = before.seat(seat).guaranteed
    cost = Interval(max(0, top.low - value.high), max(0, top.high - value.low))
    return CardNote(play, seat, Card(card), cost, grade_of_bounds(cost), best, best_value, value)
