"""The unit of work: every command that writes a match's events runs through ``run``.

One straight line, in one transaction (docs/card-play.md):

1. **lock** the match row and its projection's (``_lock``: one statement, ``games.sql``);
2. **admit** the caller: his role in the match (``roles.role_of``); whoever may not read the
   match learns nothing of it — ``NotFound``, before anything else is checked;
3. **check the version** the client expects (``If-Match``: ``VersionConflict``), that the match
   is in progress (unless ``ended_too``) and that its season is not closed;
4. **decide** through the engine: the command's ``decide(unit)`` (``services``, ``signoffs``,
   ``disputes``) checks and ``emit``s events on the ``Unit``, which holds the locked match, its
   engine state and the caller's role. A refusal stores nothing; a broken rule is refused as
   ``RuleBroken`` located (deal, play index) from the state the unit holds;
5. **append** the events, chained (``_commit``), and **project** them into the read models
   (``_project``) — or nothing at all;
6. **signal** what the command produced (``signals.events_appended`` with the ``CommandResult``:
   the live notification, the webhook outbox), inside the transaction.

A card play first takes the fast path (``games.write.fastplay.play``; PostgreSQL): the same
steps without the lock, on the match as this process's last command on it left it
(``states``), and one statement that writes the events only if the match is still there. What
it did not write it has not written at all, and the play takes the line above, where what the
fast path decided is taken as decided if the locked match is where it found it — decided again
only if the match moved in between (docs/card-play.md). Handed a claim on an
``Idempotency-Key`` (``games.write.claims``: plain values from the API), the fast path's
statement stores the key with its answer too; a play that cannot be stored so writes nothing and
raises ``claims.NotClaimed``.

The answer, ``CommandResult``, carries the events, the engine state after them and the caller's
role, so that the API serialises it without another read. A refusal carries the caller's role
too (``CommandError.role``): the API tells an outsider's refused input from an admitted caller's
(``hide_from_outsiders``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games import sql
from games.domain import confirmation
from games.domain.exceptions import CommandError, MatchClosed, MatchReadOnly, NotFound, RuleBroken, VersionConflict
from games.domain.fingerprints import record_fingerprint
from games.domain.log import stream_rows
from games.domain.projections import deal_score_rows, snapshot_of, summary_of
from games.domain.roles import Role, role_of
from games.domain.rulings import rulings_of
from games.domain.sign_offs import sign_offs_of
from games.domain.signals import announce_result
from games.engine.errors import RuleViolation
from games.engine.match import restore
from games.models import DealScore, DealSecret, Match, MatchEvent, MatchProjection
from games.read import live
from games.read.record import match_record
from games.write import claims, fastplay, states
from games.write.results import CommandResult, signalled
from games.write.unit import Unit, chained, plays_projected, summary_unchanged

__all__ = ["CommandResult", "Unit", "append", "admit", "hide_from_outsiders", "refuse_if_read_only", "run"]

# Where a broken rule is located, by what the command does (``run``'s ``locate``).
DEAL, PLAY, OFFER, DECISION, TALLY = "deal", "play", "offer", "decision", "tally"


# --- the runner ------------------------------------------------------------------------------


def run(
    *,
    match_id,
    actor,
    expected_version: int | None,
    decide: Callable[[Unit], None],
    ended_too: bool = False,
    locate: str | None = None,
    not_found: str | None = None,
    fast_path: bool = False,
    claim: claims.Claim | None = None,
    admit: Callable[[Match, Role], None] | None = None,
) -> CommandResult:
    """Run one command: lock, admit, check the version, ``decide``, append, project, signal —
    all in one transaction, or nothing is stored (the module docstring). ``ended_too``: also on
    a finished or abandoned match (signing the sheet, withdrawing it, a ruling). ``locate``:
    what the command does (``DEAL``, ``PLAY``, …), for where a broken rule is located.
    ``not_found``: the detail an outsider's 404 gives (default: no such match). ``fast_path``:
    a card play — first the fast path (``fastplay.play``), which stores the same, or nothing; what
    it decided but did not write is taken as decided here if the match has not moved. ``claim``:
    an ``Idempotency-Key`` the fast path stores with the play — or ``claims.NotClaimed``, nothing
    written.
    ``admit``: a refusal by the caller's role alone (an arbiter's ruling), checked before the version:
    a precondition is ignored when the answer without it would not be a success (RFC 9110
    §13.2.1), so a non-arbiter's stale ruling is ``403`` as in v1 1.0.0, not ``412``.

    Decisions write nothing (``_commit`` writes what they emitted), so a refusal leaves nothing to
    undo: inside a caller's transaction (the API's Idempotency-Key, which stores the refusal) the
    block needs no savepoint — two statements fewer on every card play. The refusal is raised
    after the block, so that it does not doom the caller's transaction."""
    played = fastplay.play(match_id, actor, expected_version, decide, claim) if fast_path else None
    if played is not None and played.result is not None:
        return played.result
    if claim is not None:
        raise claims.NotClaimed  # only the fast path stores a claim's answer: nothing written
    unit = role = None
    with transaction.atomic(savepoint=False):
        try:
            match = _lock(match_id)
            role = role_of(match, actor)
            if not role.may_read:
                raise NotFound(not_found or gettext("no match %(id)s") % {"id": match_id})
            if admit is not None:
                admit(match, role)
            unit = _locked_unit(match, actor, role, expected_version, ended_too)
            reused = played.reused(unit) if played is not None else None  # decided on the fast path
            if reused is None:
                decide(unit)
            else:
                unit = reused
        except (CommandError, RuleViolation) as refusal:
            error = refusal
        else:
            return append(unit)
    if isinstance(error, RuleViolation):
        error = _broken(error, unit, locate)
    error.role = role  # None: refused before the caller was admitted (no such match)
    raise error


