"""The read model of the standing lead offers (R26, R28): the latest ``lead_offered`` events of
the stream, as many as the engine's state says stand. A lead decision names one by its seq."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.domain.event_types import LeadOffered
from games.domain.log import stream
from games.domain.stream import Recorded, of_kind
from games.models import Match


def standing_offers(log: Iterable[Recorded], standing: int) -> list[Recorded[LeadOffered]]:
    """The ``standing`` offers at the end of ``log``: its latest ``lead_offered`` events (some may
    precede their deal's ``deal_started``: R28 before the deal)."""
    return list(of_kind(log, LeadOffered))[-standing:] if standing else []


def standing_offers_of(match: Match, standing: int) -> list[Recorded[LeadOffered]]:
    """``standing_offers`` of the whole log, reading only the latest ``standing`` offers."""
    return stream(match, LeadOffered, latest=standing)


def offer_view(item: Recorded[LeadOffered]) -> dict[str, Any]:
    """A standing offer as the state views show it: the seq of its event (what a lead decision
    names), the buyer and the price."""
    return {"seq": item.seq, "buyer": item.event.buyer, "price": item.event.price}
