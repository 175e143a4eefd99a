"""Errors the match commands raise; the API turns each into problem+json (RFC 9457)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.domain.messages import violation_detail
from games.engine.errors import RuleViolation


def quoted(value: str, *, limit: int = 40) -> str:
    """A client's input as an error message quotes it: ``repr`` (a NUL shows as ``\\x00``),
    cut to ``limit`` characters (a 20,000-character header is not echoed whole)."""
    return repr(value if len(value) <= limit else value[:limit] + "…")


class CommandError(Exception):
    """``detail`` is for people: raise it translated (gettext, in the request's language)."""

    status = 400
    code = "invalid"
    title = _("Invalid request")
    role = None  # the caller's role in the match, set by ``commands.run`` once it admitted him

    def __init__(self, detail: str, *, field: str | None = None, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.extra = extra


class InvalidInput(CommandError):
    """The request is malformed: a missing or badly typed field, a string that is not a card."""


class NotAllowed(CommandError):
    status, code, title = 403, "not_allowed", _("Not allowed")


class NotFound(CommandError):
    status, code, title = 404, "not_found", _("Not found")


class VersionConflict(CommandError):
    """``If-Match`` named a version that is no longer current (optimistic concurrency)."""

    status, code, title = 412, "version_mismatch", _("Precondition failed")


class RuleBroken(CommandError):
    """The engine rejected the event (R30); ``violation`` carries the code and the rule id."""

    status, code, title = 422, "rule_violation", _("Illegal under the rules")

    def __init__(self, violation: RuleViolation):
        super().__init__(violation_detail(violation))  # in the reader's language; the engine's is English
        self.violation = violation
        self.code = violation.code
        self.rule = violation.rule


class MatchClosed(CommandError):
    status, code, title = 409, "match_closed", _("The match is over")


class DuplicateRecord(CommandError):
    """The record's deals and players equal a match already stored (``match``: its id)."""

    status, code, title = 409, "duplicate_record", _("Already filed")


class LogUnreadable(CommandError):
    """A stored event of the match cannot be read (its payload was changed outside the service):
    nothing that folds the log can answer; the audit names the event (``games.read.audit``)."""

    status, code, title = 409, "log_unreadable", _("The match's log cannot be read")

    def __init__(self, seq: int, type: str):
        super().__init__(
            gettext(
                "Event %(seq)s (%(type)s) of this match's log cannot be read: it was changed outside the "
                "service. The match's audit shows where."
            )
            % {"seq": seq, "type": type},
            seq=seq,
        )


class MatchReadOnly(CommandError):
    """The match belongs to a closed season (``Match.read_only``): nothing more can be recorded
    until staff reopen the season."""

    status, code, title = 409, "season_closed", _("The season is closed")


# --- roles, signing the sheet, withdrawal (games/domain/roles.py, games/write/signoffs.py) ----------------------------


class ArbiterInvolved(NotAllowed):
    """An arbiter who plays in or scores the match does not rule on it, nor withdraw it."""

    code, title = "arbiter_involved", _("Involved in the match")


class FilerCannotConfirm(NotAllowed):
    """Whoever filed the match (its creator, its scorer) does not confirm his own sheet."""

    code, title = "filer_cannot_confirm", _("The filer does not confirm")


class AlreadyConfirmed(CommandError):
    """This seat has signed the sheet already."""

    status, code, title = 409, "already_confirmed", _("Already confirmed")


class MatchNotFinished(CommandError):
    """Only a finished match's sheet is signed."""

    status, code, title = 409, "match_not_finished", _("The match is not finished")


class WithdrawalConflict(CommandError):
    """Withdrawing a match already withdrawn, or reinstating one that is not."""

    status, code, title = 409, "withdrawal_conflict", _("Already withdrawn, or not withdrawn")


class AnalysisUnavailable(CommandError):
    """The deal has no cards to analyse: it was filed by its tally or its points (R31–R33)."""

    status, code, title = 422, "analysis_unavailable", _("No cards to analyse")


class AnalysisQueueUnavailable(CommandError):
    """The analysis of a new position could not be queued: the broker did not answer."""

    status, code, title = 503, "analysis_queue_unavailable", _("Analysis queue unavailable")


class RulingOutsideAnalysis(CommandError):
    """A ``score_adjusted`` ruling gives a seat points outside what it could still reach."""

    status, code, title = 422, "ruling_outside_analysis", _("Outside the analysis")
