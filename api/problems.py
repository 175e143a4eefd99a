"""Errors as ``application/problem+json`` (RFC 9457): the one exception handler of the API.

Every error body carries ``type``, ``title``, ``status``, ``detail`` and ``code``; ``type`` is
``/api/v1/problems/<code>/`` (``/api/v2/…`` answering a v2 request; a relative URI, resolved
against the API's host; it is served: ``GET`` it for the problem's description). Extensions:

- ``rule`` and ``error`` when a rule was broken (``error`` is the R30 error object of
  RECORD_FORMAT.md: ``code``, ``deal``, ``play_index``, ``seat``, ``card``);
- ``field`` (the offending input, e.g. ``card``, ``deals[2].plays[17]``, ``If-Match``) and
  ``errors`` (``{field: [messages]}``) for bad input;
- ``current_version`` for ``412``.

A database error that is the database's state rather than the request's — the connection lost
(``pg_terminate_backend``, a restart, a failover), a deadlock or serialization failure, a
timeout — is ``503`` ``database_unavailable`` with ``Retry-After``: the request's transaction
is rolled back (unless the connection broke in the commit itself: hence the advice to retry
with the same ``Idempotency-Key``), and the next request reconnects (``CONN_HEALTH_CHECKS``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

import psycopg
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.domain.exceptions import CommandError, RuleBroken
from games.domain.messages import VIOLATION_TEXTS
from games.engine.errors import VIOLATIONS

from .serializers import ProblemSerializer
from .versioning import current_version

PROBLEM_CONTENT_TYPE = "application/problem+json"
DATABASE_DOWN = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
DATABASE_RETRY_AFTER = 5  # seconds: a dropped connection is replaced at once, a restart takes a few
log = logging.getLogger(__name__)


def problem_type(code: str) -> str:
    """``/api/v1/problems/<code>/``, or v2's for a v2 request: a request's links stay in its version."""
    return f"/api/{current_version()}/problems/{code}/"


# code -> (status, title, description), the texts in the request's language (lazy). Rule
# violations (422) are added from the engine below, their texts from games.domain.messages.
PROBLEMS: dict[str, tuple[int, str, str]] = {
    "invalid": (
        400,
        _("Invalid request"),
        _(
            "The request body, a query parameter or a header is malformed; `field` names it and `errors` maps "
            "fields to messages."
        ),
    ),
    "parse_error": (400, _("Malformed request"), _("The body is not valid JSON (or not of its content type).")),
    "not_authenticated": (
        401,
        _("Not authenticated"),
        _("Send `Authorization: Token <key>` (see /api/v1/auth/token/) or log in for a session."),
    ),
    "authentication_failed": (401, _("Authentication failed"), _("The token or the credentials are wrong.")),
    "permission_denied": (403, _("Permission denied"), _("Your role does not allow this request.")),
    "insufficient_scope": (
        403,
        _("Outside the token's scopes"),
        _(
            "The Bearer token (an OAuth token or a personal access token) was not granted the scope this "
            "operation needs, whatever its user may do; `detail` names the scope. Ask for it, or use a session."
        ),
    ),
    "not_allowed": (
        403,
        _("Not allowed"),
        _(
            "Your role in this match does not allow this action (a player acts for his own seat, the scorer for"
            " any seat; staff only read)."
        ),
    ),
    "arbiter_involved": (
        403,
        _("Involved in the match"),
        _("An arbiter never rules on, nor withdraws, a match he plays in or scores: another arbiter (or staff) must."),
    ),
    "filer_cannot_confirm": (
        403,
        _("The filer does not confirm"),
        _("Whoever filed the match (its creator, its scorer) cannot confirm its sheet: two other seated players must."),
    ),
    "not_found": (404, _("Not found"), _("No such resource, or none you may see.")),
    "method_not_allowed": (405, _("Method not allowed"), _("This endpoint does not take that HTTP method.")),
    "not_acceptable": (406, _("Not acceptable"), _("No representation matches the Accept header.")),
    "match_closed": (
        409,
        _("The match is over"),
        _("The match is finished or abandoned; nothing more can be recorded."),
    ),
    "season_closed": (
        409,
        _("The season is closed"),
        _(
            "A closed season is read-only: no match joins it (neither a new match nor an imported record), none"
            " of its matches takes a command or a ruling; staff may reopen it with a reason."
        ),
    ),
    "annotation_not_scheduled": (
        409,
        _("Not annotated on this server"),
        _(
            "The deal is not annotated, and no job annotates deals on this server (ANNOTATE_DEALS is off, the "
            "default without a task queue): its administrator annotates them with manage.py annotate_deals. "
            "Asking again will not help until then."
        ),
    ),
    "log_unreadable": (
        409,
        _("The match's log cannot be read"),
        _(
            "A stored event of the match cannot be read: it was changed outside the service. `seq` names it; "
            "nothing that replays the log answers until it is restored (the match's audit shows where)."
        ),
    ),
    "last_admin": (
        409,
        _("A club needs an admin"),
        _("The change would leave the club without an admin: appoint another admin first."),
    ),
    "duplicate_record": (
        409,
        _("Already filed"),
        _(
            "The record's players and deals equal a match stored already; `match` is its id. Send "
            "`?allow_duplicate=true` to file it again on purpose."
        ),
    ),
    "invitation_invalid": (400, _("Invalid invitation"), _("The invitation link is not one this server signed.")),
    "invitation_expired": (410, _("Invitation expired"), _("The invitation expired; a club admin can send a new one.")),
    "person_in_unfinished_match": (
        409,
        _("In an unfinished match"),
        _(
            "The person sits in a match still in progress (`matches` lists them): it is finished or abandoned "
            "before he is erased (docs/privacy.md)."
        ),
    ),
    "chain_broken": (
        409,
        _("Event chain broken"),
        _("A match naming the person fails its chain audit: nothing is sealed over it until the arbiters look."),
    ),
    "invitation_used": (409, _("Invitation already used"), _("An invitation works once; the profile has an account.")),
    "already_confirmed": (409, _("Already confirmed"), _("Your seat has confirmed this sheet already.")),
    "match_not_finished": (409, _("The match is not finished"), _("Only a finished match's sheet is confirmed.")),
    "withdrawal_conflict": (
        409,
        _("Already withdrawn, or not withdrawn"),
        _("The match is withdrawn already (to withdraw), or is not (to reinstate)."),
    ),
    "round_seated": (
        409,
        _("The round is seated already"),
        _("That round of the evening has its tables and matches; seat the next one."),
    ),
    "evening_complete": (
        409,
        _("The evening's rounds are all seated"),
        _("Every round the evening planned is seated."),
    ),
    "too_few_players": (
        409,
        _("Too few players present"),
        _("A round needs at least four players present (a table is four, always); `present` lists those there."),
    ),
    "round_in_progress": (
        409,
        _("The previous round is still being played"),
        _("Swiss seating needs the results of the rounds before."),
    ),
    "idempotency_in_progress": (
        409,
        _("Request in progress"),
        _("A request with this Idempotency-Key is still running; retry later to get its response."),
    ),
    "version_mismatch": (
        412,
        _("Precondition failed"),
        _("If-Match named a version that is no longer current; `current_version` is the match's version now."),
    ),
    "payload_too_large": (
        413,
        _("Payload too large"),
        _(
            "The request body is over `API_MAX_BODY_BYTES`; `limit` says how many bytes are allowed. Nothing "
            "was read or stored."
        ),
    ),
    "request_timeout": (
        408,
        _("Request timeout"),
        _(
            "The request body did not arrive whole within `API_BODY_READ_SECONDS` (`limit_seconds`); nothing was "
            "stored. Send it again, at once."
        ),
    ),
    "unsupported_media_type": (415, _("Unsupported media type"), _("Send the body as application/json.")),
    "idempotency_key_reused": (
        422,
        _("Idempotency-Key reused"),
        _("This Idempotency-Key was used with a different request (method, path or body)."),
    ),
    "analysis_unavailable": (
        422,
        _("No cards to analyse"),
        _("The deal was filed by its tally or its points (R31-R33): there are no cards to analyse."),
    ),
    "ruling_outside_analysis": (
        422,
        _("Outside the analysis"),
        _(
            "A score_adjusted ruling gives a seat points outside worst..best of the analysis at the disputed "
            "position; `seats` lists them with their range. Send `override` (the reason) to rule them anyway."
        ),
    ),
    "rule_violation": (422, _("Illegal under the rules"), _("The engine rejected the event (R30).")),
    "throttled": (429, _("Too many requests"), _("Slow down; Retry-After says for how many seconds.")),
    "streaming_unavailable": (
        501,
        _("Streaming unavailable"),
        _("Event streams (`/stream/`) are served by the ASGI server (uvicorn); this one runs the API under WSGI."),
    ),
    "server_error": (
        500,
        _("Internal server error"),
        _("A fault on the server. A POST sent with an Idempotency-Key may be retried with the same key."),
    ),
    "analysis_queue_unavailable": (
        503,
        _("Analysis queue unavailable"),
        _("The analysis of a new position could not be queued: the task queue did not answer. Retry shortly."),
    ),
    "database_unavailable": (
        503,
        _("Database unavailable"),
        _(
            "The database connection failed, or the database could not serve the request now. Retry after "
            "Retry-After seconds; a POST is safe to retry with the same Idempotency-Key."
        ),
    ),
}
RULES: dict[str, str] = {}
for _code, _cls in VIOLATIONS.items():
    _title, _description = VIOLATION_TEXTS.get(_code) or (
        _code.replace("_", " ").capitalize(),
        _cls.__doc__.strip().splitlines()[0],
    )
    PROBLEMS[_code] = (422, _title, _description)
    RULES[_code] = _cls.rule


def problem(
    code: str, *, status: int | None = None, title: str | None = None, detail: str = "", **extensions: Any
) -> dict[str, Any]:
    known = PROBLEMS.get(code)
    body = {
        "type": problem_type(code) if known else "about:blank",
        "title": str(title or (known[1] if known else gettext("Error"))),
        "status": status or (known[0] if known else 400),
        "detail": str(detail),
        "code": code,
    }
    body.update({k: v for k, v in extensions.items() if v is not None})
    return body


def problem_json(body: dict[str, Any]) -> JsonResponse:
    """A problem body (``problem``) as a response outside DRF's views: Django's 404 and 500, the
    event streams."""
    return JsonResponse(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)


def exception_json(exc: Exception) -> JsonResponse:
    """The problem+json the API's exception handler makes of ``exc``, outside DRF's views (the event
    streams): a 401 with its challenge."""
    answer = exception_handler(exc, {})
    response = JsonResponse(answer.data, status=answer.status_code, content_type=PROBLEM_CONTENT_TYPE)
    if answer.status_code == 401:
        response["WWW-Authenticate"] = "Token"
    return response


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's EXCEPTION_HANDLER: domain errors and DRF's own, as problem+json. Unhandled → None (500)."""
    if isinstance(exc, CommandError):
        response = Response(_command_problem(exc), status=exc.status)
        if "current_version" in exc.extra:
            response["ETag"] = f'"{exc.extra["current_version"]}"'
    elif isinstance(exc, DATABASE_DOWN):
        log.warning("the database failed a request: %s: %s", type(exc).__name__, exc)
        detail = gettext("The database is unavailable; retry shortly.")
        response = Response(
            problem("database_unavailable", detail=detail),
            status=503,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
        )
    else:
        response = drf_exception_handler(exc, context)
        if response is None:
            return None
        response.data = _drf_problem(exc, response.status_code)
    request = context.get("request")
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or getattr(renderer, "format", "json") == "json":
        response.content_type = PROBLEM_CONTENT_TYPE
    return response


