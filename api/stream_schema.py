"""The OpenAPI description of the live-update streams of ``api/streams.py``.

They are plain async Django views (DRF has no async views), so drf-spectacular does not see
them; ``add_streams``, a postprocessing hook (``SPECTACULAR_SETTINGS``), adds their operations.
OpenAPI 3.0 describes a ``text/event-stream`` body by the schema of one event: each frame
(``id:``, ``event:``, ``data:``) as an object, the way SSE clients and schemathesis read it;
``data`` is one line of JSON, described in words (3.0 cannot validate JSON inside a string).
"""

from __future__ import annotations

from typing import Any

from .schema_hooks import problem_response
from .streams import EVENT_STREAM

NOTICE_TYPES = ["match_started", "your_turn", "lead_decision", "match_finished"]


def add_streams(result: dict, generator, request, public) -> dict:
    """``POSTPROCESSING_HOOKS`` entry: each stream's path, next to its neighbours in the document."""
    result["components"]["schemas"] = dict(sorted({**result["components"]["schemas"], **SCHEMAS}.items()))
    paths = result["paths"]
    for path, operation, after in (
        ("/api/v1/matches/{id}/stream/", MATCH_STREAM, "/api/v1/matches/{id}/state/"),
        ("/api/v1/me/stream/", ME_STREAM, "/api/v1/matches/import/"),
    ):
        paths = _insert_after(paths, after, path, {"get": operation})
    result["paths"] = paths
    return result


def _insert_after(paths: dict, anchor: str, path: str, item: dict) -> dict:
    if anchor not in paths:
        return {**paths, path: item}
    out = {}
    for key, value in paths.items():
        out[key] = value
        if key == anchor:
            out[path] = item
    return out


# --- components ----------------------------------------------------------------------------------------


def _frame(description: str, *, id: str, event: dict, data: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "required": ["event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": id},
            "event": event,
            "data": {"type": "string", "description": data},
        },
    }


SCHEMAS = {
    "MatchStreamEvent": _frame(
        "One frame of a match's event stream.",
        id="The event's `seq` (none on `end`): what `Last-Event-ID` resumes from.",
        event={
            "oneOf": [{"$ref": "#/components/schemas/EventType"}, {"type": "string", "enum": ["end"]}],
            "description": "The event's type; `end` once the match is over (then the server closes).",
        },
        data="One line of JSON: the event as `events/` shows it to you (an `Event`: `seq`, `type`, `payload`, "
        '`actor`, `created_at`, `hash`, `redacted`); on `end`, `{"status", "version"}`.',
    ),
    "FeedStreamEvent": _frame(
        "One notice of a player's own feed.",
        id="The highest event id the feed has covered (never goes down): what `Last-Event-ID` resumes from.",
        event={"type": "string", "enum": NOTICE_TYPES},
        data="One line of JSON: `id` (the causing event's id), `type`, `match`, and by type: `your_turn` "
        "`version`, `seat`, `deal`, `legal_cards`, `can_sell`; `lead_decision` `version`, `seat`, "
        "`deal`, `offers`; `match_finished` `status`, `version`, `totals`, `winners`.",
    ),
}


# --- operations ----------------------------------------------------------------------------------------

_RESUME = [
    {
        "in": "header",
        "name": "Last-Event-ID",
        "schema": {"type": "string"},
        "description": "Resume after this id (an `EventSource` sends it when it reconnects); digits, else 400.",
    },
    {
        "in": "query",
        "name": "after",
        "schema": {"type": "integer", "minimum": 0},
        "description": "Start after this id on a first connection (`Last-Event-ID` wins).",
    },
]


def _stream(component: str, description: str) -> dict:
    return {
        "description": description,
        "headers": {"Cache-Control": {"schema": {"type": "string", "enum": ["no-cache"]}}},
        "content": {EVENT_STREAM: {"schema": {"$ref": f"#/components/schemas/{component}"}}},
    }


_ERRORS: dict[str, Any] = {
    "400": problem_response("`Last-Event-ID` or `after` is not a whole number (`code: invalid`, `field`)."),
    "401": problem_response("Not authenticated (a token in the query string is refused)."),
    "501": problem_response(
        "`streaming_unavailable`: this server runs the API under WSGI; streams are served by the ASGI server (uvicorn)."
    ),
}
_SECURITY = [{"tokenAuth": []}, {"cookieAuth": []}]

MATCH_STREAM = {
    "operationId": "matches_stream",
    "summary": "The match's events, live (Server-Sent Events)",
    "description": "Each event the viewer may see as one frame (`id:` its `seq`, `event:` its type, `data:` the "
    "event as `events/` shows it), from `Last-Event-ID` or `?after=` on, then each new one as it "
    "is stored; `: keep-alive` comments in between. Once the match is over: `event: end`, and the "
    "server closes the stream. Served by the ASGI server (uvicorn).",
    "tags": ["matches"],
    "parameters": [
        {
            "in": "path",
            "name": "id",
            "required": True,
            "schema": {"type": "string", "format": "uuid"},
            "description": "A UUID string identifying this match.",
        },
        *_RESUME,
    ],
    "security": _SECURITY,
    "responses": dict(
        sorted(
            {
                "200": _stream("MatchStreamEvent", "The event stream; it ends after `end`."),
                "204": {
                    "description": "The match is over and nothing follows the resume point: an `EventSource` stops "
                    "reconnecting."
                },
                **_ERRORS,
                "404": problem_response("No such match, or one you may not see."),
            }.items()
        )
    ),
}

ME_STREAM = {
    "operationId": "me_stream",
    "summary": "Your own feed, live (Server-Sent Events)",
    "description": "Notices about the matches you sit in: `match_started`, `your_turn`, `lead_decision`, "
    "`match_finished` (`data.match` names the match). On every connection, first what your "
    "matches in progress expect of you now; with `Last-Event-ID`, also the matches started and "
    "finished after it. Never ends by itself. Served by the ASGI server (uvicorn).",
    "tags": ["matches"],
    "parameters": _RESUME,
    "security": _SECURITY,
    "responses": {"200": _stream("FeedStreamEvent", "The notices, as they come."), **_ERRORS},
}
