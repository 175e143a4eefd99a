"""Errors the match commands raise; the API turns each into problem+json (RFC 9457)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine.errors import RuleViolation
from games.messages import violation_detail


class CommandError(Exception):
    """``detail`` is for people: raise it translated (gettext, in the request's language)."""

    status = 400
    code = "invalid"
    title = _("Invalid request")

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
