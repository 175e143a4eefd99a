"""The ``/api/v2/`` schema: v1's operations as v2 answers them (``POSTPROCESSING_HOOKS``' last entry;
it changes nothing in v1's). The views are the same; what v2 answers differently is decided at run
time by api/pagination.py and api/versioning.py, and described here in one pass:

- every list (every GET answering an array, a v1 page or the event log) answers a cursor page
  ``{"next", "previous", "results"}``: ``?cursor=`` instead of ``?page=`` (the log keeps ``after``),
  ``?limit=`` 1 to 200, default 50; its operation id ends in ``_list``;
- an event's ``created_at`` is given with ``Z``;
- the two commands named as if they created something take the names of the other commands;
- the texts name v2's paths: the problem types (``api.problems.problem_type``), the token endpoint, the PDFs."""

from __future__ import annotations

import re

from .pagination import CURSOR, DEFAULT_LIMIT, LIMIT_HELP, MAX_LIMIT
from .versioning import V2

REF = "#/components/schemas/"
PAGE_SHAPE = {"count", "next", "previous", "results"}
LOG_OPERATION = "matches_events"
CURSOR_HELP = "Where the page starts: the opaque value of a `next` or `previous` link. Follow the links."
LIMIT_PARAMETER = {
    "in": "query",
    "name": "limit",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
    "description": LIMIT_HELP,
}
CURSOR_PARAMETER = {"in": "query", "name": CURSOR, "schema": {"type": "string"}, "description": CURSOR_HELP}
# v1's names kept there (a renamed id breaks a generated client), v2's here; the lists' are below.
RENAMED = {"seasons_close_create": "seasons_close", "seasons_reopen_create": "seasons_reopen"}
EVENT_TIME_HELP = (
    "ISO 8601 in UTC with microseconds and `Z`, e.g. `2025-05-01T18:02:03.123456Z`. The text hashed into "
    'the chain is this with its final `Z` written `+00:00` (docs/api.md, "v2").'
)


def describe_v2(result: dict, generator, request, public) -> dict:
    if generator.api_version != V2:
        return result
    schemas = result["components"]["schemas"]
    for item in result["paths"].values():
        operation = item.get("get")
        if operation is not None and list_items(schemas, operation) is not None:
            as_cursor_list(schemas, operation)
        for operation in item.values():
            operation["operationId"] = RENAMED.get(operation["operationId"], operation["operationId"])
    for schema in schemas.values():
        time_with_z(schema)
    result["info"]["version"] = "2.0.0"
    return in_v2_words(result)


# v1's paths named in the texts → v2's. Webhook bodies keep theirs: they are not versioned.
V2_WORDS = [
    (re.compile(r"/api/v1/problems/"), "/api/v2/problems/"),
    (re.compile(r"/api/v1/auth/token/"), "/api/v2/auth/token/"),
    (re.compile(r"/api/v1/([\w/{}-]+)\.pdf\b"), r"/api/v2/\1/pdf/"),
]


def in_v2_words(value):
    if isinstance(value, str):
        for pattern, replacement in V2_WORDS:
            value = pattern.sub(replacement, value)
        return value
    if isinstance(value, dict):
        return {key: in_v2_words(item) for key, item in value.items()}
    if isinstance(value, list):
        return [in_v2_words(item) for item in value]
    return value


def answer_of(operation: dict) -> dict | None:
    return operation["responses"].get("200", {}).get("content", {}).get("application/json")


def list_items(schemas: dict, operation: dict) -> dict | None:
    """The schema of a list's items, if ``operation`` answers a list (else None)."""
    answer = answer_of(operation)
    schema = (answer or {}).get("schema", {})
    if schema.get("type") == "array":
        return schema["items"]
    component = schemas.get(schema.get("$ref", "").removeprefix(REF), {})
    if operation["operationId"] == LOG_OPERATION:
        return component["properties"]["events"]["items"]
    if set(component.get("properties", {})) >= PAGE_SHAPE:
        return component["properties"]["results"]["items"]
    return None


def as_cursor_list(schemas: dict, operation: dict) -> None:
    items = list_items(schemas, operation)
    name = f"Paginated{items['$ref'].removeprefix(REF)}List" if "$ref" in items else None
    page = cursor_page(items)
    answer = answer_of(operation)
    if name is None:
        answer["schema"] = page
    else:
        schemas[name] = page
        answer["schema"] = {"$ref": REF + name}
    answer.pop("examples", None)
    kept = [p for p in operation.get("parameters", []) if not (p["in"] == "query" and p["name"] in {"page", "limit"})]
    added = [LIMIT_PARAMETER] if operation["operationId"] == LOG_OPERATION else [CURSOR_PARAMETER, LIMIT_PARAMETER]
    operation["parameters"] = sorted([*kept, *added], key=lambda p: (p["in"], p["name"]))
    stem = operation["operationId"].removesuffix("_retrieve").removesuffix("_list")
    operation["operationId"] = f"{stem}_list"


def cursor_page(items: dict) -> dict:
    link = {"type": ["string", "null"], "format": "uri"}
    return {
        "type": "object",
        "required": ["next", "previous", "results"],
        "properties": {
            "next": {**link, "description": "The next page; null on the last one."},
            "previous": {**link, "description": "The page before; null on the first one."},
            "results": {"type": "array", "items": items},
        },
    }


def time_with_z(schema: dict) -> None:
    """Every event's ``created_at`` (the log's, the audit's, each kind's component)."""
    created = schema.get("properties", {}).get("created_at")
    if created is not None and "as hashed" in created.get("description", ""):
        created["description"] = EVENT_TIME_HELP
