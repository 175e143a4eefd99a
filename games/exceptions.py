"""Errors the match commands raise; the API turns each into problem+json (RFC 9457)."""

from __future__ import annotations

from typing import Any

from games.engine.errors import RuleViolation


def quoted(value: str, *, limit: int = 40) -> str:
    """A client's input as an error message quotes it: ``repr`` (a NUL shows as ``\\x00``),
    cut to ``limit`` characters (a 20,000-character header is not echoed whole)."""
    return repr(value if len(value) <= limit else value[:limit] + "…")


class CommandError(Exception):
    status = 400
    code = "invalid"
    title = "Invalid request"

    def __init__(self, detail: str, *, field: str | None = None, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.extra = extra


class InvalidInput(CommandError):
    """The request is malformed: a missing or badly typed field, a string that is not a card."""


class NotAllowed(CommandError):
    status, code, title = 403, "not_allowed", "Not allowed"


class NotFound(CommandError):
    status, code, title = 404, "not_found", "Not found"


class VersionConflict(CommandError):
    """``If-Match`` named a version that is no longer current (optimistic concurrency)."""

    status, code, title = 412, "version_mismatch", "Precondition failed"


class RuleBroken(CommandError):
    """The engine rejected the event (R30); ``violation`` carries the code and the rule id."""

    status, code, title = 422, "rule_violation", "Illegal under the rules"

    def __init__(self, violation: RuleViolation):
        super().__init__(violation.detail)
        self.violation = violation
        self.code = violation.code
        self.rule = violation.rule


class MatchClosed(CommandError):
    status, code, title = 409, "match_closed", "The match is over"
