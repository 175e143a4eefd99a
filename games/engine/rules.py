"""What may be played: one function per rule (R10–R13 rozbójnik, R16 odgrywka).

Every rule is a function ``(hand, led, best, trick_no) -> allowed`` over bitmasks:
``hand`` the cards of the player on turn, ``led`` the led suit (−1 when leading),
``best`` the highest card of the led suit in the trick, ``trick_no`` 1–13. It returns
the cards of ``hand`` that *this* rule alone allows (the whole hand where it does not
apply). A ``Variant`` holds the rules of one kind of deal, in the order R30 reports
them, and ``legal(...)`` — their intersection — is the one source of legality that
the deal, the API, the viewer and the bots all use. The arbiter's search alone runs a copy
written out for speed (``masks.legal_mask``); tests/engine/test_engine_masks.py proves the
two equal on every case the rules tell apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine import errors
from games.engine.cards import ABOVE, HEARTS_MASK, KH_BIT, SUIT_MASKS
from games.engine.ruleset import Kind, Ruleset

RuleFn = Callable[[int, int, int, int], int]
NOT_HEARTS = ~HEARTS_MASK


def _void(hand: int, led: int) -> bool:
    """R12: the player is discarding (void in the led suit)."""
    return led >= 0 and not hand & SUIT_MASKS[led]


def hearts_lead(hand: int, led: int, best: int, trick_no: int) -> int:
    """R10: a heart may be led only by a player who holds nothing but hearts."""
    if led < 0 and hand & NOT_HEARTS:
        return hand & NOT_HEARTS
    return hand


def follow_suit(hand: int, led: int, best: int, trick_no: int) -> int:
    """R11, R16 (R3): a player holding the led suit must play a card of it."""
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
    return hand


def king_of_hearts_first_trick(hand: int, led: int, best: int, trick_no: int) -> int:
    """R12a: in the first trick the king of hearts may not be discarded."""
    if trick_no == 1 and _void(hand, led):
        return hand & ~KH_BIT
    return hand


def king_of_hearts_first(hand: int, led: int, best: int, trick_no: int) -> int:
    """R12b: from trick 2 on, a heart discarded while holding the king of hearts must be the king."""
    if trick_no > 1 and hand & KH_BIT and _void(hand, led):
        return hand & NOT_HEARTS | KH_BIT
    return hand


def highest_heart_first(hand: int, led: int, best: int, trick_no: int) -> int:
    """R12c (option heart_discard: descending): hearts are discarded highest first.

    The king first from trick 2 on (R12b), else the highest heart; in the first trick the
    highest heart other than the king (R12a).
    """
    if not _void(hand, led):
        return hand
    hearts = hand & HEARTS_MASK
    if trick_no == 1:
        hearts &= ~KH_BIT
    elif hearts & KH_BIT:
        hearts = KH_BIT
    if not hearts:
        return hand
    return hand & NOT_HEARTS | 1 << (hearts.bit_length() - 1)


def must_overtake(hand: int, led: int, best: int, trick_no: int) -> int:
    """R16 (nadbijanie): holding a card of the led suit above the trick's best, play a higher one."""
    if led >= 0:
        higher = hand & ABOVE[best]
        if higher:
            return higher
    return hand


@dataclass(frozen=True)
class Variant:
    """The rules of one kind of deal (the small hooks in which the two kinds differ)."""

    kind: Kind
    rules: tuple[tuple[RuleFn, type[errors.RuleViolation], str], ...]  # R30 order
    legal: RuleFn

    def violation(self, hand: int, card: int, led: int, best: int, trick_no: int) -> errors.RuleViolation | None:
        """The first rule, in R30 order, that forbids ``card`` (held in ``hand``); None if it is legal."""
        bit = 1 << card
        for rule, error, rule_id in self.rules:
            if not rule(hand, led, best, trick_no) & bit:
                return error(card=card, rule=rule_id)
        return None


def _rozbojnik_king_first(hand: int, led: int, best: int, trick_no: int) -> int:
    if led < 0:
        return hearts_lead(hand, led, best, trick_no)
    if hand & SUIT_MASKS[led]:
        return follow_suit(hand, led, best, trick_no)  # R13: R12 never limits following suit
    return king_of_hearts_first_trick(hand, led, best, trick_no) & king_of_hearts_first(hand, led, best, trick_no)


def _rozbojnik_descending(hand: int, led: int, best: int, trick_no: int) -> int:
    if led < 0 or hand & SUIT_MASKS[led]:
        return _rozbojnik_king_first(hand, led, best, trick_no)
    return _rozbojnik_king_first(hand, led, best, trick_no) & highest_heart_first(hand, led, best, trick_no)


def _odgrywka(hand: int, led: int, best: int, trick_no: int) -> int:
    if led < 0 or not hand & SUIT_MASKS[led]:
        return hand  # R16: any card may be led; a void player plays any card
    return follow_suit(hand, led, best, trick_no) & must_overtake(hand, led, best, trick_no)


_ROZBOJNIK_RULES = (
    (hearts_lead, errors.HeartsLeadForbidden, "R10"),
    (follow_suit, errors.MustFollowSuit, "R11"),
    (king_of_hearts_first_trick, errors.KingOfHeartsFirstTrick, "R12a"),
    (king_of_hearts_first, errors.KingOfHeartsFirst, "R12b"),
)
ROZBOJNIK = Variant(Kind.ROZBOJNIK, _ROZBOJNIK_RULES, _rozbojnik_king_first)
ROZBOJNIK_DESCENDING = Variant(
    Kind.ROZBOJNIK,
    _ROZBOJNIK_RULES + ((highest_heart_first, errors.HighestHeartFirst, "R12c"),),
    _rozbojnik_descending,
)
ODGRYWKA = Variant(
    Kind.ODGRYWKA,
    ((follow_suit, errors.MustFollowSuit, "R16"), (must_overtake, errors.MustOvertake, "R16")),
    _odgrywka,
)


def variant(kind: Kind, ruleset: Ruleset) -> Variant:
    if kind is Kind.ODGRYWKA:
        return ODGRYWKA
    return ROZBOJNIK_DESCENDING if ruleset.heart_discard == "descending" else ROZBOJNIK
