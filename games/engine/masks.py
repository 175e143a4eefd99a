"""The search's card masks, computed natively for ``analysis.py`` (and ``takes_all.py``): which
cards of a hand are legal (``legal_mask``, ``rules.py`` written out for speed) and which no one
can overtake (``masters``). A hand, like a set of cards, is a 52-bit int: bit ``13 × suit +
rank`` (``cards.py``). Compiled with the search by mypyc (``compiled.py``).
"""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from games.engine import cards as cards_module
from games.engine.rules import ODGRYWKA, ROZBOJNIK, ROZBOJNIK_DESCENDING, Variant

# This module's own ``Final`` names (compiled, a C static each; see ``analysis.py``).
ABOVE: Final[vec[i64]] = vec[i64](cards_module.ABOVE)
SUIT_MASKS: Final[tuple[int, ...]] = cards_module.SUIT_MASKS
HEARTS_MASK: Final[int] = cards_module.HEARTS_MASK
NOT_HEARTS: Final[int] = ~cards_module.HEARTS_MASK
KH_BIT: Final[int] = cards_module.KH_BIT
# ABOVE_TOP[m]: the ranks (a 13-bit mask) above the highest rank of the 13-bit mask ``m`` (all
# thirteen when ``m`` is empty), read unboxed from a vec[i64]
ABOVE_TOP: Final[vec[i64]] = vec[i64]([8191 & ~((1 << m.bit_length()) - 1) for m in range(1 << 13)])
# The variants whose legality the search computes natively (``legal_mask``), by code; any other
# variant is asked through ``Variant.legal``.
RULE_ROZBOJNIK: Final = 0
RULE_DESCENDING: Final = 1
RULE_ODGRYWKA: Final = 2
RULE_OTHER: Final = -1


def rule_code(variant: Variant) -> int:
    """The code of ``variant``'s rules for ``legal_mask`` (``RULE_OTHER`` for a variant it does not know)."""
    legal = variant.legal
    if legal is ROZBOJNIK.legal:
        return RULE_ROZBOJNIK
    if legal is ROZBOJNIK_DESCENDING.legal:
        return RULE_DESCENDING
    if legal is ODGRYWKA.legal:
        return RULE_ODGRYWKA
    return RULE_OTHER


def legal_mask(rule: int, hand: int, led: int, best: int, trick_no: int) -> int:
    """``Variant.legal`` of the variant with code ``rule`` (not ``RULE_OTHER``), written out for
    the search (a call into ``rules.py`` at every node costs, compiled, more than the rest of the
    node's move generation). The same masks as ``rules.py``, rule for rule (the tests compare
    them on random hands and on every hand of a deck that holds every case the rules tell
    apart): R10 no heart led while holding another suit; R11 (R13) follow suit;
    void, R12a no king of hearts discarded in the first trick, R12b from trick 2 on a heart
    discarded while holding the king is the king, R12c (descending) hearts discarded highest
    first; R16 follow suit and overtake when able, any card led or discarded."""
    if rule == RULE_ODGRYWKA:
        if led < 0:
            return hand
        follow = hand & SUIT_MASKS[led]
        if not follow:
            return hand
        higher = follow & ABOVE[best]
        return higher if higher else follow
    if led < 0:  # R10
        others = hand & NOT_HEARTS
        return others if others else hand
    follow = hand & SUIT_MASKS[led]
    if follow:  # R11; R13: R12 never limits following suit
        return follow
    if trick_no == 1:  # R12a
        allowed = hand & ~KH_BIT
    elif hand & KH_BIT:  # R12b
        allowed = hand & NOT_HEARTS | KH_BIT
    else:
        allowed = hand
    if rule == RULE_DESCENDING:  # R12c
        hearts = hand & HEARTS_MASK
        if trick_no == 1:
            hearts &= ~KH_BIT
        elif hearts & KH_BIT:
            hearts = KH_BIT
        if hearts:
            allowed &= hand & NOT_HEARTS | 1 << (hearts.bit_length() - 1)
    return allowed


def masters(mine: i64, others: i64) -> i64:
    """``mine``'s cards above every card of their suit in ``others`` (a mask; all of a suit they
    lack). Led, each wins its trick: no one can overtake it (R11, R16) and a discard never wins.
    The odgrywka's sure tricks, a claim of every trick left and the takes-every-trick search
    (``takes_all.py``) are all read off it."""
    return mine & (
        ABOVE_TOP[others & 8191]
        | ABOVE_TOP[others >> 13 & 8191] << 13
        | ABOVE_TOP[others >> 26 & 8191] << 26
        | ABOVE_TOP[others >> 39 & 8191] << 39
    )