def _command_problem(exc: CommandError) -> dict[str, Any]:
    extensions: dict[str, Any] = dict(exc.extra)
    if exc.field:
        extensions["field"] = exc.field
        extensions["errors"] = {exc.field: [exc.detail]}
    if isinstance(exc, RuleBroken):
        extensions["rule"] = exc.rule
        extensions["error"] = exc.violation.as_json()
        known = PROBLEMS.get(exc.code)
        return problem(
            exc.code, status=exc.status, title=known[1] if known else exc.title, detail=exc.detail, **extensions
        )
    return problem(exc.code, status=exc.status, title=exc.title, detail=exc.detail, **extensions)


def _drf_problem(exc: Exception, status: int) -> dict[str, Any]:
    if isinstance(exc, Http404):
        return problem("not_found", status=404, detail=gettext("Not found."))
    if isinstance(exc, DjangoPermissionDenied):
        return problem(
            "permission_denied", status=403, detail=gettext("You do not have permission to perform this action.")
        )
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return problem(
            "invalid",
            status=status,
            detail=_first_message(errors) or gettext("Invalid input."),
            field=_first_field(errors),
            errors=errors,
        )
    if isinstance(exc, exceptions.Throttled):
        return problem("throttled", status=status, detail=throttled_detail(exc.wait))
    if isinstance(exc, exceptions.APIException):
        # Every code answered is a registered one (tests/api/test_api_problem_codes.py collects them).
        code = exc.default_code if exc.default_code in PROBLEMS else "invalid" if status < 500 else "server_error"
        return problem(code, status=status, detail=str(exc.detail))
    return problem("invalid", status=status, detail=str(exc))


