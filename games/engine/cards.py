"""Cards and card sets (R2).

A card is an int 0..51, suit-major: ``index = 13 * suit + rank``, so that a hand is
a 52-bit mask and every rule is a handful of bit operations on precomputed tables.
``Card`` wraps that int with a parse/format pair: ``Card.parse("QH")`` and
``str(card) == "QH"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"  # R2, low to high
SUITS = "SHDC"  # R2: spades, hearts, diamonds, clubs

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

FULL_SUIT = (1 << 13) - 1
SUIT_MASKS: tuple[int, ...] = tuple(FULL_SUIT << (13 * s) for s in range(4))
DECK_MASK = (1 << 52) - 1
HEARTS_MASK = SUIT_MASKS[HEARTS]


class Card(int):
    """One of the 52 cards; an ``int`` so that it indexes the tables below."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Card:
        """``"QH"`` → the queen of hearts; anything else raises ``ValueError``."""
        try:
            return BY_NAME[text]
        except (KeyError, TypeError):
            raise ValueError(f"not a card: {text!r} (expected rank 2-9/T/J/Q/K/A then suit S/H/D/C)") from None

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        return CARDS[13 * suit + rank]

    @property
    def suit(self) -> int:
        return self // 13

    @property
    def rank(self) -> int:
        return self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({NAMES[self]!r})"


NAMES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
BY_NAME: dict[str, Card] = {name: CARDS[i] for i, name in enumerate(NAMES)}

KING_OF_HEARTS = Card.parse("KH")
KH_BIT = 1 << KING_OF_HEARTS

# SUIT_OF[c]: the suit of card c; ABOVE[c]: the cards of c's suit that outrank c.
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
ABOVE: tuple[int, ...] = tuple(SUIT_MASKS[i // 13] & ~((2 << i) - 1) for i in range(52))


def mask_of(cards: Iterable[int]) -> int:
    """The set of ``cards`` as a bitmask."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, lowest index first (spades 2 … clubs A)."""
    return tuple(iter_cards(mask))


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def highest(mask: int) -> Card:
    """The highest-index card of a non-empty mask (within one suit: the highest rank)."""
    return CARDS[mask.bit_length() - 1]
