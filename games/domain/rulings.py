"""The read model of the arbiters' rulings: the summary's ``rulings``, a fold over the stream."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.domain.chain import timestamp
from games.domain.event_types import RulingRecorded
from games.domain.stream import Recorded, of_kind


def rulings_of(stream: Iterable[Recorded], earlier: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The summary's ``rulings``: ``earlier`` (a stored summary's) and those in ``stream``, in log
    order, each its payload with ``seq``, ``time`` and ``superseded_by`` (the seq of the next
    ruling on the same dispute, which replaced it; None for the ruling in force)."""
    rulings = [dict(r) for r in earlier or []]
    rulings += [ruling_mark(item) for item in of_kind(stream, RulingRecorded)]
    previous: dict[Any, dict[str, Any]] = {}
    for ruling in rulings:
        ruling["superseded_by"] = None
        if ruling.get("dispute") in previous:
            previous[ruling.get("dispute")]["superseded_by"] = ruling["seq"]
        previous[ruling.get("dispute")] = ruling
    return rulings


def ruling_mark(item: Recorded[RulingRecorded]) -> dict[str, Any]:
    return {**item.event.fields(), "seq": item.seq, "time": timestamp(item.recorded_at), "superseded_by": None}
