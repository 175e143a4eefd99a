"""A card play without the lock (PostgreSQL): the one fast path of the write side, behind ``play``,
which the unit of work (``games.write.commands.run``) calls first for a card play
(docs/card-play.md, "The fast path").

Most plays are a card in a deal that goes on, by a player or the scorer, on a match this process
moved last. ``play`` decides it on the match as this process left it (``states.kept_match``,
caught up by the card plays another process stored since), without the lock, and writes it with
one statement that writes only if the match is still where the decision found it
(``sql.events_append_unlocked``: the version, the head hash, ``DECIDED_BY``). Outside a
transaction that statement commits by itself. Handed a ``claims.Claim`` (the API's
``Idempotency-Key``), it writes the key with its answer in the same statement (``games.write.claims``).

The play is decided once. What the fast path decided but did not write — a refusal, or more to
write than the plays (a deal's end) — the locked line takes as decided when the locked match is
where the decision found it (``Played.reused``); only a match that moved in between (a race
lost) is decided again there. Nothing kept that fits (none kept, another version expected, a
caller the row does not make a player or the scorer): ``play`` answers None and the locked line
decides.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError

from games import sql
from games.domain.exceptions import CommandError
from games.domain.roles import Role, role_of
from games.engine.errors import RuleViolation
from games.models import Match
from games.read import live
from games.write import claims, states
from games.write.results import CommandResult, signalled
from games.write.unit import Unit, chained, plays_projected, summary_unchanged

# The Match columns a card play's decision reads (with the version): the role (the seats, the
# scorer), that the match takes commands (status, read_only) and how it is dealt (the last card
# of a server-dealt deal). ``play`` writes only if they are still as it read them.
DECIDED_BY = ("status", "read_only", "north", "east", "south", "west", "scorer", "dealing")


@functools.cache
def _decided_by() -> tuple[tuple[str, str], ...]:
    return tuple((name, Match._meta.get_field(name).attname) for name in DECIDED_BY)


@dataclass
class Played:
    """A card play decided on the kept match: ``result`` if the fast path wrote it; else what was
    decided there — the ``unit`` with its events, or the ``refusal`` — on the match at
    ``version``, ``head_hash`` and ``checked`` (``DECIDED_BY``)."""

    unit: Unit
    version: int
    head_hash: str
    checked: dict[str, Any]
    refusal: CommandError | RuleViolation | None = None
    result: CommandResult | None = None

    def reused(self, locked: Unit) -> Unit | None:
        """The decision on the ``locked`` match's unit, if that match is where the decision found it
        (its version, head hash and ``DECIDED_BY``): the decided unit on the locked rows — or the
        refusal, raised. None if the match moved: the locked line decides again."""
        match = locked.match
        if (match.version, locked.projection.head_hash, _checked(match)) != (
            self.version,
            self.head_hash,
            self.checked,
        ):
            return None
        if self.refusal is not None:
            raise self.refusal
        return replace(self.unit, match=match, projection=locked.projection, role=locked.role)


def _checked(match: Match) -> dict[str, Any]:
    return {name: getattr(match, attname) for name, attname in _decided_by()}


def play(
    match_id, actor, expected_version: int | None, decide: Callable[[Unit], None], claim: claims.Claim | None = None
) -> Played | None:
    """The card play ``decide`` makes, decided on the kept match and written if it is a card in a
    deal that goes on and the match is still there — with ``claim``'s key and answer in the same
    statement (``games.write.claims``); None when nothing kept fits (the module docstring)."""
    if not sql.appends_unlocked():
        return None
    try:  # caught up by the card plays stored since if another process moved it (If-Match tells)
        kept = states.kept_match(Match._meta.pk.to_python(match_id), at=expected_version)
    except (ValueError, TypeError, ValidationError):
        return None
    if kept is None:
        return None
    match, state = kept
    if expected_version not in (None, match.version) or match.status != Match.Status.IN_PROGRESS or match.read_only:
        return None
    role = role_of(match, actor)
    if role.kind not in (Role.PLAYER, Role.SCORER):  # decided by DECIDED_BY alone (a club role is not)
        return None
    unit = Unit(match, match.projection, state, actor, role=role)
    played = Played(unit, match.version, match.projection.head_hash, _checked(match))
    try:
        decide(unit)
    except (CommandError, RuleViolation) as refusal:
        played.refusal = refusal  # answered from the locked match, if it is this one
        return played
    if not (unit.secrets or unit.columns) and summary_unchanged(unit, len(unit.projection.summary["deals"])):
        played.result = _written(played, claim)
    return played


def _written(played: Played, claim: claims.Claim | None) -> CommandResult | None:
    """The unit's plays appended if the match is still at the decision's version, head hash and
    ``DECIDED_BY`` (and ``claim``'s key is new): the result, signalled; None when not (nothing
    written)."""
    unit = played.unit
    rows, new_head = chained(unit)
    values, patches = plays_projected(unit, new_head)
    for name, value in values.items():  # the unit's rows are this attempt's own (states.kept_match)
        setattr(unit.projection, name, value)
    result = CommandResult(unit.match, rows, unit.state, unit.role, unit.projection)
    key = claims.key_row(claim, result) if claim is not None else None  # the answer, stored with the play
    written = sql.events_append_unlocked(
        unit.match,
        rows,
        head=played.head_hash,
        checked=played.checked,
        match_values={"version": unit.match.version},
        projection_values=values,
        notify=live.moved_notice(unit.match),
        patches=patches,
        key=key,
    )
    if not written:
        return None
    states.keep(unit.projection, unit.state, unit.match)
    return signalled(result)
