"""Postprocessing hooks of the OpenAPI document (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``):
what holds for whole groups of operations, said once (the event streams: ``api/stream_schema.py``)."""

from __future__ import annotations

import re

from .problems import PROBLEM_CONTENT_TYPE, PROBLEMS, RULES
from .serializers import TAKE_FORMS
from .webhook_body_serializers import HEADERS, WEBHOOK_BODIES

# Answered before any view reads the body: by config.middleware (413) and DRF's parsers (415).
BODY_ERRORS = {
    "413": "`payload_too_large`: the body is over `API_MAX_BODY_BYTES` (`limit` says how many bytes).",
    "415": "`unsupported_media_type`: the body is not of a content type listed here.",
}
# config/body_limit.py: a body not in whole within API_BODY_READ_SECONDS (a client trickling it).
BODY_ERRORS["408"] = "`request_timeout`: the body did not arrive whole within `API_BODY_READ_SECONDS`."


def problem_response(description: str) -> dict:
    return {
        "description": description,
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }


def add_body_errors(result: dict, generator, request, public) -> dict:
    """Every operation that takes a body may answer 408, 413 and 415."""
    for item in result["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                responses = {
                    **{code: problem_response(text) for code, text in BODY_ERRORS.items()},
                    **operation["responses"],
                }
                operation["responses"] = dict(sorted(responses.items()))
    return result


# The type of each kind of path id (games/domain/ids.py reads the integer ones): matches are UUIDs,
# everything else the database numbers. Said here once, so that every operation on the same kind
# of resource agrees whatever its view declares (generated clients type the argument from it).
UUID_ID = {"type": "string", "format": "uuid"}
INT_ID = {"type": "integer"}
PATH_ID_TYPES = {
    "matches": UUID_ID,
    "clubs": INT_ID,
    "leagues": INT_ID,
    "seasons": INT_ID,
    "players": INT_ID,
    "disputes": INT_ID,
    "webhooks": INT_ID,
    "deliveries": INT_ID,
    "evenings": INT_ID,
    "deals": {"type": "integer", "minimum": 1},  # a deal's number in its match (from 1)
    "invitations": INT_ID,
    "seat-invitations": INT_ID,
    "tokens": {"type": "string", "minLength": 8, "maxLength": 8},  # the key's first characters (api/tokens.py)
}
# Path parameters that are names, not ids.
PATH_NAMES = {"username", "code"}


def path_id_kinds(path: str) -> dict[str, str]:
    """``/api/v1/webhooks/{id}/deliveries/{delivery_id}/…`` → ``{"id": "webhooks", "delivery_id": "deliveries"}``:
    each ``{parameter}`` with the collection it names a member of (the segment before it)."""
    kinds, segments = {}, path.strip("/").split("/")
    for before, segment in zip(segments, segments[1:]):
        if segment.startswith("{") and segment.endswith("}"):
            kinds[segment[1:-1]] = before
    return kinds


def type_path_ids(result: dict, generator, request, public) -> dict:
    """One schema per kind of path id, everywhere; an id of a kind not in ``PATH_ID_TYPES`` fails
    the schema's generation (add the kind)."""
    for path, item in result["paths"].items():
        kinds = path_id_kinds(path)
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "path" or parameter["name"] in PATH_NAMES:
                    continue
                kind = kinds.get(parameter["name"])
                if kind not in PATH_ID_TYPES:
                    raise ValueError(f"{path}: no id type for path parameter {parameter['name']!r} (kind {kind!r})")
                parameter["schema"] = dict(PATH_ID_TYPES[kind])
    return result


# --- the problem codes each operation may answer -----------------------------------------------------