def throttled_detail(wait: float | None) -> str:
    """The whole sentence in the reader's language: DRF's own formats the wait into its English
    text before translating it, so a Polish answer ended in English."""
    if wait is None:
        return gettext("Too many requests: try again later.")
    seconds = max(1, math.ceil(wait))
    return ngettext(
        "Too many requests: try again in %(seconds)d second.",
        "Too many requests: try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def _first_field(errors: Any, prefix: str = "") -> str | None:
    """The dotted path of the first offending field (``seats.N``), when there is one."""
    if not isinstance(errors, dict) or not errors:
        return prefix or None
    key, value = next(iter(errors.items()))
    if key == "non_field_errors":
        return prefix or None
    path = f"{prefix}.{key}" if prefix else str(key)
    return _first_field(value, path) if isinstance(value, dict) else path


def _first_message(errors: Any) -> str | None:
    if isinstance(errors, dict):
        for value in errors.values():
            found = _first_message(value)
            if found:
                return found
        return None
    if isinstance(errors, list):
        for value in errors:
            found = _first_message(value)
            if found:
                return found
        return None
    return str(errors)


# --- the OpenAPI document -------------------------------------------------------------------------


def problem_response(description: str) -> OpenApiResponse:
    """One problem+json response of an operation's schema, described."""
    return OpenApiResponse(ProblemSerializer, description=description)


def problem_responses(texts: Mapping[int, str]) -> Callable[..., dict]:
    """A group of operations' ``errors(*statuses, not_found=None)``: their problem+json responses,
    each status described by ``texts`` (``not_found``: another 404 text for one operation)."""

    def errors(*statuses: int, not_found: str | None = None) -> dict:
        text = {**texts, 404: not_found} if not_found else texts
        return {(code, PROBLEM_CONTENT_TYPE): problem_response(text[code]) for code in statuses}

    return errors


def document_database_unavailable(result: dict, generator, request, public) -> dict:
    """drf-spectacular postprocessing hook: any operation may answer ``503`` ``database_unavailable``."""
    response = {
        "description": f"{PROBLEMS['database_unavailable'][2]} (`database_unavailable`)",
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method in HTTP_METHODS:
                operation.setdefault("responses", {}).setdefault("503", response)
    return result


HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


# --- Django's own 404 and 500 (outside DRF views): problem+json under /api/ -------------------------


def page_not_found(request, exception=None):
    """``handler404``: an unknown URL under /api/ is a problem too (with DEBUG off)."""
    if request.path.startswith("/api/"):
        return problem_json(
            problem("not_found", status=404, detail=gettext("no endpoint %(path)s") % {"path": request.path})
        )
    return defaults.page_not_found(request, exception)


def server_error(request):
    """``handler500``: nothing about the failure leaks; the log has it."""
    if request.path.startswith("/api/"):
        return problem_json(problem("server_error", status=500, detail=gettext("Something went wrong on our side.")))
    return defaults.server_error(request)
