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
from .seats import SEAT_NAMES, SEATS, Seat, by_seat


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
    holder: Seat | None = None  # who held the lead right before any sale
    voided: bool = False  # a ruling voided the deal: it no longer counts
    adjusted: tuple[int, ...] | None = None  # the points a ruling set, beside the played ``points``

    @classmethod
    def of(cls, deal: DealState) -> "DealResult":
        settled = deal.settlement()
        spec = deal.spec
        return cls(spec.number, spec.kind, spec.dealer, deal.leader, spec.compensating, tuple(deal.tricks),
                   settled.points, settled.kreski, settled.multiplier, settled.compensations, deal, spec.leader)

    @property
    def counted_points(self) -> tuple[int, ...]:
        """What the deal adds to the totals once rulings are taken into account."""
        if self.voided:
            return (0, 0, 0, 0)
        return self.adjusted if self.adjusted is not None else self.points

    def as_json(self) -> dict[str, Any]:
        """One entry of the summary's ``deals`` (RECORD_FORMAT.md); a ruled deal adds what was ruled."""
        data = {
            "number": self.number, "kind": self.kind.value, "dealer": self.dealer.name,
            "leader": self.leader.name, "compensating": self.compensating,
            "tricks": by_seat(self.tricks), "points": by_seat(self.points),
            "kreski": by_seat(self.kreski), "multiplier": self.multiplier,
        }
        if self.voided:
            data["voided"] = True
        if self.adjusted is not None:
            data["adjusted_points"] = by_seat(self.adjusted)
        return data


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
        return tuple(sum(r.counted_points[s] for r in self.results) for s in SEATS)

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

    # --- rulings: an arbiter's decision, applied as an event, never an edit -----------------------
    def void_last_deal(self) -> "MatchState":
        """The latest finished deal no longer counts: its compensating deals are cancelled and a
        replacement of the same kind, dealer and leader is due next (R7 resumes after it)."""
        if self.deal is not None or not self.results or self.results[-1].voided:
            raise errors.RulingNotAllowed(detail=errors.gettext_noop(
                "only the latest finished deal can be voided, before the next deal starts"))
        last = self.results[-1]
        schedule = self.schedule.after_void(last.kind, last.holder if last.compensating else None,
                                            len(last.compensations))
        return replace(self, results=self.results[:-1] + (replace(last, voided=True),), schedule=schedule)

    def adjust_deal(self, number: int, points: Sequence[int]) -> "MatchState":
        """The arbiter's points per seat for finished deal ``number``; the played result stays visible."""
        index = next((i for i, r in enumerate(self.results) if r.number == number), None)
        if index is None or self.results[index].voided:
            raise errors.RulingNotAllowed(detail=errors.gettext_noop(
                "deal %(number)s is not a finished deal that counts"), number=number)
        if len(points) != 4 or not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise errors.RulingNotAllowed(detail=errors.gettext_noop(
                "an adjustment gives whole points for each of N, E, S, W"))
        adjusted = replace(self.results[index], adjusted=tuple(points))
        return replace(self, results=self.results[:index] + (adjusted,) + self.results[index + 1:])

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
def snapshot(state: MatchState, results: list | None = None) -> dict[str, Any]:
    """The state as JSON: finished deals as their summaries, the deal in play as its events.
    ``results``, when given, is the JSON of ``state.results`` already at hand (a card play that
    ends no deal leaves them as they were: no need to encode them again)."""
    deal = state.deal
    return {
        "ruleset": state.ruleset.as_json(),
        "first_dealer": state.first_dealer.name,
        "played": state.schedule.played,
        "voided": state.schedule.voided,
        "pending": [[kind.letter, None if leader is None else leader.name] for kind, leader in state.schedule.pending],
        "results": [_result_json(r) for r in state.results] if results is None else results,
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
    schedule = Schedule(Seat[data["first_dealer"]], data["played"], pending, data.get("voided", 0))
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


def _result_json(result: DealResult) -> dict[str, Any]:
    data = result.as_json()
    data["holder"] = result.holder.name
    data["compensations"] = [[c.kind.letter, c.leader.name] for c in result.compensations]
    return data


def _result_from_json(data: dict[str, Any]) -> DealResult:
    def per_seat(values: dict) -> tuple[int, ...]:
        return tuple(values[name] for name in SEAT_NAMES)

    adjusted = data.get("adjusted_points")
    return DealResult(
        data["number"], Kind(data["kind"]), Seat[data["dealer"]], Seat[data["leader"]], data["compensating"],
        per_seat(data["tricks"]), per_seat(data["points"]), per_seat(data["kreski"]), data["multiplier"],
        tuple(Compensation(KIND_BY_LETTER[k], Seat[s]) for k, s in data["compensations"]), None,
        Seat[data["holder"]], data.get("voided", False), None if adjusted is None else per_seat(adjusted))
