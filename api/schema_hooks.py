"""Postprocessing hooks of the OpenAPI document (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``):
what holds for whole groups of operations, said once (the event streams: ``api/stream_schema.py``)."""

from __future__ import annotations

from .problems import PROBLEM_CONTENT_TYPE

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


# The type of each kind of path id (games/ids.py reads the integer ones): matches are UUIDs,
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
# Any request may get these; the API's description names them.
ANY_OPERATION = ["method_not_allowed", "not_acceptable", "server_error"]
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
    return codes


def name_problem_codes(result: dict, generator, request, public) -> dict:
    """Each problem response says which codes it carries: ``Codes: `a`, `b`.`` appended to its
    description (a code its text already names is not repeated); the 422 of an operation that
    replays the rules names the R30 family."""
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
                if status == "422" and "R30" in text and "`rule_violation`" not in text:
                    missing.append(RULE_CODES_TEXT)
                if missing:
                    response["description"] = f"{text.rstrip()} Codes: {', '.join(missing)}.".strip()
    result.setdefault("info", {})["description"] = (
        result.get("info", {}).get("description", "")
        + " Any request may also answer "
        + ", ".join(f"`{code}`" for code in ANY_OPERATION)
        + "."
    )
    return result
