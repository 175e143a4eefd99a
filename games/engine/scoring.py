"""Deal scoring and settlement: raw points (R14, R17), zero tricks and Max (R20–R22), the
lead-sale transfer (R27), and the compensating deals a deal requires (R23, R24)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from games.engine.cards import HEARTS, JACK, KING, KING_OF_HEARTS, QUEEN
from games.engine.ruleset import Kind
from games.engine.seats import SEATS, Seat

POOL: Final = 130  # R14, R17: one deal's points before multipliers
TRICK_PENALTY: Final = 2  # R14
LAST_TRICK_PENALTY: Final = 9  # R14, R15
ODGRYWKA_TRICK_POINTS: Final = 10  # R17
SALE_POINTS_PER_TRICK: Final = 10  # R27


def _card_penalty(card: int) -> int:
    """R14: 2 per heart, 5 per queen, 3 per king and jack, 16 more for the king of hearts."""
    rank, suit = card % 13, card // 13
    points = 2 if suit == HEARTS else 0
    points += {QUEEN: 5, KING: 3, JACK: 3}.get(rank, 0)
    return points + (16 if card == KING_OF_HEARTS else 0)


CARD_PENALTY: Final[tuple[int, ...]] = tuple(_card_penalty(c) for c in range(52))


def trick_penalty(cards: Sequence[int], trick_no: int, last_tricks: tuple[int, int]) -> int:
    """R14, R15: what one rozbójnik trick costs its taker."""
    points = TRICK_PENALTY + sum(CARD_PENALTY[c] for c in cards)
    return points + (LAST_TRICK_PENALTY if trick_no in last_tricks else 0)


def raw_points(kind: Kind, plays: Sequence[int], winners: Sequence[int], last_tricks: tuple[int, int]) -> list[int]:
    """Per seat, before multipliers: rozbójnik penalties (R14, positive) or odgrywka points (R17).

    ``plays`` are the deal's cards in order, ``winners`` the seat that took each trick.
    """
    raw = [0, 0, 0, 0]
    for index, winner in enumerate(winners):
        if kind is Kind.ODGRYWKA:
            raw[winner] += ODGRYWKA_TRICK_POINTS
        else:
            raw[winner] += trick_penalty(plays[4 * index : 4 * index + 4], index + 1, last_tricks)
    return raw


@dataclass(frozen=True, slots=True)
class Compensation:
    """A compensating deal due (R7): its kind (R24) and the seat that leads it (R25)."""

    kind: Kind
    leader: Seat


@dataclass(frozen=True, slots=True)
class Settlement:
    points: tuple[int, ...]
    kreski: tuple[int, ...]
    multiplier: int
    compensations: tuple[Compensation, ...]


def settle(
    kind: Kind, tricks: Sequence[int], raw: Sequence[int], leader: Seat, sale: tuple[Seat, Seat, int] | None = None
) -> Settlement:
    """Points, kreski, multiplier and compensating deals of a finished deal.

    ``leader`` led the first trick (R23 orders compensations clockwise from it);
    ``sale`` is ``(seller, buyer, price)`` when the lead was sold (R27).
    """
    empty = _clockwise_from(leader, [s for s in SEATS if tricks[s] == 0])
    if kind is Kind.ROZBOJNIK and len(empty) == 3:
        result = _max(tricks)
    elif kind is Kind.ROZBOJNIK:
        result = _rozbojnik(raw, empty)
    else:
        result = _odgrywka(raw, empty)
    return _with_sale(result, sale) if sale else result


def _max(tricks: Sequence[int]) -> Settlement:
    """R21: the Max player gets two kreski and 0, the others −130 each; two odgrywki he leads."""
    taker = next(s for s in SEATS if tricks[s])
    points = tuple(0 if s == taker else -POOL for s in SEATS)
    kreski = tuple(2 if s == taker else 0 for s in SEATS)
    return Settlement(points, kreski, 3, (Compensation(Kind.ODGRYWKA, taker),) * 2)


def _rozbojnik(raw: Sequence[int], empty: list[Seat]) -> Settlement:
    """R20: a kreska and 0 for each player with no trick, the others' penalties × (k + 1)."""
    multiplier = len(empty) + 1
    points = tuple(0 if s in empty else -raw[s] * multiplier for s in SEATS)
    kreski = tuple(1 if s in empty else 0 for s in SEATS)
    return Settlement(points, kreski, multiplier, tuple(Compensation(Kind.ODGRYWKA, s) for s in empty))


def _odgrywka(raw: Sequence[int], empty: list[Seat]) -> Settlement:
    """R22: 0 for each player with no trick, the others' points × (k + 1); no kreski."""
    multiplier = len(empty) + 1
    points = tuple(0 if s in empty else raw[s] * multiplier for s in SEATS)
    return Settlement(points, (0, 0, 0, 0), multiplier, tuple(Compensation(Kind.ROZBOJNIK, s) for s in empty))


def _with_sale(result: Settlement, sale: tuple[Seat, Seat, int]) -> Settlement:
    """R27: the buyer pays 10 × price to the seller, after multipliers."""
    seller, buyer, price = sale
    points = list(result.points)
    points[buyer] -= SALE_POINTS_PER_TRICK * price
    points[seller] += SALE_POINTS_PER_TRICK * price
    return Settlement(tuple(points), result.kreski, result.multiplier, result.compensations)


def _clockwise_from(start: Seat, seats: list[Seat]) -> list[Seat]:
    """R23: seats ordered clockwise starting from ``start``."""
    return sorted(seats, key=lambda s: (s - start) % 4)
