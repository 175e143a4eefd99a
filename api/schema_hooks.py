"""Postprocessing hooks of the OpenAPI document (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``):
what holds for whole groups of operations, said once (the event streams: ``api/stream_schema.py``)."""

from __future__ import annotations

from .problems import PROBLEM_CONTENT_TYPE

# Answered before any view reads the body: by config.middleware (413) and DRF's parsers (415).
BODY_ERRORS = {
    "413": "`payload_too_large`: the body is over `API_MAX_BODY_BYTES` (`limit` says how many bytes).",
    "415": "`unsupported_media_type`: the body is not of a content type listed here.",
}


def problem_response(description: str) -> dict:
    return {"description": description,
            "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def add_body_errors(result: dict, generator, request, public) -> dict:
    """Every operation that takes a body may answer 413 and 415."""
    for item in result["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                responses = {**{code: problem_response(text) for code, text in BODY_ERRORS.items()},
                             **operation["responses"]}
                operation["responses"] = dict(sorted(responses.items()))
    return result
