"""The table signs its sheet, and arbiters withdraw a match filed by mistake: events in the
match's hash chain, never edits (the fold passes them by: no game state changes).

- ``result_confirm``: a seated player who did not file the match signs its finished sheet —
  ``result_confirmed`` (payload ``seat``, ``by``, ``result``: the digest of the result signed).
  Two seats signing the current result confirm it (``confirmation``); a signature of a result
  a ruling or a filing changed since counts no more, and the seat may sign again.
- ``match_withdraw``: an arbiter of the match (``roles.role_of``: staff, an arbiter or admin of
  its club; never one seated in it or scoring it) withdraws it — ``match_withdrawn`` (payload
  ``reason``, ``by``): it then counts for nothing in standings, ratings and profiles.
- ``match_reinstate``: the same arbiters take a withdrawal back — ``match_reinstated``
  (``reason``, ``by``).

Each runs as every command does (``commands.run``: one transaction, ``If-Match``), and
on a finished match announces the result changed (``signals.announce_result``, from the
commit), so that its season's standings are recomputed through the outbox.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.domain import confirmation
from games.domain.event_types import MatchReinstated, MatchWithdrawn, ResultConfirmed
from games.domain.exceptions import (
    AlreadyConfirmed,
    FilerCannotConfirm,
    InvalidInput,
    MatchNotFinished,
    NotAllowed,
    WithdrawalConflict,
)
from games.domain.roles import require_arbiter
from games.models import Match
from games.write import commands, people
from games.write.commands import Unit
from games.write.results import CommandResult

MAX_REASON = 2000


def _on_ended_too(match_id, actor, expected_version: int | None, decide) -> CommandResult:
    """Run ``decide`` as every command runs, on a match in progress or ended alike."""
    return commands.run(
        match_id=match_id, actor=actor, expected_version=expected_version, decide=decide, ended_too=True
    )


# --- signing the sheet ---------------------------------------------------------------------------------


def result_confirm(*, match_id, actor, expected_version: int | None = None) -> CommandResult:
    """A seated player who did not file the match confirms its finished sheet."""

    def decide(unit: Unit) -> None:
        match = unit.match
        role = unit.role
        if role.seat is None:
            raise NotAllowed(_("Only the players seated in this match confirm its sheet."))
        if confirmation.is_filer(match, actor):
            raise FilerCannotConfirm(_("You filed this match: two other seated players confirm its sheet."))
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished(
                _("The match is %(status)s: only a finished sheet is confirmed.") % {"status": match.status}
            )
        summary = unit.projection.summary
        confirmations = confirmation.signed_now(summary)  # a signature of an earlier result counts no more
        if role.seat.name in confirmation.confirming_seats(confirmations):
            raise AlreadyConfirmed(_("Seat %(seat)s has confirmed this sheet already.") % {"seat": role.seat.name})
        event = ResultConfirmed(
            seat=role.seat.name, by=people.person_ref(actor), result=confirmation.result_of(summary)
        )
        unit.emit(event)
        if not match.confirmed and confirmation.rule_met(match, [*confirmations, event.fields()]) is not None:
            unit.columns["confirmed"] = True

    return _on_ended_too(match_id, actor, expected_version, decide)


# --- withdrawal ------------------------------------------------------------------------------------------


def match_withdraw(*, match_id, actor, reason: Any, expected_version: int | None = None) -> CommandResult:
    """An arbiter withdraws the match (filed by mistake): it counts for nothing from now on."""
    return _withdrawal(match_id, actor, reason, expected_version, withdraw=True)


def match_reinstate(*, match_id, actor, reason: Any, expected_version: int | None = None) -> CommandResult:
    """An arbiter takes a withdrawal back: the match counts again as it did before."""
    return _withdrawal(match_id, actor, reason, expected_version, withdraw=False)


def _withdrawal(match_id, actor, reason: Any, expected_version: int | None, *, withdraw: bool) -> CommandResult:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON or "\x00" in reason:
        raise InvalidInput(
            _("A reason is needed: text of 1 to %(max)d characters, without NUL.") % {"max": MAX_REASON}, field="reason"
        )

    def decide(unit: Unit) -> None:
        match = unit.match
        require_arbiter(match, actor, unit.role, what=_("a withdrawal") if withdraw else _("a reinstatement"))
        if match.withdrawn == withdraw:
            raise WithdrawalConflict(
                _("The match is withdrawn already.")
                if withdraw
                else _("The match is not withdrawn: there is nothing to reinstate.")
            )
        unit.emit((MatchWithdrawn if withdraw else MatchReinstated)(reason=reason, by=people.person_ref(actor)))
        unit.columns["withdrawn"] = withdraw

    return _on_ended_too(match_id, actor, expected_version, decide)