# The codes any operation answering that status may give (DRF's errors, the commands' common ones).
CODES_BY_STATUS = {
    "400": ["invalid", "parse_error"],
    "401": ["not_authenticated", "authentication_failed"],
    "403": ["permission_denied", "not_allowed"],
    "404": ["not_found"],
    "412": ["version_mismatch"],
    "413": ["payload_too_large"],
    "415": ["unsupported_media_type"],
    "429": ["throttled"],
    "501": ["streaming_unavailable"],
    "503": ["database_unavailable"],
}
# Codes only some operations answer: (status, code) by operation id.
CODES_BY_OPERATION = {
    "matches_create": [("409", "season_closed")],
    "matches_import": [("409", "season_closed"), ("409", "duplicate_record")],
    "matches_confirm": [
        ("403", "filer_cannot_confirm"),
        ("409", "already_confirmed"),
        ("409", "match_not_finished"),
        ("409", "season_closed"),
    ],
    "matches_withdraw": [("403", "arbiter_involved"), ("409", "withdrawal_conflict"), ("409", "season_closed")],
    "matches_reinstate": [("403", "arbiter_involved"), ("409", "withdrawal_conflict"), ("409", "season_closed")],
    "disputes_ruling": [("403", "arbiter_involved"), ("409", "season_closed"), ("422", "ruling_outside_analysis")],
    "matches_analysis": [("422", "analysis_unavailable")],
    "matches_deal_annotations": [("409", "annotation_not_scheduled"), ("422", "analysis_unavailable")],
    "invitations_claim": [("400", "invitation_invalid"), ("409", "invitation_used"), ("410", "invitation_expired")],
    "clubs_players_invitation_create": [("409", "invitation_used")],
    "invitations_accept": [("409", "invitation_used"), ("410", "invitation_expired")],
    "invitations_decline": [("409", "invitation_used"), ("410", "invitation_expired")],
    "seat_invitations_accept": [("409", "invitation_used")],
    "seat_invitations_decline": [("409", "invitation_used")],
    "seasons_close_create": [("409", "season_closed")],
    "evenings_create": [("409", "season_closed")],
    "evenings_players_create": [("409", "evening_complete")],
    "evenings_rounds_create": [
        ("409", "round_seated"),
        ("409", "evening_complete"),
        ("409", "too_few_players"),
        ("409", "round_in_progress"),
        ("409", "season_closed"),
    ],
    "matches_deal": [("409", "match_closed")],
    "matches_play": [("409", "match_closed")],
    "matches_tally": [("409", "match_closed")],
    "matches_lead_offer": [("409", "match_closed")],
    "matches_lead_decision": [("409", "match_closed")],
    "clubs_members_create": [("409", "last_admin")],
    "clubs_members_partial_update": [("409", "last_admin")],
    "clubs_members_destroy": [("409", "last_admin")],
}
# Operations whose 422 may carry an R30 code though their text does not say so (a ruling replays
# the deal it changes: games/write/disputes.py raises RuleBroken).
RULE_OPERATIONS = {"disputes_ruling"}
# Any request may get these; the API's description names them (``log_unreadable``: any that reads
# a match whose stored log was changed outside the service).
ANY_OPERATION = ["method_not_allowed", "not_acceptable", "server_error", "log_unreadable"]
RULE_CODES_TEXT = "an R30 rule code (`rule_violation` family: each listed under /api/v1/problems/, with its rule)"


def operation_codes(operation: dict) -> dict[str, list[str]]:
    """status → the problem codes ``operation`` may answer with it."""
    codes: dict[str, list[str]] = {
        status: list(CODES_BY_STATUS.get(status, [])) for status in operation.get("responses", {})
    }
    idempotent = any(parameter.get("name") == "Idempotency-Key" for parameter in operation.get("parameters", []))
    if idempotent:
        codes.setdefault("409", []).append("idempotency_in_progress")
        codes.setdefault("422", []).append("idempotency_key_reused")
    for status, code in CODES_BY_OPERATION.get(operation.get("operationId"), []):
        codes.setdefault(status, []).append(code)
    # A Bearer token outside its scopes (api/oauth_scopes.py names it on the 403 of those operations).
    if "`insufficient_scope`" in operation.get("responses", {}).get("403", {}).get("description", ""):
        codes.setdefault("403", []).append("insufficient_scope")
    return codes


def name_problem_codes(result: dict, generator, request, public) -> dict:
    """Each problem response says which codes it carries: ``Codes: `a`, `b`.`` appended to its
    description (a code its text already names is not repeated); the 422 of an operation that
    replays the rules names the R30 family. Its schema is the union of those codes' problems,
    discriminated by ``code`` (``type_problem_codes``)."""
    result["components"]["schemas"].update(problem_components())
    for item in result["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            codes = operation_codes(operation)
            for status, response in operation.get("responses", {}).items():
                if "application/problem+json" not in response.get("content", {}):
                    continue
                text = response.get("description", "")
                missing = [f"`{code}`" for code in codes.get(status, []) if f"`{code}`" not in text]
                rules = status == "422" and ("R30" in text or operation.get("operationId") in RULE_OPERATIONS)
                if rules and "`rule_violation`" not in text:
                    missing.append(RULE_CODES_TEXT)
                if missing:
                    response["description"] = f"{text.rstrip()} Codes: {', '.join(missing)}.".strip()
                union = problem_union(codes.get(status, []), rules=rules)
                if union:
                    response["content"]["application/problem+json"]["schema"] = union
    result.setdefault("info", {})["description"] = (
        result.get("info", {}).get("description", "")
        + " Any request may also answer "
        + ", ".join(f"`{code}`" for code in ANY_OPERATION)
        + "."
    )
    return result


# --- problems typed by code -------------------------------------------------------------------------
# One component per problem code (``VersionMismatchProblem``: ``code`` the constant, ``status`` its
# status, and the members that code carries), one for the R30 family (``RuleViolationProblem``,
# ``code`` one of the engine's violation codes), and per operation and status the union of the
# codes it may answer: a client narrows a problem by ``code`` and reads its members without a cast.

REF = "#/components/schemas/"
RULE_VIOLATION = "RuleViolationProblem"
# The members each code carries besides the five of every problem (api/problems.py): required.
# ``field`` and ``errors`` (optional) may come with any code a command raises with a field.
CODE_MEMBERS: dict[str, dict[str, dict]] = {
    "version_mismatch": {"current_version": {"type": "integer", "description": "The match's version now."}},
    "payload_too_large": {"limit": {"type": "integer", "description": "How many bytes a body may have."}},
    "duplicate_record": {"match": {"type": "string", "format": "uuid", "description": "The match filed already."}},
    "log_unreadable": {"seq": {"type": "integer", "description": "The stored event that cannot be read."}},
    "too_few_players": {
        "present": {"type": "array", "items": {"type": "string"}, "description": "The players there, by username."}
    },
    "ruling_outside_analysis": {
        "seats": {
            "type": "object",
            "description": "Each seat ruled outside worst..best, with that range.",
            "propertyNames": {"$ref": f"{REF}Seat"},
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "points": {"type": "integer"},
                    "worst": {"type": "integer"},
                    "best": {"type": "integer"},
                },
                "required": ["points", "worst", "best"],
            },
        }
    },
}
RULE_MEMBERS = {
    "rule": {"type": "string", "description": "The rule id broken (e.g. `R11`)."},
    "error": {"$ref": f"{REF}RuleError"},
}
INPUT_MEMBERS = {
    "field": {"type": "string", "description": "The offending input, e.g. `card`, `deals[2].plays[17]`."},
    "errors": {
        "type": "object",
        "additionalProperties": {},
        "description": "Field → messages (nested for nested input), for bad input.",
    },
}


