"""The arbiter's analysis: what each seat could still reach from a position of a played deal.

From any position (all four hands known, the cards played so far, the trick in progress, the
kind, the ruleset and any sale already decided) ``analyse`` computes per seat, in this deal's
final points exactly as the replay summary gives them (multipliers and kreski of R20–R22, Max's
0 and −130 of R21, the sale's transfer of R27; the compensating deals are not valued):

- ``worst`` / ``best``: the lowest / highest points the seat can end with over every legal
  continuation (all four play legally, R10–R16; legality is ``Variant.legal`` alone);
- ``guaranteed``: what the seat secures by its own best play when the other three play
  against it (its own game "one against three"; the four values need not share one line);

and for the seat on turn the ``guaranteed`` value right after each of its legal cards.

The search is a double-dummy alpha-beta over bitmask hands:

- the value of a line depends on the seat's own raw points and on *who* has taken a trick
  (R20–R22 are not linear), so a node carries both; once every seat has a trick the multiplier
  is 1 and the value is linear, which lets the transposition table store the rest-of-deal part;
  before that, an entry stored at another past still bounds the value (each line moves by the
  difference times its multiplier, whose range the seats still without a trick give);
- a transposition table at trick starts, keyed on the remaining cards with equivalent ranks
  merged (each suit as the sequence of owners, rank order, with each card's penalty class), as
  double-dummy bridge solvers do, and the suits the rules treat alike in a canonical order
  (an odgrywka's four, a rozbójnik's three other than hearts); moves are merged likewise:
  adjacent live cards of one hand with the same penalty are one move;
- bounds from what is still available (penalties and tricks left, how many seats can still
  end with no trick) cut lines that cannot matter; mid-trick, once the trick in progress is
  decided for the seat or against it, its cards and points are counted accordingly;
- moves ordered by who wins the trick and what the cards cost (in an odgrywka a discard keeps
  the high cards of the side that wants tricks), leads by the two last leads that caused a
  cutoff at the same trick number in the same search (killer moves: the search's own state, no
  clock or chance); a seat's guaranteed search reads its worst and best searches' tables
  (worst ≤ guaranteed ≤ best at every position);
- nodes kept cheap (most are trick starts the bounds or the table answer at once): the moves
  generated inline (the three variants' legality written out, ``legal_mask``), the remaining
  cards' penalties carried down the search, the bounds tried before the table's key is
  computed, the table keyed on one int, the remaining cards looked up by their union (the deal
  fixes who holds each card), the hands and the cards above each card in vectors of unboxed
  64-bit ints (librt's ``vec[i64]``: compiled, read and written as machine words, with no int
  object made and freed per card); compiled with mypyc (``compiled.py``), no name imported at a node,
  no optional or boxed pair returned, no Python call per comparison (``sort_by``), the merged
  moves computed rather than cached;
- every idea can be switched off (``SearchOptions``) and ``search_bounds`` shows the range a
  search starts from, so that tests check each against brute force; three more can be
  switched on, measured and left off because they do not pay: a decided trick's cards still to
  come counted at their cheapest, bounds at a trick start when the trick about to be led is
  decided for or against the seat, and zero-window probes instead of one full-window search
  (the slow searches are proofs that no line does better, which no window shortens);
- multi-trick bounds at trick starts (issue 27): in a rozbójnik a ×3 line needs another seat's
  trick while only the seat has one (``another_taker``), and a seat not on lead whose cards of
  each suit rank under the others' can duck every trick left (``ducking``); in an odgrywka the
  leader's top cards are tricks in a row (``quick_tricks``), and a seat that no line, even with
  all four playing for it, gives every trick left has one trick fewer (``best_tricks``: an
  exact search of those lines alone, where R16 leaves few choices); in both, a leader whose
  every card is above all the others' cards of its suit takes every trick left (``claims``);
- a budget, in seconds or (deterministic: no clock read) in nodes: past it the answer is not
  exact and each value is an interval proven by a depth-limited search whose leaves are those
  bounds, then narrowed by zero-window probes that read the exact attempt's table
  (``probe_bounds``: a probe of a ``best`` or ``worst`` search, all four playing one way, often
  finds its line at once);
- an ``Analyser`` keeps each search and its table from one position of a deal to the next
  (``analyse_deal_positions``: every position in order), since an entry holds whatever came
  before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i64

from games.engine import cards as cards_module
from games.engine import scoring as scoring_module
from games.engine.cards import NAMES, Card, iter_cards
from games.engine.deal import DealState
from games.engine.masks import RULE_ODGRYWKA, RULE_OTHER, legal_mask, masters, rule_code
from games.engine.ruleset import Kind
from games.engine.scoring import SALE_POINTS_PER_TRICK, raw_points
from games.engine.seats import SEATS, Seat
from games.engine.takes_all import all_after_first, all_from_lead, may_win_first

# The tables and constants the search reads at every node, as this module's own ``Final`` names
# (compiled, a module's own Final is a C static; a name imported from another module is a
# dictionary look-up at each use). The cards above each card are 52-bit masks: in a vec[i64] they
# are read unboxed (from a tuple, each read converts an int object).
ABOVE: Final[vec[i64]] = vec[i64](cards_module.ABOVE)
SUIT_OF: Final[tuple[int, ...]] = cards_module.SUIT_OF
CARD_PENALTY: Final[tuple[int, ...]] = scoring_module.CARD_PENALTY  # R14
POOL: Final[int] = scoring_module.POOL  # R14, R17
TRICK_PENALTY: Final[int] = scoring_module.TRICK_PENALTY  # R14
LAST_TRICK_PENALTY: Final[int] = scoring_module.LAST_TRICK_PENALTY  # R14, R15
ODGRYWKA_TRICK_POINTS: Final[int] = scoring_module.ODGRYWKA_TRICK_POINTS  # R17
HEARTS: Final[int] = cards_module.HEARTS
assert HEARTS == 1  # ``_Search.key`` sets the hearts apart by their place

INF: Final = 10**9
# the steps (``all_from_lead``, ``first_trick`` calls) one ``takes_all`` may take; past them the
# seat is taken to be able to take every trick (no bound, so still sound): a guard only
ALL_TRICKS_STEPS: Final = 4096
WORST, BEST, GUARANTEED = "worst", "best", "guaranteed"
MODES = (WORST, BEST, GUARANTEED)
# a transposition table: one int (the merged cards' id, the leader, the seats with a trick, see
# ``_Search.key``) → (low, high, past) (see ``_Search.lookup``)
Table = dict[int, tuple[int, int, int]]

# Penalty classes for the transposition key: cards of one suit with the same penalty (R14) are
# interchangeable once their relative order is kept (the king of hearts alone costs 21).
_PENALTY_CLASS = {p: i for i, p in enumerate(sorted(set(CARD_PENALTY)))}
CARD_CLASS: Final[tuple[int, ...]] = tuple(_PENALTY_CLASS[p] for p in CARD_PENALTY)
# SUIT_BITS[m]: the single bits of a 13-bit suit mask, lowest first.
SUIT_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(1 << r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
# sort keys: by penalty (R14), then by rank (one int, so that sorting compares ints, not tuples)
COSTLY_FIRST: Final[tuple[int, ...]] = tuple(-(13 * CARD_PENALTY[c] + c % 13) for c in range(52))
CHEAP_FIRST: Final[tuple[int, ...]] = tuple(13 * CARD_PENALTY[c] + c % 13 for c in range(52))
HIGH_FIRST: Final[tuple[int, ...]] = tuple(-(c % 13) for c in range(52))
TAKERS: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(16))  # seats with a trick (bits) → how many
BIT_COUNT: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(1 << 13))  # a 13-bit suit mask → how many cards
FREE_CARDS: Final = sum(1 << c for c in range(52) if not CARD_PENALTY[c])  # the cards that cost nothing (R14)
FREE_RANKS: Final = tuple(FREE_CARDS >> 13 * s & 8191 for s in range(4))
# CHEAPEST[s][m]: the least penalty among the cards of suit s in the 13-bit mask m (a large number if none)
CHEAPEST: Final[tuple[tuple[int, ...], ...]] = tuple(
    (INF,) + tuple(min(CARD_PENALTY[13 * s + r] for r in range(13) if m >> r & 1) for m in range(1, 1 << 13))
    for s in range(4)
)
SUIT_PENALTY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(CARD_PENALTY[13 * s + r] for r in range(13) if m >> r & 1) for m in range(1 << 13)) for s in range(4)
)


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The pruning ideas, each of which can be switched off (the benchmark measures each); the
    last three were measured and are off by default."""

    transpositions: bool = True  # the transposition table at trick starts
    merge_ranks: bool = True  # equivalent ranks merged in the key and among the moves
    bounds: bool = True  # cut with bounds from what is still available
    other_pasts: bool = True  # before every seat has a trick: an entry stored at another past still bounds
    shared_tables: bool = True  # a seat's guaranteed search reads its worst and best searches' tables
    penalty_order: bool = True  # move ordering that knows who wins the trick and what the cards cost
    decided_tricks: bool = True  # mid-trick: bounds once the trick in progress is decided for or against the seat
    # measured and left off (docs/analysis.md, "Speed"): they change no value but do not pay
    shed_cards: bool = False  # a decided trick's cards still to come counted at their cheapest (R14)
    decided_leads: bool = False  # trick start: bounds when whatever is led the trick must go to the seat or cannot
    null_window: bool = False  # zero-window probes bisecting the proven range instead of one full-window search
    # issue 27 (docs/analysis.md, "From the first card")
    another_taker: bool = True  # rozbójnik: a ×3 line needs another seat's trick, so the seat's pool is 2 short (R20)
    quick_tricks: bool = True  # odgrywka, trick start: the leader's top cards win tricks in a row (R16, R17)
    ducking: bool = True  # rozbójnik, trick start: not on lead, each suit under the others': it can duck the rest (R11)
    suit_symmetry: bool = True  # the table's key: suits the rules and penalties treat alike, in a canonical order
    claims: bool = True  # trick start: a leader above every other card of each of its suits takes every trick left
    # issue 27, move ordering (docs/analysis-rounds.md, "Round four")
    killer_leads: bool = True  # the last two leads that cut at this trick number, in this search, tried first
    keep_winners: bool = True  # odgrywka: a discard keeps the mover's high cards when its side wants tricks (R17)
    # issue 27, bounds (docs/analysis-rounds.md, "Round ten")
    probe_bounds: bool = True  # past the budget: half the bounds' share to probes of the exact game's table
    # odgrywka, trick start: a seat that cannot take every trick left even with all four playing
    # for it (R16) has one trick fewer and, while the others have none, a multiplier less (R22;
    # docs/analysis-rounds.md, "Round sixteen")
    best_tricks: bool = True


