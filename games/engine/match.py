"""The state of a match: finished deals, running totals, the deal in play, what is due next
(R4–R9, R29). An immutable value: every action returns a new ``MatchState``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.engine import errors
from games.engine.deal import DealState, LeadOffer, check_offer
from games.engine.ruleset import KIND_BY_LETTER, Kind, Ruleset
from games.engine.schedule import Schedule, ScheduledDeal
from games.engine.scoring import Compensation, settle
from games.engine.seats import SEAT_NAMES, SEATS, Seat, by_seat
from games.engine.tally import check_points, check_tally, tally_json
from games.engine.tally import raw_points as tally_raw

PLAYED, TALLY, POINTS = "played", "tally", "points"  # RECORD_FORMAT.md 1.1: how a deal was filed
ENTRIES = (PLAYED, TALLY, POINTS)


@dataclass(frozen=True, slots=True)
class DealResult:
    """R29: what a finished deal reports. ``final`` is the deal as it ended (hands, plays, sale);
    a deal filed from a paper sheet (R31–R33) has none, and a points-only one no ``tricks``."""

    number: int
    kind: Kind
    dealer: Seat
    leader: Seat
    compensating: bool
    tricks: tuple[int, ...] | None
    points: tuple[int, ...]
    kreski: tuple[int, ...]
    multiplier: int
    compensations: tuple[Compensation, ...]
    final: DealState | None = field(repr=False, compare=False)  # None when restored from a snapshot
    holder: Seat | None = None  # who held the lead right before any sale
    voided: bool = False  # a ruling voided the deal: it no longer counts
    adjusted: tuple[int, ...] | None = None  # the points a ruling set, beside the played ``points``
    entry: str = PLAYED  # played, tally or points (RECORD_FORMAT.md 1.1)
    filed: dict | None = field(default=None, compare=False)  # a filed deal's tally or points, as JSON
    sale: tuple[Seat, int] | None = None  # a filed deal's sale (buyer, price); a played one's is in ``final``

    @classmethod
    def of(cls, deal: DealState) -> DealResult:
        settled = deal.settlement()
        spec = deal.spec
        return cls(
            spec.number,
            spec.kind,
            spec.dealer,
            deal.leader,
            spec.compensating,
            tuple(deal.tricks),
            settled.points,
            settled.kreski,
            settled.multiplier,
            settled.compensations,
            deal,
            spec.leader,
        )

    @property
    def known_tricks(self) -> tuple[int | None, ...]:
        """The tricks per seat as far as they are known: all of them, but for a points-only deal
        (R33) only what the points tell — no trick (0), Max (13), an odgrywka's every count."""
        if self.tricks is not None:
            return self.tricks
        if self.kind is Kind.ODGRYWKA:
            return tuple(self.filed[name] // (10 * self.multiplier) for name in SEAT_NAMES)
        if self.multiplier == 3 and 2 in self.kreski:  # R21: Max
            return tuple(13 if k == 2 else 0 for k in self.kreski)
        return tuple(0 if k else None for k in self.kreski)

    @property
    def counted_points(self) -> tuple[int, ...]:
        """What the deal adds to the totals once rulings are taken into account."""
        if self.voided:
            return (0, 0, 0, 0)
        return self.adjusted if self.adjusted is not None else self.points

    def as_json(self) -> dict[str, Any]:
        """One entry of the summary's ``deals`` (RECORD_FORMAT.md); a ruled deal adds what was ruled."""
        data = {
            "number": self.number,
            "kind": self.kind.value,
            "dealer": self.dealer.name,
            "leader": self.leader.name,
            "compensating": self.compensating,
            "tricks": None if self.tricks is None else by_seat(self.tricks),
            "points": by_seat(self.points),
            "kreski": by_seat(self.kreski),
            "multiplier": self.multiplier,
            "entry": self.entry,
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
    # R28 before the next deal is dealt or filed (a paper sheet's compensating odgrywka): the standing
    # offers, whether the holder has decided, and the offer he accepted. Handed to the deal at once.
    offers: tuple[LeadOffer, ...] = ()
    decided: bool = False
    accepted: int | None = None

    @classmethod
    def start(cls, ruleset: Ruleset, first_dealer: Seat) -> MatchState:
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
    def start_deal(self, hands: Sequence[Sequence[int]]) -> MatchState:
        """Deal the next deal due with ``hands`` (seat order N, E, S, W)."""
        if self.deal is not None:
            raise errors.DealInPlay()
        spec = self.schedule.next()
        if spec is None:
            raise errors.MatchOver()
        deal = DealState(spec, self.ruleset, hands)
        for offer in self.offers:  # offers made before the deal was dealt stand (R28)
            deal.offer_in_place(offer.buyer, offer.price)
        if self.decided:
            deal.decide_in_place(self.accepted, None)
        return replace(self, deal=deal, offers=(), decided=False, accepted=None)

    def file_deal(
        self, *, tally: Any = None, points: Any = None, sale: tuple[Any, Any] | None = None, both: bool = False
    ) -> MatchState:
        """The next deal due, finished as filed from a paper sheet (R31–R33): its ``tally`` or only
        its ``points``, and the lead ``sale`` (buyer, price) of a compensating odgrywka. ``both``:
        the deal carried more than one entry. Checks in the order of RULES.md: match_over,
        bad_tally, sale_not_allowed, bad_sale. Without ``sale``, the offer the holder accepted
        through ``decide_lead`` before the deal was filed is the sale."""
        if self.deal is not None:
            raise errors.DealInPlay()
        spec = self.schedule.next()
        if spec is None:
            raise errors.MatchOver()
        if both or (tally is None) == (points is None):
            raise errors.BadTally(detail=errors.gettext_noop("a deal carries one of hands/plays, tally or points"))
        if tally is not None:
            counts = check_tally(spec.kind, tally)
            filed = tally_json(spec.kind, counts)
        else:  # R33: any tally that gives the points gives the same kreski, multiplier and compensations
            written, counts = check_points(spec.kind, points)
            filed = dict(zip(SEAT_NAMES, written))
        tricks, raw = tuple(t.tricks for t in counts), tally_raw(spec.kind, counts)
        if sale is not None:
            offer = check_offer(spec.lead_for_sale and not self.decided, spec.leader, *sale)
        else:
            offer = None if self.accepted is None else self.offers[self.accepted]
        leader = spec.leader if offer is None else offer.buyer  # R26: the buyer leads the first trick
        settled = settle(
            spec.kind, tricks, raw, leader, None if offer is None else (spec.leader, offer.buyer, offer.price)
        )
        result = DealResult(
            spec.number,
            spec.kind,
            spec.dealer,
            leader,
            spec.compensating,
            tricks if tally is not None else None,
            settled.points,
            settled.kreski,
            settled.multiplier,
            settled.compensations,
            None,
            spec.leader,
            entry=TALLY if tally is not None else POINTS,
            filed=filed,
            sale=None if offer is None else (offer.buyer, offer.price),
        )
        return replace(
            self,
            results=self.results + (result,),
            schedule=self.schedule.after(result.compensations),
            offers=(),
            decided=False,
            accepted=None,
        )

    def play(self, card: int, *, seat: Seat | None = None) -> MatchState:
        return self.with_deal(self._current().play(card, seat=seat))

    @property
    def lead_holder(self) -> Seat | None:
        """Who holds the lead right of the deal in play, or else of the next deal due (R6, R25)."""
        if self.deal is not None:
            return self.deal.holder
        spec = self.schedule.next()
        return None if spec is None else spec.leader

    @property
    def lead_offers(self) -> tuple[LeadOffer, ...]:
        """The standing offers (R28) of the deal in play, or else of the next deal due."""
        return self.deal.offers if self.deal is not None else self.offers

    def offer_lead(self, buyer: Any, price: Any) -> MatchState:
        """R26, R28: an offer for the lead right; before the deal is dealt or filed too."""
        if self.deal is None:
            spec = self._due()
            offer = check_offer(spec.lead_for_sale and not self.decided, spec.leader, buyer, price)
            return replace(self, offers=self.offers + (offer,))
        return self.with_deal(self._current().offer_lead(buyer, price))

    def decide_lead(self, offer: int | None, *, seat: Seat | None = None) -> MatchState:
        """R28: the holder accepts standing offer number ``offer`` or keeps the lead (None)."""
        if self.deal is None:
            spec = self._due()
            if not spec.lead_for_sale or self.decided:
                raise errors.SaleNotAllowed(seat=seat)
            if seat is not None and seat != spec.leader:
                raise errors.NotYourTurn(seat=spec.leader, detail="only the lead holder decides on the offers")
            if offer is not None and (not isinstance(offer, int) or not 0 <= offer < len(self.offers)):
                raise errors.BadSale(seat=spec.leader, detail=f"no standing offer number {offer!r}")
            return replace(self, decided=True, accepted=offer)
        return self.with_deal(self._current().decide_lead(offer, seat=seat))

    def _due(self) -> ScheduledDeal:
        spec = self.schedule.next()
        if spec is None:
            raise errors.MatchOver()
        return spec

    # --- rulings: an arbiter's decision, applied as an event, never an edit -----------------------
    def void_last_deal(self) -> MatchState:
        """The latest finished deal no longer counts: its compensating deals are cancelled and a
        replacement of the same kind, dealer and leader is due next (R7 resumes after it)."""
        if self.deal is not None or not self.results or self.results[-1].voided:
            raise errors.RulingNotAllowed(
                detail=errors.gettext_noop("only the latest finished deal can be voided, before the next deal starts")
            )
        last = self.results[-1]
        schedule = self.schedule.after_void(
            last.kind, last.holder if last.compensating else None, len(last.compensations)
        )
        return replace(self, results=self.results[:-1] + (replace(last, voided=True),), schedule=schedule)

    def adjust_deal(self, number: int, points: Sequence[int]) -> MatchState:
        """The arbiter's points per seat for finished deal ``number``; the played result stays visible."""
        index = next((i for i, r in enumerate(self.results) if r.number == number), None)
        if index is None or self.results[index].voided:
            raise errors.RulingNotAllowed(
                detail=errors.gettext_noop("deal %(number)s is not a finished deal that counts"), number=number
            )
        if len(points) != 4 or not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise errors.RulingNotAllowed(
                detail=errors.gettext_noop("an adjustment gives whole points for each of N, E, S, W")
            )
        adjusted = replace(self.results[index], adjusted=tuple(points))
        return replace(self, results=self.results[:index] + (adjusted,) + self.results[index + 1 :])

    # --- corrections (issue 23): a filed deal's entry replaced, decided here, never an edit --------
    def correct_last_deal(
        self, *, tally: Any = None, points: Any = None, sale: tuple[Any, Any] | None = None
    ) -> MatchState:
        """The latest finished deal, filed from a paper sheet (R31, R33), filed again with a new
        ``tally`` or ``points`` (and ``sale``): the state is the one filing the new entry in the old
        one's place would give — the old entry's compensating deals cancelled, the new one's due
        (R7). Only the latest deal: every deal after a corrected one was scheduled by it (R6, R7),
        so a correction further back could change what was dealt after it. Not while a deal is in
        play, not for a played deal (its cards are the record), nor a voided or adjusted one (the
        ruling stands on what it ruled)."""
        last = self.results[-1] if self.results else None
        if self.deal is not None or last is None or last.entry == PLAYED or last.voided or last.adjusted is not None:
            raise errors.RulingNotAllowed(
                detail=errors.gettext_noop(
                    "only the latest finished deal filed from a paper sheet can be corrected,"
                    " before the next deal starts"
                )
            )
        due = ((last.kind, last.holder if last.compensating else None),)
        before = Schedule(
            self.schedule.first_dealer,
            self.schedule.played - 1,
            due + self.schedule.pending[len(last.compensations) :],
            self.schedule.voided,
        )
        undone = replace(self, results=self.results[:-1], schedule=before, offers=(), decided=False, accepted=None)
        return undone.file_deal(tally=tally, points=points, sale=sale)

    def _current(self) -> DealState:
        if self.deal is None:
            raise errors.MatchOver() if self.schedule.complete else errors.NoDealInPlay()
        return self.deal

    def with_deal(self, deal: DealState) -> MatchState:
        """The match with ``deal`` in play; a finished deal is settled and the schedule advances."""
        if not deal.is_over:
            return replace(self, deal=deal)
        result = DealResult.of(deal)
        return replace(
            self, deal=None, results=self.results + (result,), schedule=self.schedule.after(result.compensations)
        )


# --- snapshots: a compact JSON form, so a long match is restored without replaying every deal ---
def snapshot(state: MatchState, results: list | None = None) -> dict[str, Any]:
    """The state as JSON: finished deals as their summaries, the deal in play as its events.
    ``results``, when given, is the JSON of ``state.results`` already at hand (a card play that
    ends no deal leaves them as they were: no need to encode them again)."""
    deal = state.deal
    data = {
        "ruleset": state.ruleset.as_json(),
        "first_dealer": state.first_dealer.name,
        "played": state.schedule.played,
        "voided": state.schedule.voided,
        "pending": [[kind.letter, None if leader is None else leader.name] for kind, leader in state.schedule.pending],
        "results": [_result_json(r) for r in state.results] if results is None else results,
        "deal": None
        if deal is None
        else {
            "hands": [list(map(int, deal.hand_dealt(s))) for s in SEATS],
            "offers": [[o.buyer.name, o.price] for o in deal.offers],
            "decided": deal.decided,
            "accepted": None if deal.sale is None else _accepted_index(deal),
            "plays": list(deal.plays),
        },
    }
    if state.offers or state.decided:  # R28 before a deal is dealt or filed: rare, so only then
        data["lead_sale"] = {
            "offers": [[o.buyer.name, o.price] for o in state.offers],
            "decided": state.decided,
            "accepted": state.accepted,
        }
    return data


def restore(data: dict[str, Any]) -> MatchState:
    """The inverse of ``snapshot``. Restored results carry no ``final`` deal."""
    options = data["ruleset"]
    ruleset = Ruleset.from_options(options["options"], name=options["name"], version=options["version"])
    pending = tuple((KIND_BY_LETTER[k], None if s is None else Seat[s]) for k, s in data["pending"])
    schedule = Schedule(Seat[data["first_dealer"]], data["played"], pending, data.get("voided", 0))
    results = tuple(_result_from_json(r) for r in data["results"])
    state = MatchState(ruleset, Seat[data["first_dealer"]], schedule, results)
    pending = data.get("lead_sale")
    if pending is not None:
        state = replace(
            state,
            offers=tuple(LeadOffer(Seat[b], p) for b, p in pending["offers"]),
            decided=pending["decided"],
            accepted=pending["accepted"],
        )
    saved = data["deal"]
    if saved is None:
        return state
    state = state.start_deal(saved["hands"])
    deal = state.deal
    for buyer, price in saved["offers"]:
        deal.offer_in_place(buyer, price)
    if saved["decided"]:
        deal.decide_in_place(saved["accepted"], None)
    for card in saved["plays"]:
        deal.play_in_place(card)
    return state


def _accepted_index(deal: DealState) -> int:
    buyer, price = deal.sale
    return next(i for i, o in enumerate(deal.offers) if (o.buyer, o.price) == (buyer, price))


def _result_json(result: DealResult) -> dict[str, Any]:
    data = result.as_json()
    data["holder"] = result.holder.name
    data["compensations"] = [[c.kind.letter, c.leader.name] for c in result.compensations]
    if result.filed is not None:
        data["filed"] = result.filed
        data["sale"] = None if result.sale is None else [result.sale[0].name, result.sale[1]]
    return data


def _result_from_json(data: dict[str, Any]) -> DealResult:
    def per_seat(values: dict) -> tuple[int, ...]:
        return tuple(values[name] for name in SEAT_NAMES)

    adjusted = data.get("adjusted_points")
    tricks = data["tricks"]
    sale = data.get("sale")
    return DealResult(
        data["number"],
        Kind(data["kind"]),
        Seat[data["dealer"]],
        Seat[data["leader"]],
        data["compensating"],
        None if tricks is None else per_seat(tricks),
        per_seat(data["points"]),
        per_seat(data["kreski"]),
        data["multiplier"],
        tuple(Compensation(KIND_BY_LETTER[k], Seat[s]) for k, s in data["compensations"]),
        None,
        Seat[data["holder"]],
        data.get("voided", False),
        None if adjusted is None else per_seat(adjusted),
        data.get("entry", PLAYED),
        data.get("filed"),
        None if sale is None else (Seat[sale[0]], sale[1]),
    )