def append(unit: Unit) -> CommandResult:
    """Append the unit's events (``_commit``: chained, then projected) and signal them: the last
    steps of ``run``, and of the commands that build their unit themselves (a new match, an
    imported record)."""
    return signalled(CommandResult(unit.match, _commit(unit), unit.state, unit.role, unit.projection))


def admit(*, match_id, actor, not_found: str | None = None) -> Role:
    """The caller's role in the match (not locked), or ``NotFound`` if he may not read it or it
    does not exist. ``run`` admits on the locked match; this is for a command refused before it
    ran (``hide_from_outsiders``)."""
    try:
        match = Match.objects.filter(pk=Match._meta.pk.to_python(match_id)).first()
    except (ValueError, TypeError, ValidationError):
        match = None
    role = role_of(match, actor) if match is not None else Role(Role.NOBODY)
    if not role.may_read:
        raise NotFound(not_found or gettext("no match %(id)s") % {"id": match_id})
    return role


def hide_from_outsiders(refusal: Exception, *, match_id, actor) -> None:
    """Before a command's refusal is answered: ``NotFound`` instead if the caller may not read the
    match — whatever refused it (its input, a bad ``If-Match``) before ``run`` admitted him. A
    refusal ``run`` made carries the role it admitted (``CommandError.role``): nothing to read."""
    if getattr(refusal, "role", None) is None:
        admit(match_id=match_id, actor=actor)


def _broken(violation: RuleViolation, unit: Unit | None, locate: str | None) -> RuleBroken:
    """The refusal of a broken rule, located from the match as the unit locked it (the command
    stored nothing): ``deal`` (1-based) and, for a card, ``play_index`` (0-based)."""
    refusal = RuleBroken(violation)
    if unit is not None and unit.projection is not None and locate is not None:
        snapshot = unit.projection.snapshot
        in_play = snapshot["played"] + 1 if snapshot.get("deal") is not None else None
        if locate == DEAL:
            violation.located(deal=snapshot["played"] + 1)
        elif in_play is not None and locate == PLAY:
            violation.located(deal=in_play, play_index=len(snapshot["deal"]["plays"]))
        elif in_play is not None:
            violation.located(deal=in_play)
    if locate == PLAY and violation.code == "not_your_turn":
        refusal.detail = gettext("It is not your turn: seat %(seat)s is on turn.") % {"seat": violation.seat}
    return refusal


def _locked_unit(match: Match, actor, role: Role, expected_version: int | None, ended_too: bool) -> Unit:
    """The unit of a locked match whose caller is admitted: its version and status checked."""
    if expected_version is not None and expected_version != match.version:
        raise VersionConflict(
            gettext("the match is at version %(version)s, not %(expected_version)s")
            % {"version": match.version, "expected_version": expected_version},
            current_version=match.version,
        )
    if match.status != Match.Status.IN_PROGRESS and not ended_too:
        raise MatchClosed(
            gettext("the match is %(status)s; nothing more can be recorded")
            % {"status": str(match.get_status_display()).lower()}
        )
    refuse_if_read_only(match)
    projection, state = match.projection, states.kept_state(match.projection)
    return Unit(match, projection, restore(projection.snapshot) if state is None else state, actor, role=role)


