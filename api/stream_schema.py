"""The OpenAPI description of the live-update streams of ``api/streams.py``.

They are plain async Django views (DRF has no async views), so drf-spectacular does not see
them; ``add_streams``, a postprocessing hook (``SPECTACULAR_SETTINGS``), adds their operations.
OpenAPI describes a ``text/event-stream`` body by the schema of one event: each frame (``id:``,
``event:``, ``data:``) as an object, the way SSE clients and schemathesis read it. A stream's
frame is the union of one frame per event name (``CardPlayedFrame``: ``event`` the constant
``card_played``), discriminated by ``event``; ``data`` is one line of JSON whose schema 3.1 gives
as ``contentSchema`` (the ``CardPlayedEvent`` component; on a player's feed the notice's
component, ``YourTurnNotice``, itself one member of ``FeedNotice``, discriminated by ``type``).
"""

from __future__ import annotations

from typing import Any

from games.models import MatchEvent

from .schema_hooks import problem_response
from .streams import EVENT_STREAM
from .versioning import V1

NOTICE_TYPES = ["match_started", "your_turn", "lead_decision", "deal_due", "match_finished"]
REF = "#/components/schemas/"


def add_streams(result: dict, generator, request, public) -> dict:
    """``POSTPROCESSING_HOOKS`` entry: each stream's path, next to its neighbours in the document."""
    result["components"]["schemas"] = dict(sorted({**result["components"]["schemas"], **SCHEMAS}.items()))
    paths = result["paths"]
    api = f"/api/{generator.api_version or V1}"  # the schema's version (api/versioning.py)
    for path, operation, after in (
        ("/matches/{id}/stream/", MATCH_STREAM, "/matches/{id}/state/"),
        ("/me/stream/", ME_STREAM, "/matches/import/"),
    ):
        paths = _insert_after(paths, api + after, api + path, {"get": operation})
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


def _camel(name: str) -> str:
    return "".join(word.capitalize() for word in name.split("_"))


def _frame(description: str, *, id: str | None, event: str, data: str) -> dict:
    """One frame: ``event`` the constant ``event``, ``data`` JSON of the component ``data``."""
    properties = {
        "event": {"type": "string", "const": event},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": f"{REF}{data}"},
            "description": f"One line of JSON: a `{data}`.",
        },
    }
    if id is not None:
        properties = {"id": {"type": "string", "pattern": "^[0-9]+$", "description": id}, **properties}
    return {"type": "object", "description": description, "required": ["event", "data"], "properties": properties}


def _union(description: str, frames: dict[str, str], property: str = "event") -> dict:
    """``frames`` (event name → component name) as one schema, discriminated by ``property``."""
    return {
        "description": description,
        "oneOf": [{"$ref": f"{REF}{name}"} for name in dict.fromkeys(frames.values())],
        "discriminator": {"propertyName": property, "mapping": {key: f"{REF}{name}" for key, name in frames.items()}},
    }


EVENT_ID = "The event's `seq`: what `Last-Event-ID` resumes from."
FEED_ID = "The highest event id the feed has covered (never goes down): what `Last-Event-ID` resumes from."

# The match stream: one frame per event type, and ``end``.
MATCH_FRAMES = {event_type: f"{_camel(event_type)}Frame" for event_type in MatchEvent.Type.values}
MATCH_FRAMES["end"] = "EndFrame"
# The feed: one frame per notice type.
FEED_FRAMES = {notice: f"{_camel(notice)}NoticeFrame" for notice in NOTICE_TYPES}


def _notice(notice: str, description: str, properties: dict, required: list[str]) -> dict:
    return {
        "type": "object",
        "description": description,
        "properties": {
            "id": {"type": "integer", "description": "The id of the event that caused it."},
            "type": {"type": "string", "const": notice},
            "match": {"type": "string", "format": "uuid"},
            **properties,
        },
        "required": ["id", "type", "match", *required],
    }


_SEAT = {"$ref": f"{REF}Seat"}
_ON_TURN = {
    "version": {"type": "integer"},
    "seat": _SEAT,
    "deal": {"type": "integer", "description": "The deal's number."},
}
NOTICES = {
    "MatchStartedNotice": _notice("match_started", "A match you sit in was created.", {}, []),
    "YourTurnNotice": _notice(
        "your_turn",
        "Your card is due.",
        {
            **_ON_TURN,
            "legal_cards": {"type": "array", "items": {"type": "string"}},
            "can_sell": {"type": "boolean", "description": "You hold the lead and may still sell it (R26, R28)."},
        },
        ["version", "seat", "deal", "legal_cards", "can_sell"],
    ),
    "LeadDecisionNotice": _notice(
        "lead_decision",
        "Offers for your lead wait for your decision.",
        {**_ON_TURN, "offers": {"type": "array", "items": {"$ref": f"{REF}Offer"}}},
        ["version", "seat", "deal", "offers"],
    ),
    "DealDueNotice": _notice(
        "deal_due",
        "No deal is in play and you deal the next one (the match's `next_deal`): deal it, or file it.",
        {**_ON_TURN, "next_deal": {"$ref": f"{REF}NextDeal"}},
        ["version", "seat", "deal", "next_deal"],
    ),
    "MatchFinishedNotice": _notice(
        "match_finished",
        "A match you sat in ended.",
        {
            "status": {"$ref": f"{REF}MatchStatus"},
            "version": {"type": "integer"},
            "totals": {"$ref": f"{REF}SeatInts"},
            "winners": {"type": "array", "items": _SEAT},
        },
        ["status", "version", "totals", "winners"],
    ),
}

SCHEMAS = {
    "MatchStreamEvent": _union("One frame of a match's event stream, by its `event`.", MATCH_FRAMES),
    **{
        name: _frame(
            f"A `{event_type}` event, as `events/` shows it to you.",
            id=EVENT_ID,
            event=event_type,
            data=f"{_camel(event_type)}Event",
        )
        for event_type, name in MATCH_FRAMES.items()
        if event_type != "end"
    },
    "EndFrame": _frame("The match is over; the server closes the stream.", id=None, event="end", data="StreamEnd"),
    "StreamEnd": {
        "type": "object",
        "properties": {"status": {"$ref": f"{REF}MatchStatus"}, "version": {"type": "integer"}},
        "required": ["status", "version"],
    },
    "FeedStreamEvent": _union("One notice of a player's own feed, by its `event`.", FEED_FRAMES),
    **{
        name: _frame(f"A `{notice}` notice.", id=FEED_ID, event=notice, data=f"{_camel(notice)}Notice")
        for notice, name in FEED_FRAMES.items()
    },
    **NOTICES,
    "FeedNotice": _union(
        "The `data` of a feed frame: narrow it by `type`.",
        {notice: f"{_camel(notice)}Notice" for notice in NOTICE_TYPES},
        property="type",
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