@dataclass(frozen=True, slots=True)
class Interval:
    """A proven range ``low ≤ value ≤ high``; ``low == high`` when exact."""

    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high

    def shifted(self, by: int) -> Interval:
        return Interval(self.low + by, self.high + by)


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    worst: Interval
    best: Interval
    guaranteed: Interval

    def as_json(self) -> dict[str, int]:
        """The conservative numbers: the lowest proven worst, the highest proven best, and the
        least the seat is proven to secure (all exact when the analysis is)."""
        return {WORST: self.worst.low, BEST: self.best.high, GUARANTEED: self.guaranteed.low}

    def bounds_json(self) -> dict[str, list[int]]:
        return {mode: [getattr(self, mode).low, getattr(self, mode).high] for mode in MODES}


@dataclass(frozen=True, slots=True)
class Analysis:
    """What each seat could still reach from one position (see the module docstring)."""

    to_play: Seat | None
    exact: bool
    seats: tuple[SeatAnalysis, ...]  # N, E, S, W
    cards: tuple[tuple[Card, Interval], ...]  # the seat on turn: each legal card's guaranteed value
    nodes: int = field(default=0, compare=False)
    seconds: float = field(default=0.0, compare=False)

    def seat(self, seat: Seat) -> SeatAnalysis:
        return self.seats[seat]

    def card_values(self) -> dict[str, int]:
        return {NAMES[c]: value.low for c, value in self.cards}

    def as_json(self) -> dict[str, Any]:
        """``{"to_play", "exact", "seats": {"N": {"worst", "best", "guaranteed"}, …}, "cards"}``;
        an inexact answer adds ``bounds`` (each value's proven ``[low, high]``)."""
        data: dict[str, Any] = {
            "to_play": self.to_play.name if self.to_play is not None else None,
            "exact": self.exact,
            "seats": {s.name: self.seats[s].as_json() for s in SEATS},
            "cards": self.card_values(),
        }
        if not self.exact:
            data["bounds"] = {
                "seats": {s.name: self.seats[s].bounds_json() for s in SEATS},
                "cards": {NAMES[c]: [v.low, v.high] for c, v in self.cards},
            }
        return data


def hand_penalties(hands: vec[i64]) -> int:
    """R14: the penalties of the cards still in the hands (the search keeps it up to date)."""
    union = hands[0] | hands[1] | hands[2] | hands[3]
    return sum(SUIT_PENALTY[s][union >> 13 * s & 8191] for s in range(4))


def compiled() -> bool:
    """Whether this module runs compiled (mypyc: its functions are not Python functions)."""
    return not hasattr(compiled, "__code__")


# Compiled, ``list.sort(key=…)`` costs a Python call per comparison and an insertion sort is
# cheaper; in the pure module the other way round (``sort_by``: the same order either way; the
# compiled test compares both builds, answers and node counts).
COMPILED: Final = compiled()


def sort_by(cards: list[int], keys: tuple[int, ...]) -> list[int]:
    """``cards`` sorted in place by ``keys[card]``, stably: compiled, an insertion sort (the lists
    are a few cards long; no call per comparison), else ``list.sort`` (the same order)."""
    if not COMPILED:
        cards.sort(key=keys.__getitem__)
        return cards
    for i in range(1, len(cards)):
        card = cards[i]
        k = keys[card]
        j = i - 1
        while j >= 0 and keys[cards[j]] > k:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card
    return cards


def sorted3(a: int, b: int, c: int) -> int:
    """Three suits' small ids (under 2**15) in ascending order, in one int (no list to sort)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a << 30 | b << 15 | c


def sorted4(a: int, b: int, c: int, d: int) -> int:
    """Four suits' small ids (under 2**15) in ascending order, in one int."""
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a << 45 | b << 30 | c << 15 | d


class _Keys:
    """The transposition keys' ids, shared by the searches of one deal (so that a seat's
    guaranteed search can read its worst and best searches' tables): the remaining cards → the
    id of their merged key (``_Search.key``), and each merged key's id (ids count up from 0).

    The cards still in the hands are keyed as one int, their union: the deal fixes who holds
    each card (an ``Analyser`` starts afresh for another deal), so the union says where each
    is. Compiled, a dictionary keyed on one int is read with one compare; keyed on the tuple of
    the four hands it hashed four ints and, on a hit, followed five pointers to compare them."""

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}  # the remaining cards → the id
        self.merged: dict[int, int] = {}  # a merged key (``_Search.key``) → its id
        # a suit's remaining cards (suit << 13 | its 13-bit mask) → 1 + the small id of its code
        # (0: not computed yet): a list read, no hash
        self.suit_ids: list[int] = [0] * (4 << 13)
        self.codes: dict[int, int] = {}  # a suit's code (``_Search.suit_code``) → its small id
        # odgrywka: whether a seat can take every trick left (``takes_all``): the remaining cards
        # (their union: the deal fixes the owners) << 4 | the leader << 2 | the seat → the answer
        self.all_tricks: dict[int, bool] = {}


class _OutOfTime(Exception):
    pass


@dataclass(slots=True)
class _Position:
    """The search's view of a ``DealState``: bitmask hands, the trick in progress, raw points."""

    hands: vec[i64]
    turn: int
    led: int
    best: int
    winner: int
    trick_penalty: int  # R14: the card penalties already in the trick in progress
    trick_mask: int
    in_trick: int
    trick_no: int
    raw: list[int]  # R14/R17 raw points so far, per seat
    taken: int  # bit s: seat s has completed a trick (R20–R22 count these)


def _position(deal: DealState) -> _Position:
    trick = deal.current_trick()
    raw = raw_points(deal.kind, deal.plays, deal.winners, deal.ruleset.last_tricks)
    taken = sum(1 << s for s in SEATS if deal.tricks[s])
    return _Position(
        vec[i64](deal.hands),
        deal.turn,
        deal.led,
        deal.best,
        deal.winner,
        sum(CARD_PENALTY[c] for _, c in trick),
        sum(1 << c for _, c in trick),
        len(trick),
        deal.trick_no,
        raw,
        taken,
    )