def refuse_if_read_only(match: Match) -> None:
    """A match of a closed season takes no command (nor a ruling) until its season reopens."""
    if match.read_only:
        raise MatchReadOnly(
            gettext("the match belongs to a closed season; nothing more can be recorded until staff reopen it")
        )


def _lock(match_id) -> Match:
    """Lock the match row and its projection's, and read both, in one statement (``games.sql``:
    it runs on every card play). A client that waited for the locks gets the rows as the previous
    one committed them: READ COMMITTED re-reads the latest version of every row it locks."""
    try:
        pk = Match._meta.pk.to_python(match_id)
    except (ValueError, TypeError, ValidationError):
        raise NotFound(gettext("no match %(id)s") % {"id": match_id}) from None
    match = sql.match_lock(pk, known=states.known(pk))  # the state kept from this process's last command on it
    if match is None:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id})
    return match


def _commit(unit: Unit) -> list[MatchEvent]:
    """Append the unit's events (chained), then bring the read models up to date."""
    rows, head = chained(unit)
    if unit.secrets:
        DealSecret.objects.bulk_create(unit.secrets)
    _project(unit, head, rows)  # inserts the rows with the read models' new values
    states.keep(unit.projection, unit.state, unit.match)
    return rows


def _project(unit: Unit, head: str, rows: list[MatchEvent]) -> None:
    """Append ``rows`` with the match's new version and status and the projection's new values —
    one statement on PostgreSQL (``games.sql.events_append``), with the ``pg_notify`` that wakes
    the live views — then what only a deal's or the match's end writes."""

    match, state = unit.match, unit.state
    finished_before = len(unit.projection.summary["deals"]) if unit.projection else 0
    if state.complete and match.status == Match.Status.IN_PROGRESS:
        match.status = Match.Status.FINISHED
        if not match.confirmed and confirmation.played_by_own_seats(match):  # it ends now: rule "online"
            unit.columns["confirmed"] = True
    for name, value in unit.columns.items():
        setattr(match, name, value)
    unchanged = unit.projection is not None and summary_unchanged(unit, finished_before)
    patches = None
    if unchanged:  # cards played in a deal that goes on: the snapshot gains them, nothing else changes
        values, patches = plays_projected(unit, head)
    else:
        values = dict(version=match.version, head_hash=head, snapshot=snapshot_of(state))
        earlier = unit.projection.summary if unit.projection else None
        appended = stream_rows(rows)
        values["summary"] = summary_of(state, match, rulings_of(appended, earlier.get("rulings") if earlier else None))
        values["summary"].update(sign_offs_of(appended, earlier))
        _reconfirm(unit, earlier, values["summary"])
    sql.events_append(
        match,
        rows,
        match_values=dict(version=match.version, status=match.status, **unit.columns),
        projection_values=values if unit.projection is not None else None,
        notify=live.moved_notice(match),
        patches=patches,
    )
    if unit.projection is None:
        unit.projection = MatchProjection.objects.create(match=match, **values)
    else:
        for name, value in values.items():
            setattr(unit.projection, name, value)
    if match.status != Match.Status.IN_PROGRESS:  # commands only run on matches in progress: it ends now
        if match.status == Match.Status.FINISHED and match.fingerprint is None:
            _fingerprint_finished(match)
        announce_result(Match, match_id=match.pk, status=match.status)
    if len(state.results) > finished_before:
        DealScore.objects.bulk_create(deal_score_rows(match, state, finished_before + 1))


def _reconfirm(unit: Unit, earlier: dict[str, Any] | None, summary: dict[str, Any]) -> None:
    """A command that changed a confirmed result (a ruling, a replacement deal) voids the
    signatures on the old one: the match is confirmed again only by a rule that holds for the new
    result (``confirmation.reconfirmed``; issue 30, finding 4). Before the row is written."""
    still = confirmation.reconfirmed(unit.match, earlier, summary) if earlier else None
    if still is not None:
        unit.match.confirmed = unit.columns["confirmed"] = still


def _fingerprint_finished(match: Match) -> None:
    """A match filed live gets the fingerprint of its record when it finishes, so that importing
    the same sheet afterwards is caught too."""
    record = match_record(match=match, viewer=Role(Role.PLAYER))
    match.fingerprint = record_fingerprint(record)
    sql.update(Match, match.pk, fingerprint=match.fingerprint)
