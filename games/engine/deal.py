"""The state of one deal: hands, the trick in play, tricks taken, whose turn, the lead sale.

``DealState`` is a value: ``play``, ``force``, ``offer_lead`` and ``decide_lead`` return a new
state, and ``check`` says what a card would break without playing it. Whoever owns a state
(replay, a snapshot being restored) may step it in place through ``play_in_place``,
``offer_in_place`` and ``decide_in_place`` — the same code, without a copy per card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import errors
from games.engine.cards import ABOVE, CARDS, DECK_MASK, SUIT_OF, Card, cards_of, mask_of
from games.engine.rules import Variant, variant
from games.engine.ruleset import Kind, Ruleset
from games.engine.schedule import ScheduledDeal
from games.engine.scoring import Settlement, raw_points, settle
from games.engine.seats import SEATS, Seat

CARDS_PER_DEAL = 52
MIN_PRICE, MAX_PRICE = 1, 13  # R26


@dataclass(frozen=True, slots=True)
class LeadOffer:
    """R28: a standing offer to buy the lead right for ``price`` tricks."""

    buyer: Seat
    price: int


def check_offer(can_sell: bool, holder: Seat, buyer: Any, price: Any) -> LeadOffer:
    """R26: an offer of ``price`` tricks by ``buyer`` (a seat, as written) for the lead ``holder``
    holds, when the lead can be sold at all — or ``SaleNotAllowed``/``BadSale`` (R30 order)."""
    # RECORD_FORMAT 1.1: a faulty sale's error names the buyer when he is a seat, else null.
    seat = Seat.__members__.get(buyer) if isinstance(buyer, str) else (buyer if isinstance(buyer, Seat) else None)
    named = None if seat is None else buyer
    if not can_sell:
        raise errors.SaleNotAllowed(seat=named)
    if seat is None or seat == holder:
        raise errors.BadSale(seat=named, detail=errors.gettext_noop("the buyer must be another player at the table"))
    if not isinstance(price, int) or isinstance(price, bool) or not MIN_PRICE <= price <= MAX_PRICE:
        raise errors.BadSale(
            seat=seat,
            detail=errors.gettext_noop("the price must be a whole number of tricks 1-13, got %(price)s"),
            price=repr(price),
        )
    return LeadOffer(seat, price)


def check_hands(hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The four hands as bitmasks, or ``BadHands``: not 4 × 13 distinct cards of one deck (R2)."""
    if any(not isinstance(c, int) or not 0 <= c < 52 for hand in hands for c in hand):
        raise errors.BadHands(detail=errors.gettext_noop("a hand holds something that is not a card"))
    masks = tuple(mask_of(hand) for hand in hands)
    whole = 0
    for mask in masks:
        whole |= mask
    if len(hands) != 4 or any(len(h) != 13 for h in hands) or whole != DECK_MASK:
        raise errors.BadHands()
    return masks


