"""What a command answers: ``CommandResult``, and its signal.

A leaf of ``games.write``: the read side (``selectors.command_events``) and the API render a
result without importing the unit of work that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.domain.roles import Role
from games.domain.signals import events_appended
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


def signalled(result: CommandResult) -> CommandResult:
    """Send ``events_appended`` with ``result`` (the live notification's and the webhooks'
    receivers) and give it back."""
    events_appended.send(sender=Match, match=result.match, events=result.events, result=result)
    return result