def problem_component_name(code: str) -> str:
    """``version_mismatch`` → ``VersionMismatchProblem``; an R30 code → ``RuleViolationProblem``."""
    if code in RULES:
        return RULE_VIOLATION
    return "".join(word.capitalize() for word in re.split(r"_", code)) + "Problem"


def problem_schema(code: dict, status: int, description: str, members: dict[str, dict]) -> dict:
    return {
        "type": "object",
        "description": description,
        "properties": {
            "type": {"type": "string", "description": "`/api/v1/problems/<code>/` (GET it for a description)."},
            "title": {"type": "string"},
            "status": {"type": "integer", "const": status},
            "detail": {"type": "string"},
            "code": code,
            **members,
            **INPUT_MEMBERS,
        },
        "required": ["type", "title", "status", "detail", "code", *members],
    }


def problem_components() -> dict[str, dict]:
    """Every registered problem code's component (api/problems.py ``PROBLEMS``)."""
    components = {}
    for code, (status, title, _description) in PROBLEMS.items():
        if code in RULES or code == "rule_violation":
            continue
        components[problem_component_name(code)] = problem_schema(
            {"type": "string", "const": code}, status, f"`{code}`: {title}.", CODE_MEMBERS.get(code, {})
        )
    components[RULE_VIOLATION] = problem_schema(
        {"type": "string", "enum": sorted(RULES), "description": "The R30 code of the violation."},
        422,
        "A rule broken (R30): `code` the violation's, `rule` its rule id, `error` the R30 error object.",
        RULE_MEMBERS,
    )
    return components


def problem_union(codes: list[str], *, rules: bool) -> dict | None:
    """The schema of a problem response carrying ``codes`` (and the R30 family when ``rules``)."""
    mapping = {code: f"{REF}{problem_component_name(code)}" for code in codes if code in PROBLEMS}
    if rules:
        mapping.update({code: f"{REF}{RULE_VIOLATION}" for code in sorted(RULES)})
    if not mapping:
        return None
    refs = list(dict.fromkeys(mapping.values()))
    return {"oneOf": [{"$ref": ref} for ref in refs], "discriminator": {"propertyName": "code", "mapping": mapping}}


# --- OpenAPI 3.1 details --------------------------------------------------------------------------


def close_tally_takes(result: dict, generator, request, public) -> dict:
    """A seat's tally entry has exactly the keys of its kind (R32 a): no other key, so that a
    rozbójnik entry is not also an odgrywka one (``SeatTake`` is one of the two)."""
    for name, schema in result["components"]["schemas"].items():
        if name.removesuffix("Request") in TAKE_FORMS:
            schema["additionalProperties"] = False
    return result


def nullable_as_type(result: dict, generator, request, public) -> dict:
    """OpenAPI 3.1 has no ``nullable``: a schema still carrying it (DRF's own pagination schema
    writes one) says ``type: [<type>, "null"]`` instead."""

    def visit(node):
        if isinstance(node, dict):
            if node.pop("nullable", False) is True and isinstance(node.get("type"), str):
                node["type"] = [node["type"], "null"]
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(result)
    return result


def add_webhook_union(result: dict, generator, request, public) -> dict:
    """``WebhookBody``: any body a receiver gets, discriminated by ``type`` (the webhooks section
    has one operation per type; a receiver has one URL for all); and each webhook's headers."""
    for item in result.get("webhooks", {}).values():
        item["post"]["parameters"] = [dict(header) for header in HEADERS]
    mapping = {
        event_type: f"{REF}{body.__name__.removesuffix('Serializer')}" for event_type, body in WEBHOOK_BODIES.items()
    }
    result["components"]["schemas"]["WebhookBody"] = {
        "description": "The body of any webhook delivery: narrow it by `type` (the `X-Kierki-Event` header).",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    result["components"]["schemas"] = dict(sorted(result["components"]["schemas"].items()))
    return result
