"""The read model of the deals as the log tells them: each deal dealt (its hands, the lead sale,
its cards) or filed from a paper sheet (its entry), in log order — a fold over the stream.

The record export (``games.read.record``) and the offline check of a record against an
exported log (``games.domain.checkpoints``) both read it. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games.domain.event_types import (
    CardPlayed,
    DealCorrected,
    DealStarted,
    DealTallied,
    Hands,
    HandsRevealed,
    LeadSold,
    Sale,
)
from games.domain.stream import Recorded

CARDS_PER_DEAL = 52


@dataclass
class PlayedDeal:
    """A deal dealt: its hands (None for a server-dealt deal until they are revealed), the lead
    sale (R26, R28) and the cards played so far."""

    number: int
    hands: Hands | None
    sale: Sale | None
    plays: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return len(self.plays) == CARDS_PER_DEAL


@dataclass(frozen=True)
class FiledDeal:
    """A deal filed from a paper sheet (R31–R33): its ``entry`` (``tally`` or ``points``), that
    entry's value by seat, and the lead sale of a compensating odgrywka."""

    number: int
    entry: str
    value: Any
    sale: Sale | None

    finished = True


LoggedDeal = PlayedDeal | FiledDeal


def deal_log(stream: Iterable[Recorded]) -> list[LoggedDeal]:
    """The deals of ``stream`` in log order. A lead sale belongs to the deal dealt when no card
    has been played in it yet, else to the next deal dealt or filed (R28: decided before it);
    a ``deal_corrected`` replaces the latest filed deal (issue 23)."""
    deals: list[LoggedDeal] = []
    by_number: dict[int, PlayedDeal] = {}
    pending: Sale | None = None
    for item in stream:
        event = item.event
        if isinstance(event, DealStarted):
            deal = PlayedDeal(event.number, event.hands, pending)
            deals.append(deal)
            by_number[event.number] = deal
            pending = None
        elif isinstance(event, LeadSold):
            sale = Sale(event.buyer, event.price)
            if deals and isinstance(deals[-1], PlayedDeal) and not deals[-1].plays:
                deals[-1].sale = sale
            else:
                pending = sale
        elif isinstance(event, CardPlayed):
            deals[-1].plays.append(event.card)
        elif isinstance(event, HandsRevealed):
            by_number[event.number].hands = event.hands
        elif isinstance(event, DealCorrected):  # before DealTallied: its subclass
            deals[-1] = filed_deal(event, event.sale)
        elif isinstance(event, DealTallied):
            deals.append(filed_deal(event, pending if event.sale is None else event.sale))
            pending = None
    return deals


def filed_deal(event: DealTallied, sale: Sale | None) -> FiledDeal:
    entry = "tally" if event.tally is not None else "points"
    return FiledDeal(event.number, entry, getattr(event, entry), sale)
