"""One command's work on one match (``Unit``), and what its events become when they are written:
the chained rows, and — for cards played in a deal that goes on — the projection's new plays.

Shared by the two ways a command is written (``games.write.commands``, the locked line, and
``games.write.fastplay``, a card play without the lock), so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.domain.chain import GENESIS, chain_hash, event_body
from games.domain.event_types import CardPlayed, Event
from games.domain.projections import with_plays
from games.domain.roles import Role
from games.engine import MatchState
from games.models import DealSecret, Match, MatchEvent, MatchProjection
from games.write import people


@dataclass
class Unit:
    """One command's work on one match: the engine state and the events it emits."""

    match: Match
    projection: MatchProjection | None
    state: MatchState
    actor: Any
    events: list[Event] = field(default_factory=list)
    secrets: list[DealSecret] = field(default_factory=list)  # server-dealt hands, written with the events
    columns: dict[str, Any] = field(default_factory=dict)  # Match columns the decision changes (confirmed, ...)
    role: Role | None = None  # the actor's role in the match (``roles.role_of``), as ``run`` admitted him

    def emit(self, event: Event) -> None:
        self.events.append(event)


def chained(unit: Unit) -> tuple[list[MatchEvent], str]:
    """The unit's events as new rows, each hashed on the one before (the match's version moved
    to the last): the rows and the new head hash."""
    match, projection = unit.match, unit.projection
    previous = projection.head_hash if projection else GENESIS
    now = timezone.now()
    actor_name = people.person_ref(unit.actor)  # issue 28: hashed into the chain, so an id, not a name
    rows = []
    for event in unit.events:
        seq, type, payload = match.version + 1, event.TYPE, event.to_payload()
        body = event_body(match_id=match.id, seq=seq, type=type, payload=payload, actor=actor_name, created_at=now)
        previous = chain_hash(previous, body)
        rows.append(
            MatchEvent(
                match=match,
                seq=seq,
                type=type,
                payload=payload,
                actor=unit.actor,
                actor_name=actor_name,
                created_at=now,
                hash=previous,
            )
        )
        match.version = seq
    return rows, previous


def plays_projected(unit: Unit, head: str) -> tuple[dict[str, Any], dict[str, tuple[tuple[str, ...], Any]]]:
    """The projection's new values after cards played in a deal that goes on — the stored snapshot
    with the deal's plays from the state, nothing else changed — and the patch that writes them
    (``games.sql.events_append``'s ``patches``: the plays alone)."""
    snapshot = with_plays(unit.projection.snapshot, unit.state)
    values = dict(version=unit.match.version, head_hash=head, snapshot=snapshot)
    return values, {"snapshot": (("deal", "plays"), snapshot["deal"]["plays"])}


def summary_unchanged(unit: Unit, finished_before: int) -> bool:
    """Cards played in a deal that goes on change nothing the summary holds (finished deals,
    totals, winners, the next deal due, status, rulings): most plays keep it as stored."""
    return (
        unit.state.deal is not None
        and len(unit.state.results) == finished_before
        and unit.match.status == Match.Status.IN_PROGRESS
        and all(isinstance(event, CardPlayed) for event in unit.events)
    )