class DealState:
    __slots__ = (
        "spec",
        "ruleset",
        "variant",
        "dealt",
        "hands",
        "leader",
        "turn",
        "led",
        "best",
        "winner",
        "trick_no",
        "plays",
        "winners",
        "tricks",
        "offers",
        "decided",
        "sale",
        "_legal",
    )

    def __init__(self, spec: ScheduledDeal, ruleset: Ruleset, hands: Sequence[Sequence[int]]):
        """Deal ``hands`` (in seat order N, E, S, W) for the scheduled deal ``spec``."""
        self.spec = spec
        self.ruleset = ruleset
        self.variant: Variant = variant(spec.kind, ruleset)
        self._legal = self.variant.legal
        self.dealt = check_hands(hands)
        self.hands = list(self.dealt)
        self.leader = spec.leader  # R6, R25; a sale changes it (R26)
        self.turn = int(spec.leader)
        self.led = -1  # no card in the trick yet
        self.best = -1
        self.winner = -1
        self.trick_no = 1
        self.plays: list[int] = []
        self.winners: list[int] = []
        self.tricks = [0, 0, 0, 0]
        self.offers: tuple[LeadOffer, ...] = ()
        self.decided = False
        self.sale: tuple[Seat, int] | None = None  # (buyer, price)

    # --- reading -----------------------------------------------------------------------
    @property
    def kind(self) -> Kind:
        return self.spec.kind

    @property
    def holder(self) -> Seat:
        """Who holds the lead right before any sale (R6, R25)."""
        return self.spec.leader

    @property
    def to_play(self) -> Seat | None:
        """The seat on turn; None once the deal is over."""
        return None if self.is_over else SEATS[self.turn]

    @property
    def is_over(self) -> bool:
        return len(self.plays) == CARDS_PER_DEAL

    @property
    def can_sell_lead(self) -> bool:
        """R26, R28: a compensating odgrywka, before the holder's decision and the first card."""
        return self.spec.lead_for_sale and not self.decided and not self.plays

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` holds now."""
        return cards_of(self.hands[seat])

    def hand_dealt(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` was dealt."""
        return cards_of(self.dealt[seat])

    def legal_mask(self, seat: Seat) -> int:
        """The one source of legality (R10–R16): the cards ``seat`` may play now, as a bitmask."""
        if self.is_over or seat != self.turn:
            return 0
        return self._legal(self.hands[seat], self.led, self.best, self.trick_no)

    def legal_cards(self, seat: Seat) -> tuple[Card, ...]:
        return cards_of(self.legal_mask(seat))

    def current_trick(self) -> list[tuple[Seat, Card]]:
        """The cards of the trick in play, with who played them."""
        start = len(self.plays) - len(self.plays) % 4
        return self._trick_at(start, self.plays[start:])

    def completed_tricks(self) -> list[tuple[Seat, list[tuple[Seat, Card]]]]:
        """Each finished trick: its winner and its cards with who played them."""
        return [(SEATS[w], self._trick_at(4 * i, self.plays[4 * i : 4 * i + 4])) for i, w in enumerate(self.winners)]

    def _trick_at(self, start: int, cards: list[int]) -> list[tuple[Seat, Card]]:
        first = self.leader if start == 0 else self.winners[start // 4 - 1]
        return [(SEATS[(first + i) % 4], CARDS[c]) for i, c in enumerate(cards)]

    def check(self, card: int) -> errors.RuleViolation | None:
        """What playing ``card`` now would break, in R30 order, or None when it is legal:
        ``deal_over`` (R2) after the 52nd card; ``not_your_turn`` (R1) for a card in another
        player's hand, ``card_not_in_hand`` (R2) for one in nobody's; else the first rule of the
        deal's variant that forbids it (R10–R12c, R16: ``Variant.violation``), its ``seat`` the
        seat on turn. None exactly for the cards of ``legal_cards(to_play)``."""
        if self.is_over:
            return errors.DealOver(card=CARDS[card])
        hand = self.hands[self.turn]
        if not hand >> card & 1:
            return self._not_held(card)
        return self._broken(hand, card)

    def settlement(self) -> Settlement:
        """R14–R27 for a finished deal."""
        raw = raw_points(self.kind, self.plays, self.winners, self.ruleset.last_tricks)
        sale = (self.holder, self.sale[0], self.sale[1]) if self.sale else None
        return settle(self.kind, self.tricks, raw, self.leader, sale)

    # --- acting: each returns a new state ------------------------------------------------
    def play(self, card: int, *, seat: Seat | None = None) -> DealState:
        """``card`` played by the seat on turn; ``seat``, when given, is who claims to act.

        With ``seat`` the checks never reveal where a card is: a card outside the actor's
        own hand is ``card_not_in_hand``.
        """
        if seat is not None and not self.is_over:
            if seat != self.turn:
                raise errors.NotYourTurn(seat=SEATS[self.turn], card=CARDS[card])
            if not self.hands[seat] >> card & 1:
                raise errors.CardNotInHand(
                    seat=SEATS[self.turn], card=CARDS[card], detail=errors.gettext_noop("the card is not in your hand")
                )
        state = self._copy()
        state.play_in_place(card)
        return state

    def force(self, card: int) -> DealState:
        """``card`` put on the table by the seat on turn even when a rule of play forbids it
        (R10–R12c, R16): how the viewer steps through a record as written, past an illegal play,
        to show how it goes on. A card the seat on turn does not hold, or a play after the
        52nd, cannot be put on the table: it raises what ``check`` names (R1, R2), as ``play``
        does. For a legal card it is ``play(card)``."""
        state = self._copy()
        state.play_in_place(card, forced=True)
        return state

    def offer_lead(self, buyer: Any, price: Any) -> DealState:
        state = self._copy()
        state.offer_in_place(buyer, price)
        return state

    def decide_lead(self, offer: int | None, *, seat: Seat | None = None) -> DealState:
        """R28: the holder accepts standing offer number ``offer`` (0-based) or keeps the lead (None)."""
        state = self._copy()
        state.decide_in_place(offer, seat)
        return state

    # --- in place: for the owner of the state (replay, restore) and the methods above --------
    def play_in_place(self, card: int, *, forced: bool = False) -> None:
        """``play(card)`` on this state itself, for a state its caller owns (``force(card)``
        when ``forced``): R1, R2, then R10–R16 unless forced; the card goes on the table and a
        full trick is taken by its winner, who leads the next (R3)."""
        plays = self.plays
        if len(plays) == CARDS_PER_DEAL:
            raise errors.DealOver(card=CARDS[card])
        seat = self.turn
        hand = self.hands[seat]
        bit = 1 << card
        if not hand & bit:
            raise self._not_held(card)
        led = self.led
        if not forced and not self._legal(hand, led, self.best, self.trick_no) & bit:
            raise self._broken(hand, card)
        self.hands[seat] = hand ^ bit
        plays.append(card)
        if led < 0:  # R3: the first card sets the led suit
            self.led = SUIT_OF[card]
            self.best = card
            self.winner = seat
        elif ABOVE[self.best] & bit:  # R3: highest card of the led suit wins
            self.best = card
            self.winner = seat
        if len(plays) & 3:
            self.turn = (seat + 1) & 3  # R1: clockwise
        else:  # R3: the winner takes the trick and leads the next
            winner = self.winner
            self.winners.append(winner)
            self.tricks[winner] += 1
            self.turn = winner
            self.led = -1
            self.trick_no += 1

    def _broken(self, hand: int, card: int) -> errors.RuleViolation | None:
        """The first rule of play that forbids ``card`` (held in ``hand`` by the seat on turn), or None."""
        error = self.variant.violation(hand, card, self.led, self.best, self.trick_no)
        if error is not None:
            error.seat = SEATS[self.turn]
        return error

    def _not_held(self, card: int) -> errors.RuleViolation:
        """R30: in another player's hand → not_your_turn; in nobody's → card_not_in_hand."""
        on_turn = SEATS[self.turn]
        if any(h >> card & 1 for h in self.hands):
            return errors.NotYourTurn(seat=on_turn, card=CARDS[card])
        return errors.CardNotInHand(seat=on_turn, card=CARDS[card])

    def offer_in_place(self, buyer: Any, price: Any) -> None:
        """R26, R28: ``offer_lead`` on this state itself: an offer by ``buyer`` (a seat, as
        written) of ``price`` tricks."""
        self.offers = self.offers + (check_offer(self.can_sell_lead, self.holder, buyer, price),)

    def decide_in_place(self, offer: int | None, seat: Seat | None = None) -> None:
        """R28: ``decide_lead`` on this state itself."""
        if not self.can_sell_lead:
            raise errors.SaleNotAllowed(seat=seat)
        if seat is not None and seat != self.holder:
            raise errors.NotYourTurn(
                seat=self.holder, detail=errors.gettext_noop("only the lead holder decides on the offers")
            )
        self.decided = True
        if offer is None:
            return
        if not isinstance(offer, int) or not 0 <= offer < len(self.offers):
            raise errors.BadSale(
                seat=self.holder, detail=errors.gettext_noop("no standing offer number %(offer)s"), offer=repr(offer)
            )
        accepted = self.offers[offer]
        self.sale = (accepted.buyer, accepted.price)
        self.leader = accepted.buyer  # R26: the buyer leads the first trick
        self.turn = int(accepted.buyer)

    def _copy(self) -> DealState:
        other = object.__new__(DealState)
        for name in DealState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.plays = list(self.plays)
        other.winners = list(self.winners)
        other.tricks = list(self.tricks)
        return other

    def __repr__(self) -> str:
        return f"<DealState #{self.spec.number} {self.kind.value} plays={len(self.plays)} to_play={self.to_play}>"
