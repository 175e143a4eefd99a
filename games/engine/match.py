"""The state of a match: finished deals, running totals, the deal in play, what is due next
(R4–R9, R29). An immutable value: every action returns a new ``MatchState``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from . import errors
from .deal import DealState
from .ruleset import KIND_BY_LETTER, Kind, Ruleset
from .schedule import Schedule, ScheduledDeal
from .scoring import Compensation
from .seats import SEATS, Seat, by_seat


@dataclass(frozen=True, slots=True)
class DealResult:
    """R29: what a finished deal reports. ``final`` is the deal as it ended (hands, plays, sale)."""

    number: int
    kind: Kind
    dealer: Seat
    leader: Seat
    compensating: bool
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    kreski: tuple[int, ...]
    multiplier: int
    compensations: tuple[Compensation, ...]
    final: DealState | None = field(repr=False, compare=False)  # None when restored from a snapshot

    @classmethod
    def of(cls, deal: DealState) -> "DealResult":
        settled = deal.settlement()
        spec = deal.spec
        return cls(spec.number, spec.kind, spec.dealer, deal.leader, spec.compensating, tuple(deal.tricks),
                   settled.points, settled.kreski, settled.multiplier, settled.compensations, deal)

    def as_json(self) -> dict[str, Any]:
        """One entry of the summary's ``deals`` (RECORD_FORMAT.md)."""
        return {
            "number": self.number, "kind": self.kind.value, "dealer": self.dealer.name,
            "leader": self.leader.name, "compensating": self.compensating,
            "tricks": by_seat(self.tricks), "points": by_seat(self.points),
            "kreski": by_seat(self.kreski), "multiplier": self.multiplier,
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    ruleset: Ruleset
    first_dealer: Seat
    schedule: Schedule
    results: tuple[DealResult, ...] = ()
    deal: DealState | None = None

    @classmethod
    def start(cls, ruleset: Ruleset, first_dealer: Seat) -> "MatchState":
        return cls(ruleset, first_dealer, Schedule.start(ruleset, first_dealer))

    # --- reading ---------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """R7: every regular and compensating deal has been played."""
        return self.deal is None and self.schedule.complete

    @property
    def next_deal(self) -> ScheduledDeal | None:
        """The deal due to be dealt next (None while a deal is in play or the match is over)."""
        return None if self.deal is not None else self.schedule.next()

    @property
    def totals(self) -> tuple[int, ...]:
        """R9: running totals over the finished deals."""
        return tuple(sum(r.points[s] for r in self.results) for s in SEATS)

    @property
    def winners(self) -> tuple[Seat, ...]:
        """R9: the seats with the highest total, once the match is over (ties share the win)."""
        if not self.complete:
            return ()
        totals = self.totals
        best = max(totals)
        return tuple(s for s in SEATS if totals[s] == best)

    def summary(self) -> dict[str, Any]:
        """The replay summary of RECORD_FORMAT.md."""
        return {
            "complete": self.complete,
            "deals": [r.as_json() for r in self.results],
            "totals": by_seat(self.totals),
            "winners": [s.name for s in self.winners],
        }

    # --- acting ---------------------------------------------------------------------------
    def start_deal(self, hands: Sequence[Sequence[int]]) -> "MatchState":
        """Deal the next deal due with ``hands`` (seat order N, E, S, W)."""
        if self.deal is not None:
            raise errors.DealInPlay()
        spec = self.schedule.next()
        if spec is None:
            raise errors.MatchOver()
        return replace(self, deal=DealState(spec, self.ruleset, hands))

    def play(self, card: int, *, seat: Seat | None = None) -> "MatchState":
        return self._with(self._current().play(card, seat=seat))

    def offer_lead(self, buyer: Any, price: Any) -> "MatchState":
        return self._with(self._current().offer_lead(buyer, price))

    def decide_lead(self, offer: int | None, *, seat: Seat | None = None) -> "MatchState":
        return self._with(self._current().decide_lead(offer, seat=seat))

    def _current(self) -> DealState:
        if self.deal is None:
            raise errors.MatchOver() if self.schedule.complete else errors.NoDealInPlay()
        return self.deal

    def _with(self, deal: DealState) -> "MatchState":
        """The match with ``deal`` in play; a finished deal is settled and the schedule advances."""
        if not deal.is_over:
            return replace(self, deal=deal)
        result = DealResult.of(deal)
        return replace(self, deal=None, results=self.results + (result,),
                       schedule=self.schedule.after(result.compensations))


# --- snapshots: a compact JSON form, so a long match is restored without replaying every deal ---
def snapshot(state: MatchState) -> dict[str, Any]:
    """The state as JSON: finished deals as their summaries, the deal in play as its events."""
    deal = state.deal
    return {
        "ruleset": state.ruleset.as_json(),
        "first_dealer": state.first_dealer.name,
        "played": state.schedule.played,
        "pending": [[kind.letter, None if leader is None else leader.name] for kind, leader in state.schedule.pending],
        "results": [r.as_json() for r in state.results],
        "deal": None if deal is None else {
            "hands": [list(map(int, deal.hand_dealt(s))) for s in SEATS],
            "offers": [[o.buyer.name, o.price] for o in deal.offers],
            "decided": deal.decided,
            "accepted": None if deal.sale is None else _accepted_index(deal),
            "plays": list(deal.plays),
        },
    }


def restore(data: dict[str, Any]) -> MatchState:
    """The inverse of ``snapshot``. Restored results carry no ``final`` deal."""
    options = data["ruleset"]
    ruleset = Ruleset.from_options(options["options"], name=options["name"], version=options["version"])
    pending = tuple((KIND_BY_LETTER[k], None if s is None else Seat[s]) for k, s in data["pending"])
    schedule = Schedule(Seat[data["first_dealer"]], data["played"], pending)
    results = tuple(_result_from_json(r) for r in data["results"])
    state = MatchState(ruleset, Seat[data["first_dealer"]], schedule, results)
    saved = data["deal"]
    if saved is None:
        return state
    state = state.start_deal(saved["hands"])
    deal = state.deal
    for buyer, price in saved["offers"]:
        deal._offer(buyer, price)
    if saved["decided"]:
        deal._decide(saved["accepted"], None)
    for card in saved["plays"]:
        deal._play(card)
    return state


def _accepted_index(deal: DealState) -> int:
    buyer, price = deal.sale
    return next(i for i, o in enumerate(deal.offers) if (o.buyer, o.price) == (buyer, price))


def _result_from_json(data: dict[str, Any]) -> DealResult:
    per_seat = lambda key: tuple(data[key][s.name] for s in SEATS)  # noqa: E731
    return DealResult(data["number"], Kind(data["kind"]), Seat[data["dealer"]], Seat[data["leader"]],
                      data["compensating"], per_seat("tricks"), per_seat("points"), per_seat("kreski"),
                      data["multiplier"], (), None)
