"""A match's stored events read as its typed stream (``games.domain.stream``): the one place the
database's rows become ``Recorded`` events. Every read model reads the log through here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.domain.event_types import Event
from games.domain.exceptions import LogUnreadable
from games.domain.stream import Recorded, recorded
from games.models import Match, MatchEvent

# What a reader needs of a row: the envelope and the payload (the actor's current name only for
# rows stored before names were hashed).
FIELDS = ("seq", "type", "payload", "actor_name", "actor__username", "created_at", "hash")


def stream(
    match: Match | Any, *kinds: type[Event], upto: int | None = None, latest: int | None = None
) -> list[Recorded]:
    """The match's events in log order as ``Recorded``: those of ``kinds`` only when given (exactly
    those classes), up to seq ``upto``, the ``latest`` few only (one query, none for ``latest=0``)."""
    if latest == 0:  # e.g. no standing lead offer, as on most plays: not even a queryset built
        return []
    rows = MatchEvent.objects.filter(match=match)
    if kinds:
        rows = rows.filter(type__in=[kind.TYPE for kind in kinds])
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    if latest is not None:
        values = list(rows.order_by("-seq").values(*FIELDS)[:latest])[::-1]
    else:
        values = rows.order_by("seq").values(*FIELDS)
    return [recorded_value(value) for value in values]


def streams(match_ids: Iterable[Any], *kinds: type[Event]) -> list[Recorded]:
    """The streams of several matches at once (by match, in log order), of ``kinds`` when given."""
    rows = MatchEvent.objects.filter(match_id__in=list(match_ids))
    if kinds:
        rows = rows.filter(type__in=[kind.TYPE for kind in kinds])
    return [recorded_value(value) for value in rows.order_by("match_id", "seq").values(*FIELDS)]


def stored(**envelope: Any) -> Recorded:
    """A stored row as ``recorded`` reads it; a payload it cannot read (changed outside the service,
    the commands never write one) is ``LogUnreadable`` naming the event, where a read model or a
    command would otherwise fail with a 500 (the cause stays chained: the audit reports it)."""
    try:
        return recorded(**envelope)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LogUnreadable(envelope["seq"], envelope["type"]) from exc


def recorded_value(value: dict[str, Any]) -> Recorded:
    """One ``MatchEvent.objects.values(*FIELDS)`` row as a ``Recorded``."""
    actor = value["actor_name"] if value["actor_name"] is not None else value["actor__username"]
    return stored(
        seq=value["seq"],
        type=value["type"],
        payload=value["payload"],
        actor=actor,
        recorded_at=value["created_at"],
        hash=value["hash"],
    )


def recorded_row(row: MatchEvent) -> Recorded:
    """A ``MatchEvent`` already loaded (a command's appended rows, an audit's) as a ``Recorded``:
    the actor as hashed (``actor_name``, which every row stored since names were hashed has)."""
    return stored(
        seq=row.seq, type=row.type, payload=row.payload, actor=row.actor_name, recorded_at=row.created_at, hash=row.hash
    )


def stream_rows(rows: Iterable[MatchEvent]) -> list[Recorded]:
    return [recorded_row(row) for row in rows]
