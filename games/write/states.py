"""The engine state of the matches this process moved last, kept between commands — what the
``eventsourcing`` library calls its aggregate cache.

A command locks its match and needs the engine state after the match's last event. Reading it
means sending the projection's snapshot and summary (JSON) and restoring the state from the
snapshot: on a card play, more work than the play itself. So after each command this process
keeps, per match, the state it reached with the projection's new snapshot and summary, under the
projection's version and head hash; the next command passes that (version, head hash) to the
lock (``games.sql.match_lock``), and when the stored projection is still that one the database
sends neither JSON and the kept state is used.

Why the key is enough: the head hash is the SHA-256 chain over every event of the log
(``games.domain.chain``), so a projection with that version and head hash was folded from the very log
that produced the kept state — whichever process wrote it, and even if the command that kept it
was rolled back (then the stored projection is another, and the key does not match). What this
trusts is that the fold is deterministic: a projection rewritten in place with other contents
for the same log (a future rebuild with a changed fold) must be followed by a restart of the
processes, as after any deployment. Kept states are as a snapshot restores them (finished deals
without their ``final``), so a command decides and answers exactly as after a restore. At most
``LIMIT`` matches are kept, the least recently moved forgotten first.

With the state, the match's row as that command left it (``kept_match``): what a card play
decides on without the lock (``games.write.fastplay``, the fast path), for a statement that
writes only if the row, the version and the head hash are still those (docs/card-play.md).
When another process moved the match since by card plays alone (a player's next request landed
on another worker), the kept match is caught up from the events stored since, as an event store
brings a snapshot up to date: one read, no lock, no snapshot restored.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from games import sql
from games.domain.event_types import CardPlayed, of_row
from games.domain.projections import apply, with_plays
from games.engine import MatchState
from games.models import Match, MatchProjection

LIMIT = 1000


@dataclass(frozen=True, slots=True)
class Kept:
    version: int
    head_hash: str
    snapshot: dict[str, Any]
    summary: dict[str, Any]
    state: MatchState
    match: dict[str, Any] | None = None  # the match row's values (``sql.field_values``), at ``version``


_kept: OrderedDict[Any, Kept] = OrderedDict()
_lock = threading.Lock()


def known(match_id: Any) -> tuple[int, str] | None:
    """The (version, head hash) of the projection kept for the match, if any."""
    kept = _kept.get(match_id)
    return None if kept is None else (kept.version, kept.head_hash)


def kept_state(projection) -> MatchState | None:
    """For a projection read with its snapshot and summary deferred because they are the ones
    kept (``games.sql.match_lock``): set them from what is kept and give the kept state. None
    when nothing fits (the caller restores the snapshot, read on first access)."""
    kept = _kept.get(projection.match_id)
    if kept is None or (kept.version, kept.head_hash) != (projection.version, projection.head_hash):
        return None
    deferred = projection.get_deferred_fields()
    if "snapshot" in deferred:
        projection.snapshot = kept.snapshot
    if "summary" in deferred:
        projection.summary = kept.summary
    return kept.state


def kept_match(match_id: Any, at: int | None = None) -> tuple[Match, MatchState] | None:
    """The match as this process's last command on it left it — a new ``Match`` from the kept row,
    its projection (``match.projection``) from the kept one — and the kept state; None if no row
    is kept. Nothing is read: whether it is still what is stored is for the caller to check.

    ``at``: the version the caller expects (its ``If-Match``). A match kept at an earlier version
    — another process moved it since — is caught up by the card plays stored since (``_caught_up``):
    one read, no lock."""
    kept = _kept.get(match_id)
    if kept is None or kept.match is None:
        return None
    if at is not None and at > kept.version:
        return _caught_up(match_id, kept, at)
    return _built(sql.loaded(Match, kept.match), kept, kept.version, kept.head_hash, kept.snapshot), kept.state


def _caught_up(match_id: Any, kept: Kept, at: int) -> tuple[Match, MatchState] | None:
    """The kept match brought to version ``at`` by the events stored since: the match's row as
    stored now, the kept state with those events applied (``projections.apply``, as every fold),
    the kept snapshot with the deal's plays from it. Only card plays in the deal in play (R10–R16)
    — what another process's fast-path plays write, changing nothing of the projection but the
    snapshot's plays; anything else (a deal's end, a lead sale, a ruling) or a match not at ``at``:
    None (the caller takes the locked line). The head hash is the last event's, so the caller's
    write still checks that the log is the one these events came from."""
    match, events = sql.match_and_events_since(match_id, kept.version)
    if match is None or match.version != at or not events or events[-1].seq != at:
        return None
    state = kept.state
    for row in events:
        event = of_row(row)
        if not isinstance(event, CardPlayed):
            return None
        state = apply(state, event)
    if state.deal is None or len(state.results) != len(kept.state.results):
        return None  # the deal ended: its scores, the summary, the next deal are the locked line's
    return _built(match, kept, at, events[-1].hash, with_plays(kept.snapshot, state)), state


def _built(match: Match, kept: Kept, version: int, head_hash: str, snapshot: dict[str, Any]) -> Match:
    """``match`` with its projection (cached both ways) at ``version``, ``head_hash``, ``snapshot``."""
    projection = sql.loaded(
        MatchProjection,
        {
            "match_id": match.pk,
            "version": version,
            "head_hash": head_hash,
            "snapshot": snapshot,
            "summary": kept.summary,
        },
    )
    Match.projection.related.set_cached_value(match, projection)
    MatchProjection.match.field.set_cached_value(projection, match)
    return match


def keep(projection, state: MatchState, match: Match | None = None) -> None:
    """Keep ``state``, the state the match's ``projection`` (as just written) holds; and
    ``match``'s row, if given, at the projection's version and wholly loaded."""
    if any(result.final is not None for result in state.results):  # as restored from a snapshot
        state = replace(state, results=tuple(replace(result, final=None) for result in state.results))
    row = sql.field_values(match) if match is not None and match.version == projection.version else None
    kept = Kept(projection.version, projection.head_hash, projection.snapshot, projection.summary, state, row)
    with _lock:
        _kept[projection.match_id] = kept
        _kept.move_to_end(projection.match_id)
        while len(_kept) > LIMIT:
            _kept.popitem(last=False)


def forget_all() -> None:
    with _lock:
        _kept.clear()
