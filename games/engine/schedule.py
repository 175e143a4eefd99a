"""The match schedule: which deal is next, its kind, dealer and leader (R4–R7, R23–R25)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.ruleset import Kind, Ruleset
from games.engine.scoring import Compensation
from games.engine.seats import Seat


@dataclass(frozen=True, slots=True)
class ScheduledDeal:
    """A deal due: ``leader`` leads its first trick unless the lead is sold (R26)."""

    number: int
    kind: Kind
    dealer: Seat
    leader: Seat
    compensating: bool

    @property
    def lead_for_sale(self) -> bool:
        """R26: only a compensating odgrywka's lead right can be sold."""
        return self.compensating and self.kind is Kind.ODGRYWKA


@dataclass(frozen=True, slots=True)
class Schedule:
    """What is still due: the front of ``pending`` is next; compensating deals carry their leader."""

    first_dealer: Seat
    played: int
    pending: tuple[tuple[Kind, Seat | None], ...]
    voided: int = 0  # deals voided by a ruling: their replacements take their place in the rotation

    @classmethod
    def start(cls, ruleset: Ruleset, first_dealer: Seat) -> Schedule:
        """R5: the regular deals of the ruleset, in order."""
        return cls(first_dealer, 0, tuple((kind, None) for kind in ruleset.regular_deals))

    @property
    def complete(self) -> bool:
        """R7: the match ends when every regular and compensating deal has been played."""
        return not self.pending

    def next(self) -> ScheduledDeal | None:
        if not self.pending:
            return None
        kind, designated = self.pending[0]
        number = self.played + 1
        dealer = self.first_dealer.next(number - 1 - self.voided)  # R6: n − 1 places clockwise from first_dealer
        leader = designated if designated is not None else dealer.next()  # R6, R25
        return ScheduledDeal(number, kind, dealer, leader, designated is not None)

    def after(self, compensations: Sequence[Compensation]) -> Schedule:
        """R7: the deal just played is done; the compensating deals it requires come first, in order."""
        due = tuple((c.kind, c.leader) for c in compensations)
        return Schedule(self.first_dealer, self.played + 1, due + self.pending[1:], self.voided)

    def after_void(self, kind: Kind, holder: Seat | None, compensations: int) -> Schedule:
        """A ruling voided the deal just played: the ``compensations`` it required are cancelled and a
        replacement of the same kind, dealer and leader is due next; R7's order resumes after it."""
        replacement = ((kind, holder),)
        return Schedule(self.first_dealer, self.played, replacement + self.pending[compensations:], self.voided + 1)
