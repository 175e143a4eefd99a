"""The typed stream of a match: each event with its envelope, read from its row once.

``Recorded`` is what every read model folds: the typed event (``event_types``) and what the
store wrote around it — ``seq``, ``actor`` (as hashed), ``recorded_at`` and ``hash``. A reader
asks ``isinstance(r.event, CardPlayed)`` and reads ``r.seq``; it never goes back to rows, type
strings or payload keys (the eventsourcing library's event carries its envelope the same way).

Pure Python (no Django), so the ``kierki`` command folds an exported log with the same types:
``stream_of`` reads exported entries (the audit's ``events``), ``games.domain.log`` reads the
database's rows through ``recorded``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.domain.event_types import AnyEvent, Event, parse

E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class Recorded(Generic[E]):
    """One stored event: the typed ``event`` and its envelope."""

    seq: int
    event: E
    actor: str | None = None  # the name as hashed (a later rename changes nothing)
    recorded_at: dt.datetime | None = None
    hash: str | None = None

    @property
    def type(self) -> str:
        return self.event.TYPE

    @property
    def payload(self) -> dict[str, Any]:
        """The payload as stored (``to_payload`` gives back exactly the stored dict)."""
        return self.event.to_payload()


def recorded(*, seq: int, type: str, payload: Mapping[str, Any], actor=None, recorded_at=None, hash=None) -> Recorded:
    """The one place a stored event becomes typed: ``TypeError`` or ``ValueError`` if its payload
    cannot be read."""
    event: AnyEvent = parse(type, payload)  # type: ignore[assignment]
    return Recorded(seq=seq, event=event, actor=actor, recorded_at=recorded_at, hash=hash)


def stream_of(entries: Iterable[Mapping[str, Any]]) -> list[Recorded]:
    """An exported log (``seq``, ``type``, ``payload``, ``actor``, ``created_at``, ``hash``: the
    audit's ``events``, ``created_at`` in ISO 8601) as a typed stream; only ``type`` and
    ``payload`` are required."""
    return [
        recorded(
            seq=entry.get("seq"),
            type=entry["type"],
            payload=entry["payload"],
            actor=entry.get("actor"),
            recorded_at=_moment(entry.get("created_at")),
            hash=entry.get("hash"),
        )
        for entry in entries
    ]


def _moment(text: str | None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text)


def of_kind(stream: Iterable[Recorded], *classes: type[E]) -> Iterator[Recorded[E]]:
    """The events of ``stream`` of those classes (exactly: a subclass is another kind)."""
    for item in stream:
        if type(item.event) in classes:
            yield item


def events(stream: Iterable[Recorded]) -> Iterator[Event]:
    """The typed events alone, for ``projections.apply``."""
    return (item.event for item in stream)
