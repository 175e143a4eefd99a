"""What a command returns: shared by the write side that builds it and the read side that
renders it (a neutral module: selectors never import the unit of work)."""

from __future__ import annotations

from dataclasses import dataclass

from games.domain.roles import Role
from games.engine import MatchState
from games.models import Match, MatchEvent, MatchProjection


@dataclass(frozen=True)
class CommandResult:
    """What a command appended, with the engine state right after it (None: read it from the
    projection), so that the answer tells the client what comes next without another read;
    the caller's role (how the answer may show it) and the projection as the command left it
    (what the signal's receivers announce)."""

    match: Match
    events: list[MatchEvent]
    state: MatchState | None = None
    role: Role | None = None
    projection: MatchProjection | None = None