def sale_transfer(deal: DealState) -> tuple[int, ...]:
    """R27: what the decided sale moves, per seat (the buyer pays 10 × price to the seller)."""
    transfer = [0, 0, 0, 0]
    if deal.sale is not None:
        buyer, price = deal.sale
        transfer[buyer] -= SALE_POINTS_PER_TRICK * price
        transfer[deal.holder] += SALE_POINTS_PER_TRICK * price
    return tuple(transfer)


class _Search:
    """One seat's game in one mode: ``worst`` (everyone minimises the seat's points), ``best``
    (everyone maximises them) or ``guaranteed`` (the seat maximises, the other three minimise).
    Values are before the sale's transfer, which is a constant the caller adds."""

    def __init__(
        self, deal: DealState, seat: int, mode: str, options: SearchOptions, clock: _Clock, keys: _Keys | None = None
    ):
        self.seat = seat
        self.mode = mode
        self.options = options
        self.clock = clock
        self.legal: Callable[[int, int, int, int], int] = deal.variant.legal  # R10–R16, the one source
        self.rule = rule_code(deal.variant)  # the same masks, computed natively (``legal_mask``)
        self.rozbojnik = deal.kind is Kind.ROZBOJNIK
        last = deal.ruleset.last_tricks
        self.last_bonus = tuple(LAST_TRICK_PENALTY if t in last else 0 for t in range(15))
        self.last_left = tuple(sum(1 for x in last if x >= t) for t in range(15))  # R15 tricks still to come
        self.tt: Table = {}
        self.keys = keys if keys is not None else _Keys()
        self.ids = self.keys.ids
        self.nodes = 0
        self.decided_tricks = options.bounds and options.decided_tricks
        self.decided_leads = options.bounds and options.decided_leads
        self.shed_cards = options.shed_cards
        self.another_taker = options.bounds and options.another_taker
        # the leader's sure tricks bound the guaranteed value (from either side) and best (the seat
        # leads) or worst (another leads)
        self.quick_tricks = options.bounds and options.quick_tricks and not self.rozbojnik
        self.quick_own, self.quick_others = mode != WORST, mode != BEST
        # the seat's own ducking bounds its value from below where it chooses its cards
        self.ducking = options.bounds and options.ducking and self.rozbojnik and mode != WORST
        self.claims = options.bounds and options.claims
        self.best_tricks = options.bounds and options.best_tricks and self.rule == RULE_ODGRYWKA
        # R15: the last-trick penalties still to come from each trick on
        self.bonus_left = tuple(sum(self.last_bonus[t:14]) for t in range(15))
        # guaranteed only: the tables of the seat's worst and best searches (worst ≤ guaranteed ≤ best)
        self.floor: Table | None = None
        self.ceiling: Table = {}
        self.penalty_order = options.penalty_order
        self.keep_winners = options.keep_winners and not self.rozbojnik
        # killer leads: per trick number the last two leads that caused a cutoff ([2t], [2t + 1]);
        # the search's own state, so the same calls give the same node counts (no clock, no chance)
        self.killer_leads = options.killer_leads
        self.killers: list[int] = [-1] * 30
        # the options read at every node, as plain attributes; caches of per-position arithmetic
        self.use_tt = options.transpositions
        self.all_max, self.seat_max = mode == BEST, mode == GUARANTEED  # who maximises the seat's points
        self.use_bounds = options.bounds
        self.other_pasts = options.other_pasts
        self.merge_ranks = options.merge_ranks
        # R10–R16, R14, R17: an odgrywka treats the four suits alike, a rozbójnik the three other
        # than hearts (the same penalties, R14); a variant the search does not know, none
        self.symmetric = options.suit_symmetry and self.rule != RULE_OTHER

    # --- values ---------------------------------------------------------------------------------
    def final(self, past: int, taken: int) -> int:
        """R20–R22 for this seat at the end of the deal (raw ``past``, ``taken`` seats with a trick)."""
        s = self.seat
        takers = TAKERS[taken]
        if not taken >> s & 1:
            return -POOL if self.rozbojnik and takers == 1 else 0  # R20/R22: 0; R21: another's Max
        if self.rozbojnik:
            return 0 if takers == 1 else -(past * (5 - takers))  # R21 Max: 0; R20: × (k + 1)
        return past * (5 - takers)  # R22

    def last_trick(self, hands: vec[i64], turn: int, past: int, taken: int) -> int:
        """Trick 13 from its start: one card each, so it plays itself (R3, R11)."""
        led_card = int(hands[turn]).bit_length() - 1
        winner, top, penalty = turn, led_card, 0
        for seat in range(4):
            card = int(hands[seat]).bit_length() - 1
            penalty += CARD_PENALTY[card]
            if SUIT_OF[card] == SUIT_OF[led_card] and card > top:
                winner, top = seat, card
        if winner == self.seat:
            past += (TRICK_PENALTY + penalty + self.last_bonus[13]) if self.rozbojnik else ODGRYWKA_TRICK_POINTS
        return self.final(past, taken | 1 << winner)

    def static_bounds(
        self,
        rem: int,
        trick_penalty: int,
        trick_no: int,
        past: int,
        taken: int,
        lost: bool = False,
        shed: int = 0,
    ) -> tuple[int, int]:
        """Bounds on the final value from what is still available (sound, cheap, loose early);
        ``rem``: the penalties (R14) of the cards still in the hands (``hand_penalties``).

        ``lost``: the seat cannot take the trick in progress (it has played and is beaten, or it
        can neither follow above the best card nor win by discarding): the cards already in that
        trick and the trick itself (R14's 2, R15's 9, R17's 10) are no longer the seat's to take;
        who takes it is still open, so the counts of seats with a trick stay as they are.
        ``shed``: penalties (R14) of cards still in the hands that are sure to go elsewhere or
        are already counted in ``past`` (the cards still to come to a decided trick)."""
        s = self.seat
        left = 14 - trick_no  # tricks still to complete, the one in progress included
        mine = left - 1 if lost else left  # tricks the seat may still take
        takers = TAKERS[taken]
        k_max = 4 - takers
        k_min = k_max - left if k_max > left else 0
        has = taken >> s & 1
        if self.rozbojnik:
            pool = rem + TRICK_PENALTY * mine + LAST_TRICK_PENALTY * self.last_left[trick_no]
            if lost:
                pool -= self.last_bonus[trick_no] + shed
            else:
                pool += trick_penalty - shed
            # R20, R21: while no other seat has a trick, a line the seat does not end as Max (0)
            # has another seat take one of the tricks still to come: its 2 (R14) are not the
            # seat's (when ``lost`` the trick in progress is that trick, already left out)
            alone = self.another_taker and not lost and taken | 1 << s == 1 << s
            if not has:
                low = -POOL if takers <= 1 else 0
                if mine:  # the seat may still take a trick: then k ≤ k_max − 1, and Max only if it takes all
                    worst = -((pool - TRICK_PENALTY if alone else pool) * (k_max if k_max < 3 else 3))
                    if worst < low:
                        low = worst
                return low, 0
            if alone:
                pool -= TRICK_PENALTY
            low = -((past + pool) * (k_max + 1 if k_max < 2 else 3))
            high = 0 if taken == 1 << s else -(past * (k_min + 1))
            return low, high
        if not has:
            return 0, ODGRYWKA_TRICK_POINTS * mine * k_max
        return past * (k_min + 1), (past + ODGRYWKA_TRICK_POINTS * mine) * (k_max + 1)

    def decided(
        self,
        hands: vec[i64],
        turn: int,
        led: int,
        best: int,
        winner: int,
        tpen: int,
        rem: int,
        n: int,
        trick_no: int,
        past: int,
        taken: int,
        alpha: int = -INF,
        beta: int = INF,
    ) -> tuple[int, int]:
        """Mid-trick bounds when the trick in progress is decided for the seat or against it, else
        ``(-INF, INF)`` (a pair, never None: compiled, it is returned unboxed).

        Against: the seat has played and is beaten, or is still to play with no card of the led
        suit above the best (R11: a discard never wins). For: the seat holds the best card and
        no one still to play holds a higher one of the led suit — it takes the trick and at
        least the cards already in it (R14, R15, R17), whatever the others add. With
        ``options.shed_cards`` (rozbójnik), where those bounds alone do not cut ``(alpha, beta)``,
        the cards still to come are counted at their cheapest (``still_to_come``): to the
        seat's trick, or away from it."""
        s = self.seat
        if winner != s:
            if (s - turn) & 3 >= 4 - n or not hands[s] & ABOVE[best]:
                low, high = found = self.static_bounds(rem, tpen, trick_no, past, taken, True)
                if low >= beta or low == high or high <= alpha or not self.shed_cards:
                    return found
                shed = self.still_to_come(hands, turn, led, n)
                return self.static_bounds(rem, tpen, trick_no, past, taken, True, shed) if shed else found
            return -INF, INF
        above = ABOVE[best]
        for step in range(4 - n):
            if hands[(turn + step) & 3] & above:
                return -INF, INF
        if not self.rozbojnik:
            return self.static_bounds(rem, 0, trick_no + 1, past + ODGRYWKA_TRICK_POINTS, taken | 1 << s)
        gain = TRICK_PENALTY + tpen + self.last_bonus[trick_no]
        # the trick is the seat's: the next trick's view, the cards still to come in this one in the pool
        low, high = found = self.static_bounds(rem, 0, trick_no + 1, past + gain, taken | 1 << s)
        if low >= beta or low == high or high <= alpha or not self.shed_cards:
            return found
        shed = self.still_to_come(hands, turn, led, n)  # at least that much of them is the seat's
        return self.static_bounds(rem, 0, trick_no + 1, past + gain + shed, taken | 1 << s, False, shed)

    def still_to_come(self, hands: vec[i64], turn: int, led: int, n: int) -> int:
        """R14: the least penalty the cards still to come to the trick in progress add up to:
        each player still to play at its cheapest card of the led suit if it holds one (R11),
        else of its hand (R12 only narrows the choice); 0 outside a rozbójnik."""
        if not self.rozbojnik:
            return 0
        total = 0
        shift = 13 * led
        for step in range(4 - n):
            hand = hands[(turn + step) & 3]
            if hand & FREE_CARDS:  # a free card of the led suit, or a free discard when void
                if hand >> shift & 8191 & FREE_RANKS[led] or not hand >> shift & 8191:
                    continue
            follow = hand >> shift & 8191
            if follow:
                total += CHEAPEST[led][follow]
            else:
                total += min(CHEAPEST[t][hand >> 13 * t & 8191] for t in range(4))
        return total

    def decided_lead(
        self, hands: vec[i64], rem: int, turn: int, trick_no: int, past: int, taken: int
    ) -> tuple[int, int] | None:
        """Trick-start bounds when the trick about to be led is decided for the seat or against it
        whatever is led (the leader's legal leads, R10, R16), else None.

        Against: the seat holds no card above the leader's lowest lead of any suit it may lead.
        For: the seat leads and no one else holds a card above its lowest lead of any suit, or
        another leads and the seat holds every suit that may be led with even its lowest card
        of it above all the others' (R11, R16: it must follow, and it wins)."""
        s = self.seat
        mine = hands[s]
        leads = self.legal(hands[turn], -1, -1, trick_no)
        if turn == s:
            if masters(leads, (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine) != leads:
                return None
        else:
            lost = True
            for shift in range(0, 52, 13):
                m = leads >> shift & 8191
                if m and mine & ABOVE[shift + (m & -m).bit_length() - 1]:
                    lost = False
                    break
            if lost:
                return self.static_bounds(rem, 0, trick_no, past, taken, True)
            top = masters(mine, (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine)
            for shift in range(0, 52, 13):
                if leads >> shift & 8191:
                    m = mine >> shift & 8191
                    if not m or top >> shift & 8191 != m:
                        return None
        gain = TRICK_PENALTY + self.last_bonus[trick_no] if self.rozbojnik else ODGRYWKA_TRICK_POINTS
        # the trick is the seat's: the next trick's view, this trick's cards still in the pool
        return self.static_bounds(rem, 0, trick_no + 1, past + gain, taken | 1 << s)

    def quick(self, hands: vec[i64], turn: int, trick_no: int, past: int, taken: int) -> tuple[int, int]:
        """Odgrywka, at a trick start: bounds from the leader's sure tricks, else ``(-INF, INF)``.

        The leader's cards of a suit above every other card of it still out (or all of them, when
        no one else holds the suit) each win a trick when led (R16: no one can overtake), and it
        keeps the lead: it can take that many tricks in a row, whatever the others do. Led by the
        seat, that many are its own (R17: its points and its trick, so the multiplier of R22 is
        at least what the other seats still without a trick leave); led by another, the seat
        takes at most the tricks left beyond them, and the leader has a trick (R22)."""
        leader = hands[turn]
        top = masters(leader, (hands[0] | hands[1] | hands[2] | hands[3]) ^ leader)
        if not top:
            return -INF, INF
        sure = BIT_COUNT[top & 8191] + BIT_COUNT[top >> 13 & 8191] + BIT_COUNT[top >> 26 & 8191] + BIT_COUNT[top >> 39]
        s = self.seat
        left = 14 - trick_no
        if sure > left:
            sure = left
        without = 4 - TAKERS[taken]  # seats with no trick yet
        if turn == s:
            if not self.quick_own:
                return -INF, INF
            k_min = without - (0 if taken >> s & 1 else 1) - (left - sure)
            return (past + ODGRYWKA_TRICK_POINTS * sure) * ((k_min if k_min > 0 else 0) + 1), INF
        if not self.quick_others:
            return -INF, INF
        k_max = without - (0 if taken >> turn & 1 else 1) - (0 if taken >> s & 1 else 1)
        return -INF, (past + ODGRYWKA_TRICK_POINTS * (left - sure)) * (k_max + 1)

    def claim(self, hands: vec[i64], rem: int, turn: int, trick_no: int, past: int, taken: int) -> int:
        """At a trick start: the seat's exact value when the leader takes every trick left, else
        ``-INF``. It does when its lowest card of each suit it holds is above every card of that
        suit the others hold: whatever it leads (R10), the others follow under it or discard
        (R11, R16: no one can overtake), and a discard never wins — so it leads again. Every card
        left is then in its tricks (R14, R15, R17; R21 if it has taken every trick)."""
        leader = hands[turn]
        if masters(leader, (hands[0] | hands[1] | hands[2] | hands[3]) ^ leader) != leader:
            return -INF
        if turn != self.seat:
            return self.final(past, taken | 1 << turn)
        left = 14 - trick_no
        if self.rozbojnik:
            past += rem + TRICK_PENALTY * left + self.bonus_left[trick_no]
        else:
            past += ODGRYWKA_TRICK_POINTS * left
        return self.final(past, taken | 1 << turn)

    def tricks_high(self, hands: vec[i64], turn: int, trick_no: int, past: int, taken: int, high: int) -> int:
        """Odgrywka, at a trick start: an upper bound of the seat's value when no line, even with
        all four playing for it, gives it every trick left (``takes_all``), else ``INF``. Only
        decided when the bound would be below ``high`` (the search asks when it would cut).

        Proof. If no line gives the seat all ``left`` tricks, on every line it takes at most
        ``left − 1`` of them (R17: its raw points at most ``past + 10 (left − 1)``) and another
        seat takes one. R22: a seat that ends with no trick gets 0, below the bound; otherwise its
        points are the raw ones times ``k + 1``, ``k`` the seats with no trick at the end, none of
        them the seat: at most the other seats with no trick yet, and when none of the three
        others has one, one of them takes the trick the seat does not, so ``k ≤ 2``. The bound
        holds every line, so it bounds ``best``, and ``guaranteed`` and ``worst`` below it."""
        s = self.seat
        others = 3 - TAKERS[taken & ~(1 << s)]  # the other seats with no trick yet
        if others == 3:  # another seat takes a trick: at most two of them end without one (R22)
            others = 2
        bound = (past + ODGRYWKA_TRICK_POINTS * (13 - trick_no)) * (others + 1)
        if bound >= high or self.takes_all(hands, turn):
            return INF
        return bound

    def takes_all(self, hands: vec[i64], turn: int) -> bool:
        """Odgrywka, at a trick start led by ``turn``: whether some line (all four playing for the
        seat, R16) gives the seat every trick left; exact (``takes_all.py``), kept per remaining
        cards, leader and seat in the deal's ``_Keys``."""
        s = self.seat
        union = int(hands[0] | hands[1] | hands[2] | hands[3])
        cache = self.keys.all_tricks
        key = union << 4 | turn << 2 | s
        found = cache.get(key)
        if found is not None:
            return found
        work = [ALL_TRICKS_STEPS]
        if turn == s:
            result = all_from_lead(
                int(hands[s]), int(hands[(s + 1) & 3]), int(hands[(s + 2) & 3]), int(hands[(s + 3) & 3]), s, cache, work
            )
        else:
            result = may_win_first(hands, turn, s) and all_after_first(hands, turn, s, cache, work)
        cache[key] = result
        return result

    def ducked(self, hands: vec[i64], past: int, taken: int) -> int:
        """Rozbójnik, at a trick start another seat leads: a lower bound of the seat's value when
        it can duck every trick still to come, else ``-INF``.

        It can when in every suit its lowest card is under the lowest the others hold, its
        second lowest under their second lowest, and so on (as far as both have cards): it
        never leads again (it wins nothing), and the j-th time a suit is led, the others have
        lost at least j − 1 of its cards, so the led card is at least their j-th lowest — above
        the seat's j-th lowest, which it follows with, or a lower one (R11); it discards its
        highest of a suit, and a discard never wins. Its points are then its ``past``, times the multiplier of R20 for
        at most two seats without a trick (another takes the tricks left), or, with no trick of
        its own, 0 — or R21's −130 while one seat alone may take every trick."""
        s = self.seat
        mine = hands[s]
        others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine
        for shift in range(0, 52, 13):
            m = mine >> shift & 8191
            o = others >> shift & 8191
            while m and o:
                low_m, low_o = m & -m, o & -o
                if low_m > low_o:
                    return -INF
                m ^= low_m
                o ^= low_o
        takers = TAKERS[taken]
        if taken >> s & 1:
            k_max = 4 - takers
            return -(past * (k_max + 1 if k_max < 2 else 3))
        return -POOL if takers <= 1 else 0

    # --- the search -----------------------------------------------------------------------------
    def run(self, pos: _Position, alpha: int = -INF, beta: int = INF, depth: int = 99, leaf: int = 0) -> int:
        """The value of ``pos`` for this seat, searched ``depth`` tricks deep (all of them by
        default); at the depth limit a leaf is its low (``leaf`` 0) or high (1) static bound."""
        hands = vec[i64](pos.hands)  # a copy: the search plays its cards in it
        self.stop_trick = pos.trick_no + depth if depth < 99 else 99
        self.leaf = leaf
        return self.node(
            hands,
            pos.turn,
            pos.led,
            pos.best,
            pos.winner,
            pos.trick_penalty,
            pos.trick_mask,
            hand_penalties(hands),
            pos.in_trick,
            pos.trick_no,
            pos.raw[self.seat],
            pos.taken,
            alpha,
            beta,
        )

    def node(
        self,
        hands: vec[i64],
        turn: int,
        led: int,
        best: int,
        winner: int,
        tpen: int,
        tmask: int,
        rem: int,
        n: int,
        trick_no: int,
        past: int,
        taken: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        if not self.nodes & self.clock.mask:
            self.clock.check(self.nodes)
        if trick_no == 14:
            return self.final(past, taken)
        s = self.seat
        rozbojnik = self.rozbojnik
        key = -1  # the table's key, where it is computed
        known = (-INF, INF)  # the bounds the table entry starts from (set where ``key`` is)
        offset = 0
        if led < 0:  # a trick start: the last trick, the depth limit, the table and bounds
            if trick_no == 13 and self.stop_trick > 13:
                return self.last_trick(hands, turn, past, taken)
            if trick_no >= self.stop_trick:
                low, high = self.static_bounds(rem, 0, trick_no, past, taken)
                return high if self.leaf else low
            if self.use_bounds:
                low, high = self.static_bounds(rem, 0, trick_no, past, taken)
                if low >= beta or low == high:  # cut before the table's key is computed
                    return low
                if high <= alpha:
                    return high
            else:
                low, high = -INF, INF
            if self.use_tt:
                if taken == 15:  # every seat has a trick: multiplier 1, the past adds up
                    offset = -past if rozbojnik else past
                left = hands[0] | hands[1] | hands[2] | hands[3]
                found_id = self.ids.get(left)
                key = (self.key(hands, left) if found_id is None else found_id) << 6 | turn << 4 | taken
                t_low, t_high = self.lookup(self.tt, key, offset, past, taken, trick_no)
                if t_low > low:
                    low = t_low
                if t_high < high:
                    high = t_high
                if self.floor is not None:  # the seat's worst/best tables bound its guaranteed
                    t_low = self.lookup(self.floor, key, offset, past, taken, trick_no)[0]
                    t_high = self.lookup(self.ceiling, key, offset, past, taken, trick_no)[1]
                    if t_low > low:
                        low = t_low
                    if t_high < high:
                        high = t_high
            if self.decided_leads and low < beta and low != high and high > alpha:
                # only where the table and the availability bounds did not answer (the check costs)
                found = self.decided_lead(hands, rem, turn, trick_no, past, taken)
                if found is not None:
                    if found[0] > low:
                        low = found[0]
                    if found[1] < high:
                        high = found[1]
            if self.quick_tricks and low < beta and low != high and high > alpha:
                q_low, q_high = self.quick(hands, turn, trick_no, past, taken)
                if q_low > low:
                    low = q_low
                if q_high < high:
                    high = q_high
            if self.best_tricks and low < beta and low != high and high > alpha:
                # asked only where it would cut (``alpha + 1``): a narrower window alone saved no nodes
                t_high = self.tricks_high(hands, turn, trick_no, past, taken, alpha + 1)
                if t_high < high:
                    high = t_high
            if self.claims and low < beta and low != high and high > alpha:
                claimed = self.claim(hands, rem, turn, trick_no, past, taken)
                if claimed > -INF:
                    return claimed
            if self.ducking and turn != s and low < beta and low != high and high > alpha:
                d_low = self.ducked(hands, past, taken)
                if d_low > low:
                    low = d_low
            known = low, high
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        elif self.decided_tricks:
            low, high = self.decided(hands, turn, led, best, winner, tpen, rem, n, trick_no, past, taken, alpha, beta)
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        maximizing = self.all_max or (self.seat_max and turn == s)
        value = -INF if maximizing else INF
        a1, b1 = alpha, beta
        hand = hands[turn]
        rule = self.rule
        allowed = legal_mask(rule, hand, led, best, trick_no) if rule >= 0 else self.legal(hand, led, best, trick_no)
        cards = self.merged(hands, hand, allowed, tmask)
        if len(cards) > 1:
            cards = self.order(cards, turn, led, best, winner, maximizing)
            if n == 0 and self.killer_leads:
                cards = self.killers_first(cards, trick_no)
        if n == 3:  # R3: the trick completes with each card; its winner leads the next
            above_best = ABOVE[best]
            if rozbojnik:
                base = TRICK_PENALTY + tpen + self.last_bonus[trick_no]
            nxt = trick_no + 1
        else:
            nturn = (turn + 1) & 3
        for card in cards:
            bit = 1 << card
            hands[turn] = hand ^ bit
            crem = rem - CARD_PENALTY[card]
            if n == 3:
                nwin = turn if above_best & bit else winner
                if nwin == s:
                    v = self.node(
                        hands,
                        nwin,
                        -1,
                        -1,
                        -1,
                        0,
                        0,
                        crem,
                        0,
                        nxt,
                        past + (base + CARD_PENALTY[card] if rozbojnik else ODGRYWKA_TRICK_POINTS),
                        taken | 1 << nwin,
                        alpha,
                        beta,
                    )
                else:
                    v = self.node(hands, nwin, -1, -1, -1, 0, 0, crem, 0, nxt, past, taken | 1 << nwin, alpha, beta)
            else:
                if led < 0:
                    nled, nbest, nwin = SUIT_OF[card], card, turn
                elif ABOVE[best] & bit:
                    nled, nbest, nwin = led, card, turn
                else:
                    nled, nbest, nwin = led, best, winner
                v = self.node(
                    hands,
                    nturn,
                    nled,
                    nbest,
                    nwin,
                    tpen + CARD_PENALTY[card],
                    tmask | bit,
                    crem,
                    n + 1,
                    trick_no,
                    past,
                    taken,
                    alpha,
                    beta,
                )
            if maximizing:
                if v > value:
                    value = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            if n == 0 and self.killer_leads:
                                self.killed(card, trick_no)
                            break
            elif v < value:
                value = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        if n == 0 and self.killer_leads:
                            self.killed(card, trick_no)
                        break
        hands[turn] = hand
        if key >= 0:
            self.store(key, known, offset, value, a1, b1, past)
        return value

    def store(
        self, key: int, known: tuple[int, int], offset: int, value: int, alpha: int, beta: int, past: int
    ) -> None:
        """The table entry of a trick start searched within ``(alpha, beta)`` (fail-soft)."""
        low, high = known
        if value <= alpha:  # failed low: an upper bound
            if value < high:
                high = value
        elif value >= beta:
            if value > low:
                low = value
        else:
            low = high = value
        self.tt[key] = (low - offset, high - offset, past)

    def lookup(self, table: Table, key: int, offset: int, past: int, taken: int, trick_no: int) -> tuple[int, int]:
        """A table entry as bounds at this ``past`` (the seat's raw points so far); ``(-INF, INF)``
        when there is none (a pair, never None: compiled, it is returned unboxed).

        Entries are keyed without the past. Once every seat has a trick the value is the past
        plus the rest (``offset``). Otherwise an entry stored at another past ``p0`` still bounds
        this one: every line's value moves by (past − p0) × its multiplier (R20, R22), which
        lies between the fewest and the most seats that can end without a trick; a Max (R21)
        line of the seat's own is worth 0 whatever its past."""
        entry = table.get(key)
        if entry is None:
            return -INF, INF
        low, high, p0 = entry
        if taken == 15 or p0 == past:
            return low + offset, high + offset
        if not self.other_pasts:
            return -INF, INF
        k_max = 4 - TAKERS[taken]
        k_min = k_max - (14 - trick_no)
        if k_min < 0:
            k_min = 0
        # (the products of non-negative ints: compiled, a negative factor takes the slow path)
        d = past - p0 if past >= p0 else p0 - past
        if self.rozbojnik:  # slopes −(min(k_max, 2) + 1) and −(k_min + 1), or 0 for the seat's own Max
            a = (k_max + 1 if k_max < 2 else 3) * d
            b = 0 if taken == 1 << self.seat else (k_min + 1) * d
            if past >= p0:
                a, b = -a, -b
        else:
            a, b = (k_min + 1) * d, (k_max + 1) * d
            if past < p0:
                a, b = -a, -b
        if a > b:
            a, b = b, a
        return low + a, high + b

    def merged(self, hands: vec[i64], hand: int, legal: int, tmask: int) -> list[int]:
        """The legal cards (``legal``), lowest first (suit by suit), each run of equivalent ones as
        its lowest: the next live card up is also legal and costs the same (R14). Computed at each
        node: a cache keyed on each suit's legal and live cards cost as much in the pure module
        and more compiled (a boxed key, a hash, a compare)."""
        if not self.merge_ranks:
            return [int(c) for c in iter_cards(legal)]
        live = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        m = legal
        cards: list[int] = []
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            cards.append(c)
            penalty = CARD_PENALTY[c]
            while True:  # the next live card up is ours, legal and costs the same: the same move
                above = live & ABOVE[c]
                nxt = above & -above
                if not nxt & m:
                    break
                c2 = int(nxt).bit_length() - 1
                if CARD_PENALTY[c2] != penalty:
                    break
                m ^= nxt
                c = c2
        return cards

    def order(self, cards: list[int], turn: int, led: int, best: int, winner: int, maximizing: bool) -> list[int]:
        """Cheap ordering: the seat ducks or grabs as its side wants, the others the opposite.

        With ``options.penalty_order`` the penalties count too (R14): a discard goes to the
        seat's trick costly cards first when the mover wants the seat to take, cheap first when
        not (and the other way round when someone else is winning: what is not dumped now may
        still reach the seat); a player following under the seat's winning card plays the
        highest card that stays under it (it sheds the most)."""
        if len(cards) < 2:
            return cards
        wants_seat_to_take = maximizing != self.rozbojnik  # R14 costs, R17 pays
        s = self.seat
        if led >= 0 and cards[0] // 13 != led:  # a discard
            if self.penalty_order and self.rozbojnik and (winner == s) != wants_seat_to_take:
                return sort_by(cards, CHEAP_FIRST)
            if self.keep_winners and (turn == s) == wants_seat_to_take:
                # R17: only tricks count, so the side that wants them keeps its high cards (the
                # seat when it wants tricks, the others when they want it to have none)
                return sort_by(cards, RANK_OF)
            return sort_by(cards, COSTLY_FIRST)
        # one suit from here on (following, or a lead): ``merged`` gives the cards lowest first
        if self.penalty_order and led >= 0 and turn != s and winner == s and wants_seat_to_take:
            under = [c for c in cards if c < best]
            return under[::-1] + cards[len(under) :]
        high_first = wants_seat_to_take if turn == s else not wants_seat_to_take
        if led < 0:
            return sort_by(cards, HIGH_FIRST if high_first else RANK_OF)
        return cards[::-1] if high_first else cards

    def killers_first(self, cards: list[int], trick_no: int) -> list[int]:
        """``cards`` (leads) with this trick number's killer leads moved to the front, the latest
        first: a lead that refuted one line at a trick often refutes its neighbours (the lines
        that differ in earlier cards), and a cutoff's first move saves its siblings' subtrees."""
        for k in (self.killers[2 * trick_no + 1], self.killers[2 * trick_no]):
            if k >= 0 and cards[0] != k and k in cards:
                cards.remove(k)
                cards.insert(0, k)
        return cards

    def killed(self, card: int, trick_no: int) -> None:
        """A lead caused a cutoff at ``trick_no``: it becomes the first killer, the first the second."""
        if self.killers[2 * trick_no] != card:
            self.killers[2 * trick_no + 1] = self.killers[2 * trick_no]
            self.killers[2 * trick_no] = card

    def key(self, hands: vec[i64], left: int) -> int:
        """The id of the remaining cards ``left`` (held as ``hands``) with equivalent ranks merged:
        per suit, the owners in rank order (and, in a rozbójnik, each card's penalty class); each
        suit's code is computed once and numbered (a small id), the merged key is the suits' small
        ids in one int, and each merged key gets an id once (``_Keys``; the table's key is the id,
        the leader and the seats with a trick in one int). Two positions get one id exactly when
        their suits' codes are the same (in a canonical order of the suits ``symmetric`` allows)."""
        keys = self.keys
        merged = keys.merged
        if not self.merge_ranks:  # every set of remaining cards its own key (above any merged one)
            merged_key = 1 << 61 | left
        else:
            i0 = self.suit_id(hands, left, 0)
            i1 = self.suit_id(hands, left, 1)
            i2 = self.suit_id(hands, left, 2)
            i3 = self.suit_id(hands, left, 3)
            if self.symmetric:  # positions that differ by a swap of such suits have one value
                if self.rozbojnik:  # hearts (suit 1, ``HEARTS``) apart, the other three in order
                    merged_key = sorted3(i0, i2, i3) << 15 | i1
                else:
                    merged_key = sorted4(i0, i1, i2, i3)
            else:
                merged_key = i0 << 45 | i1 << 30 | i2 << 15 | i3
        found = merged.get(merged_key)
        if found is None:
            found = merged[merged_key] = len(merged)
        keys.ids[left] = found
        return found

    def suit_id(self, hands: vec[i64], left: int, suit: int) -> int:
        """The small id of suit ``suit``'s code (``suit_code``) for the remaining cards ``left``:
        computed once per suit and set of its cards (the deal fixes their owners)."""
        shift = 13 * suit
        slot = suit << 13 | left >> shift & 8191
        suit_ids = self.keys.suit_ids
        found = suit_ids[slot]
        if found:
            return found - 1
        raw = (
            hands[0] >> shift & 8191
            | (hands[1] >> shift & 8191) << 13
            | (hands[2] >> shift & 8191) << 26
            | (hands[3] >> shift & 8191) << 39
            | shift << 52
        )
        code = self.suit_code(raw)
        codes = self.keys.codes
        small = codes.get(code)
        if small is None:
            small = codes[code] = len(codes)
        suit_ids[slot] = small + 1
        return small

    def suit_code(self, raw: int) -> int:
        """One suit's canonical code (see ``key``): ``raw`` holds the four owners' 13-bit masks and the shift."""
        masks = [raw >> 13 * owner & 8191 for owner in range(4)]
        shift = raw >> 52
        union = masks[0] | masks[1] | masks[2] | masks[3]
        code = 1
        for bit in SUIT_BITS[union]:
            owner = next(o for o in range(4) if masks[o] & bit)
            if self.rozbojnik:
                code = code << 5 | owner << 3 | CARD_CLASS[shift + bit.bit_length() - 1]
            else:
                code = code << 2 | owner
        return code


class _Clock:
    """When one search stops: past a deadline (``seconds`` from now), or, when ``node_limit`` is
    not negative, once the search's node count passes it (the same input, the same answer).

    The search asks every ``mask + 1`` nodes (a power of two): every 1,024 for a deadline or a
    large share of nodes, more often for a small share, which would otherwise be overrun many
    times over (a share of 100 nodes ran 1,024)."""

    def __init__(self, seconds: float, node_limit: int = -1, share: int = 1 << 30):
        self.deadline = time.perf_counter() + seconds
        self.node_limit = node_limit
        self.mask = min(1024, max(16, 1 << (share // 4).bit_length())) - 1

    def check(self, nodes: int) -> None:
        if self.node_limit >= 0:
            if nodes > self.node_limit:
                raise _OutOfTime
        elif time.perf_counter() > self.deadline:
            raise _OutOfTime


class _Budget:
    """The work one analysis may do, shared out among its searches: wall seconds, or — when
    ``nodes`` is given — nodes, counted over the searches (deterministic: no clock is read)."""

    def __init__(self, seconds: float, nodes: int | None, searches: dict[tuple[int, str], _Search]):
        self.by_nodes = nodes is not None
        self.total = float(nodes) if nodes is not None else seconds
        self.searches = searches
        self.started = time.perf_counter()
        self.base = self.nodes()  # what the searches had done before (an ``Analyser``'s earlier positions)

    def nodes(self) -> int:
        return sum(search.nodes for search in self.searches.values())

    def spent(self) -> float:
        return float(self.nodes() - self.base) if self.by_nodes else time.perf_counter() - self.started

    def clock(self, search: _Search, share: float) -> _Clock:
        """A clock that stops ``search`` after ``share`` more of the budget."""
        return _Clock(0.0, search.nodes + int(share), int(share)) if self.by_nodes else _Clock(share)


def analyse(
    deal: DealState, *, budget: float = 10.0, options: SearchOptions = SearchOptions(), nodes: int | None = None
) -> Analysis:
    """The analysis of ``deal`` as it stands (see the module docstring); ``budget`` in seconds,
    or, when ``nodes`` is given, a budget of that many nodes instead (no clock read: the same
    position gives the same answer, exact or bounds, on any machine under any load)."""
    return Analyser(options).analyse(deal, budget=budget, nodes=nodes)


def analyse_deal_positions(
    deal: DealState, *, budget: float = 10.0, options: SearchOptions = SearchOptions(), nodes: int | None = None
) -> list[Analysis]:
    """The analysis of every position of ``deal`` as far as it went (0 to all its plays), each
    with its own ``budget`` (or ``nodes``), by one ``Analyser``: the searches of a position
    start from the tables the positions before it filled."""
    analyser = Analyser(options)
    return [
        analyser.analyse(deal_position(deal, plays), budget=budget, nodes=nodes) for plays in range(len(deal.plays) + 1)
    ]


class Analyser:
    """Analyses positions of one deal, keeping each seat's searches and their transposition
    tables from one position to the next: a table entry is the value of the remaining cards
    with a leader and the seats with a trick, whatever came before, so it holds at every later
    position of the deal (the sale's transfer is added outside the search). Given a position
    of another deal (other hands dealt, kind or rules), or once its tables hold more than
    ``max_entries`` entries (a bound on its memory: roughly 200 bytes an entry), it starts
    afresh."""

    def __init__(self, options: SearchOptions = SearchOptions(), max_entries: int = 2_000_000):
        self.options = options
        self.max_entries = max_entries
        self.signature: tuple[Any, ...] | None = None
        self.keys = _Keys()
        self.searches: dict[tuple[int, str], _Search] = {}

    def entries(self) -> int:
        """The entries its tables and keys hold."""
        keys = self.keys
        tables = sum(len(search.tt) for search in self.searches.values())
        return len(keys.ids) + len(keys.merged) + len(keys.all_tricks) + tables

    def analyse(self, deal: DealState, *, budget: float = 10.0, nodes: int | None = None) -> Analysis:
        """As ``analyse``, with the tables of the positions of this deal analysed before."""
        started = time.perf_counter()
        transfer = sale_transfer(deal)
        if deal.is_over:  # R29: the deal's points as settled; nothing left to choose
            points = deal.settlement().points
            seats = tuple(SeatAnalysis(*(Interval(p, p),) * 3) for p in points)
            return Analysis(None, True, seats, (), 0, time.perf_counter() - started)
        signature = (tuple(deal.hand_dealt(s) for s in SEATS), deal.kind, deal.variant, deal.ruleset.last_tricks)
        if signature != self.signature or self.entries() > self.max_entries:
            self.signature, self.keys, self.searches = signature, _Keys(), {}
        pos = _position(deal)
        turn = pos.turn
        legal = deal.legal_mask(SEATS[turn])
        groups = _card_groups(deal, pos, legal, self.options)
        jobs: list[tuple[int, str, int | None]] = [
            (s, m, None) for s in range(4) for m in MODES if not (s == turn and m == GUARANTEED)
        ]
        jobs += [(turn, GUARANTEED, rep) for rep in groups]
        work = _Budget(budget, nodes, self.searches)
        results = _run_jobs(deal, pos, jobs, self.options, work, self.keys)
        per_seat: list[SeatAnalysis] = []
        for s in range(4):
            if s == turn:
                values = [results[(s, GUARANTEED, rep)] for rep in groups]
                guaranteed = Interval(max(v.low for v in values), max(v.high for v in values))
            else:
                guaranteed = results[(s, GUARANTEED, None)]
            per_seat.append(
                SeatAnalysis(
                    results[(s, WORST, None)].shifted(transfer[s]),
                    results[(s, BEST, None)].shifted(transfer[s]),
                    guaranteed.shifted(transfer[s]),
                )
            )
        cards = tuple(
            (c, results[(turn, GUARANTEED, rep)].shifted(transfer[turn]))
            for rep, members in groups.items()
            for c in members
        )
        cards = tuple(sorted(cards, key=lambda item: int(item[0])))
        exact = all(v.exact for v in results.values())
        spent = work.nodes() - work.base
        return Analysis(SEATS[turn], exact, tuple(per_seat), cards, spent, time.perf_counter() - started)


def search_bounds(deal: DealState, seat: Seat, mode: str, options: SearchOptions = SearchOptions()) -> Interval:
    """The proven range the search starts from for ``seat``'s ``mode`` value at this position,
    before any card is searched (the sale's transfer added, as in ``analyse``): the
    availability bounds, narrowed by the decided-trick bounds when the trick in progress is
    decided for or against the seat (and, with ``options.decided_leads``, at a trick start
    when the trick about to be led is) and, in an odgrywka at a trick start, the leader's sure
    tricks (``options.quick_tricks``) and whether the seat can take every trick left
    (``options.best_tricks``) and, in a rozbójnik at a trick start another seat leads, the
    seat's ducking (``options.ducking``). Every value ``analyse`` finds lies within it."""
    transfer = sale_transfer(deal)[seat]
    if deal.is_over:
        points = deal.settlement().points[seat]
        return Interval(points, points)
    pos = _position(deal)
    search = _Search(deal, seat, mode, options, _Clock(0))
    past = pos.raw[seat]
    if options.bounds:
        low, high = search.static_bounds(hand_penalties(pos.hands), pos.trick_penalty, pos.trick_no, past, pos.taken)
    else:
        low, high = -INF, INF
    if pos.led < 0 and search.decided_leads and pos.trick_no < 13:
        found = search.decided_lead(pos.hands, hand_penalties(pos.hands), pos.turn, pos.trick_no, past, pos.taken)
        if found is not None:
            low, high = max(low, found[0]), min(high, found[1])
    if pos.led < 0 and search.quick_tricks and pos.trick_no < 13:
        q_low, q_high = search.quick(pos.hands, pos.turn, pos.trick_no, past, pos.taken)
        low, high = max(low, q_low), min(high, q_high)
    if pos.led < 0 and search.best_tricks and pos.trick_no < 13:
        high = min(high, search.tricks_high(pos.hands, pos.turn, pos.trick_no, past, pos.taken, INF))
    if pos.led < 0 and search.claims and pos.trick_no < 13:
        claimed = search.claim(pos.hands, hand_penalties(pos.hands), pos.turn, pos.trick_no, past, pos.taken)
        if claimed > -INF:
            low, high = claimed, claimed
    if pos.led < 0 and search.ducking and pos.trick_no < 13 and pos.turn != seat:
        low = max(low, search.ducked(pos.hands, past, pos.taken))
    if pos.led >= 0 and search.decided_tricks:
        found = search.decided(
            pos.hands,
            pos.turn,
            pos.led,
            pos.best,
            pos.winner,
            pos.trick_penalty,
            hand_penalties(pos.hands),
            pos.in_trick,
            pos.trick_no,
            past,
            pos.taken,
        )
        low, high = max(low, found[0]), min(high, found[1])
    return Interval(low + transfer, high + transfer)


def _card_groups(deal: DealState, pos: _Position, legal: int, options: SearchOptions) -> dict[int, list[Card]]:
    """The legal cards of the seat on turn, equivalent ones (see ``_Search.merged``) grouped
    under the one that is searched."""
    probe = _Search(deal, pos.turn, GUARANTEED, options, _Clock(0))
    groups: dict[int, list[Card]] = {}
    reps = probe.merged(pos.hands, pos.hands[pos.turn], legal, pos.trick_mask)
    for c in iter_cards(legal):
        rep = max(r for r in reps if r <= c)  # a group runs up from its representative
        groups.setdefault(rep, []).append(c)
    return groups


EXACT_ROUNDS = 2  # a search cut short is resumed once, its proven table entries kept
BOUNDS_SHARE = 0.15  # of the budget, kept for the bounds of the searches still not exact


def _run_jobs(
    deal: DealState, pos: _Position, jobs: list, options: SearchOptions, work: _Budget, keys: _Keys
) -> dict[tuple[int, str, int | None], Interval]:
    """Each job's value: exact if its search ends within its share of the budget, else the
    bounds it proves (``_proven``). Easy jobs finish early and leave their share to the
    others. ``work.searches`` holds each (seat, mode)'s search, kept for the next position."""
    searches = work.searches
    results: dict[tuple[int, str, int | None], Interval] = {}
    exact_until = (1.0 - BOUNDS_SHARE) * work.total
    pending = list(jobs)
    for _ in range(EXACT_ROUNDS):
        unfinished = []
        for index, (seat, mode, card) in enumerate(pending):
            share = max(exact_until - work.spent(), 0.0) / (len(pending) - index)
            search = searches.get((seat, mode))
            if search is None:
                search = searches[(seat, mode)] = _Search(deal, seat, mode, options, _Clock(0), keys)
                if mode == GUARANTEED and options.shared_tables and options.transpositions:
                    _share_tables(search, searches.get((seat, WORST)), searches.get((seat, BEST)))
            search.clock = work.clock(search, share)
            try:
                value = _value(search, pos, card, 99, 0)
                results[(seat, mode, card)] = Interval(value, value)
            except _OutOfTime:
                unfinished.append((seat, mode, card))
        pending = unfinished
        if not pending:
            break
    for index, (seat, mode, card) in enumerate(pending):
        share = max(work.total - work.spent(), 0.0) / (len(pending) - index)
        results[(seat, mode, card)] = _proven(searches[(seat, mode)], pos, card, work, share)
    return results


def _proven(search: _Search, pos: _Position, card: int | None, work: _Budget, share: float) -> Interval:
    """The bounds of a search that did not end within its share: a deepening search's, then
    (``probe_bounds``) narrowed by probes with what is left of ``share`` after half of it."""
    if not search.options.probe_bounds:
        return _bounded(search, pos, card, work.clock(search, share))
    begun = work.spent()
    deepened = _bounded(search, pos, card, work.clock(search, share / 2))
    left = share - (work.spent() - begun)
    return _probed_bounds(search, pos, card, deepened, work.clock(search, left))


def _share_tables(search: _Search, worst: _Search | None, best: _Search | None) -> None:
    """Let a guaranteed search read the same seat's worst and best tables: at every position
    worst ≤ guaranteed ≤ best, so the worst search's lower bounds and the best search's upper
    bounds hold for the guaranteed value too (their keys and offsets are the same)."""
    if worst is not None and best is not None:
        search.floor, search.ceiling = worst.tt, best.tt


def _bounded(search: _Search, pos: _Position, card: int | None, clock: _Clock) -> Interval:
    """The bounds that searches ``depth`` tricks deep prove, deeper until ``clock`` stops; their
    leaves are the static bounds (low for a lower bound of the value, high for an upper one)."""
    start = pos if card is None else _play(search, pos, card)
    low, high = search.static_bounds(
        hand_penalties(start.hands), start.trick_penalty, start.trick_no, start.raw[search.seat], start.taken
    )
    search.clock = clock
    exact_table, floor = search.tt, search.floor
    search.floor = None  # the depth-limited values are not the exact game's: no borrowed bounds
    try:
        for depth in range(1, 14 - pos.trick_no + 1):
            search.tt = {}
            new_low = _value(search, pos, card, depth, 0)
            search.tt = {}
            new_high = _value(search, pos, card, depth, 1)
            low, high = max(low, new_low), min(high, new_high)
    except _OutOfTime:
        pass
    finally:
        search.tt, search.floor = exact_table, floor
    return Interval(low, high)


def _probed_bounds(search: _Search, pos: _Position, card: int | None, bounds: Interval, clock: _Clock) -> Interval:
    """``bounds`` narrowed by zero-window probes of the exact game until ``clock`` stops, each
    finished probe's bound kept. The depth-limited bounds start from empty tables; the probes
    read the table the exact attempt filled (and the seat's worst and best tables), so a
    ``best`` or a ``worst`` search, all four playing one way, often finds its line at once
    (docs/analysis-rounds.md, "Round ten": the first lead's worst and best ranges half as wide)."""
    start = pos if card is None else _play(search, pos, card)
    low, high = bounds.low, bounds.high
    search.clock = clock
    try:
        while low < high:
            low, high = _probe(search, start, low, high)
    except _OutOfTime:
        pass
    return Interval(low, high)


def _value(search: _Search, pos: _Position, card: int | None, depth: int, leaf: int) -> int:
    if card is not None:
        pos, depth = _play(search, pos, card), depth + (pos.in_trick == 3)
    if depth >= 99 and search.options.null_window and search.use_bounds and search.use_tt:
        return _probed(search, pos)
    return search.run(pos, depth=depth, leaf=leaf)


def _probed(search: _Search, pos: _Position) -> int:
    """The exact value by zero-window probes: each asks whether the value reaches the middle of
    the range proven so far (the table keeps each probe's bounds for the next one)."""
    rem, past = hand_penalties(pos.hands), pos.raw[search.seat]
    low, high = search.static_bounds(rem, pos.trick_penalty, pos.trick_no, past, pos.taken)
    while low < high:
        low, high = _probe(search, pos, low, high)
    return low


def _probe(search: _Search, pos: _Position, low: int, high: int) -> tuple[int, int]:
    """One zero-window probe: does the value of ``pos`` reach the middle of the proven
    ``[low, high]``? The range, narrowed by the answer (fail-soft: often by more than half)."""
    guess = (low + high + 1) // 2
    value = search.run(pos, guess - 1, guess)
    return (value, high) if value >= guess else (low, value)


def _play(search: _Search, pos: _Position, card: int) -> _Position:
    """``pos`` after the seat on turn plays ``card`` (a card's value is the position right after it)."""
    hands = vec[i64](pos.hands)
    hands[pos.turn] ^= 1 << card
    bit = 1 << card
    if pos.led < 0:
        led, best, winner = SUIT_OF[card], card, pos.turn
    elif ABOVE[pos.best] & bit:
        led, best, winner = pos.led, card, pos.turn
    else:
        led, best, winner = pos.led, pos.best, pos.winner
    tpen = pos.trick_penalty + CARD_PENALTY[card]
    if pos.in_trick < 3:
        return _Position(
            hands,
            (pos.turn + 1) & 3,
            led,
            best,
            winner,
            tpen,
            pos.trick_mask | bit,
            pos.in_trick + 1,
            pos.trick_no,
            list(pos.raw),
            pos.taken,
        )
    raw = list(pos.raw)
    raw[winner] += (
        (TRICK_PENALTY + tpen + search.last_bonus[pos.trick_no]) if search.rozbojnik else ODGRYWKA_TRICK_POINTS
    )
    return _Position(hands, winner, -1, -1, -1, 0, 0, 0, pos.trick_no + 1, raw, pos.taken | 1 << winner)


def deal_position(deal: DealState, plays: int) -> DealState:
    """``deal`` (as far as it went) with only its first ``plays`` cards played: a new state from
    its dealt hands, its decided sale and public moves only."""
    if not 0 <= plays <= len(deal.plays):
        raise ValueError(f"the deal has {len(deal.plays)} plays: a position is 0 to {len(deal.plays)}")
    state = DealState(deal.spec, deal.ruleset, [deal.hand_dealt(s) for s in SEATS])
    if deal.sale is not None:
        buyer, price = deal.sale
        state = state.offer_lead(buyer, price).decide_lead(0)
    for card in deal.plays[:plays]:
        state = state.play(card)
    return state
