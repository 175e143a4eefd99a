"""Hostile inputs, built from the schema for every operation (issue 11): JSON nested thousands
deep, integers of thousands of digits, NUL characters and over-long strings in every path
parameter, query parameter, header and body field; lone surrogates and empty collections in every
body (issue 30). On PostgreSQL (where a NUL in a stored jsonb
or a too-long name used to be a 500), no answer may be a 5xx, and every answer is as documented.

Deterministic and bounded: one request per operation and kind of input (a few hundred in all),
not a random search — ``test_fuzz_api.py`` does that."""

from __future__ import annotations

import json

import pytest
from fuzz_helpers import ID_KINDS, Current, token, wsgi_schema
from schemathesis.core.failures import FailureGroup

from api import streams

pytestmark = pytest.mark.postgres

schema = wsgi_schema().exclude(path_regex=r"/stream/$")  # 501 under WSGI: tests/live covers them
RAW = schema.raw_schema
HUGE = "9" * 4400  # past Python's 4,300-digit limit for int(str)
LONG = "x" * 20_000
NUL = "ka\x00rta"
DEEP = 5_000  # levels: deeper than Python's recursion limit


def _operations():
    for path, item in RAW["paths"].items():
        if path.endswith("/stream/"):
            continue
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield path, method.upper(), operation


def _resolved(spec: dict) -> dict:
    while "$ref" in spec:
        spec = RAW["components"]["schemas"][spec["$ref"].rsplit("/", 1)[1]]
    for combined in ("allOf", "oneOf", "anyOf"):
        if combined in spec and spec[combined]:
            return _resolved(spec[combined][0])
    return spec


def _body_schema(operation) -> dict | None:
    found = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    return _resolved(found) if found else None


def _body_with(schema_: dict | None, string, number, depth: int = 0):
    """A value of the schema's shape with every string set to ``string`` and every number to
    ``number``, nested objects and arrays included (three levels)."""
    spec = _resolved(schema_ or {})
    kind = spec.get("type")
    if isinstance(kind, list):  # OpenAPI 3.1: a nullable value is ``type: [<type>, "null"]``
        kind = next((name for name in kind if name != "null"), None)
    if kind in {"integer", "number"}:
        return number
    if kind == "array":
        return [_body_with(spec.get("items"), string, number, depth + 1)] if depth < 3 else []
    if kind == "object" or "properties" in spec:
        if depth >= 3:
            return {}
        body = {name: _body_with(item, string, number, depth + 1) for name, item in spec.get("properties", {}).items()}
        return body or {"name": string, "id": number}
    return string


OPERATIONS = list(_operations())
IDS = [f"{method} {path}" for path, method, _ in OPERATIONS]


def _path_values(world, path: str, value) -> dict:
    """Each path parameter set to ``value``; with None, a real id of the world (so that the
    request reaches the view and its body or query is read)."""
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    if value is not None:
        return dict.fromkeys(names, value)
    kind = ID_KINDS.get(path.removeprefix("/api/v1/").split("/")[0])
    real = {"id": (world.ids.get(kind) or [1])[0], "username": world.ids["username"][0], "code": world.ids["code"][0]}
    return {name: real.get(name, 1) for name in names}


@pytest.fixture
def seeded(world, in_process_requests, monkeypatch):
    async def answer_at_once(*args, **kwargs):
        return None

    monkeypatch.setattr(streams, "_wait_for_event", answer_at_once)  # ?wait= must not hold the test
    Current.world = world
    return world


def call(world, path: str, method: str, **parts):
    """Sends the case as ``ala`` (a seated player); no 5xx, and the answer as documented."""
    case = schema[path][method].Case(**parts)
    response = case.call(headers={**token(world, "ala"), **parts.get("headers", {})})
    assert response.status_code < 500, (method, path, parts, response.content[:500])
    try:
        case.validate_response(response)
    except FailureGroup as failures:
        pytest.fail(f"{method} {path}: {failures}")
    return response


@pytest.mark.parametrize("path, method, operation", OPERATIONS, ids=IDS)
def test_huge_numbers_nul_and_long_strings_in_the_url_are_4xx(seeded, path, method, operation):
    for value in (HUGE, "9" * 25, "-" + "9" * 25, NUL, LONG):
        if "{" in path:
            call(seeded, path, method, path_parameters=_path_values(seeded, path, value))
        query = {p["name"]: value for p in operation.get("parameters", []) if p.get("in") == "query"}
        if query:
            call(seeded, path, method, path_parameters=_path_values(seeded, path, None), query=query)


@pytest.mark.parametrize("path, method, operation", OPERATIONS, ids=IDS)
def test_huge_numbers_and_nul_in_headers_are_4xx(seeded, path, method, operation):
    headers = [p["name"] for p in operation.get("parameters", []) if p.get("in") == "header"]
    for value in (HUGE, f'"{HUGE}"', NUL.replace("\x00", "\\0"), LONG):
        for name in {*headers, "Last-Event-ID", "If-Match"}:
            call(seeded, path, method, path_parameters=_path_values(seeded, path, None), headers={name: value})


BODY_OPERATIONS = [(p, m, o) for p, m, o in OPERATIONS if _body_schema(o) is not None]


@pytest.mark.parametrize("path, method, operation", BODY_OPERATIONS, ids=[f"{m} {p}" for p, m, _ in BODY_OPERATIONS])
def test_hostile_bodies_are_4xx(seeded, path, method, operation):
    shape = _body_schema(operation)
    where = _path_values(seeded, path, None)
    for string, number in ((NUL, 10**4000), (LONG, -(10**30)), ("\x00", 2**63)):
        for key in ("k1", None):  # the error stored under an Idempotency-Key too (jsonb)
            headers = {"Idempotency-Key": f"{key}-{len(string)}"} if key else {}
            call(
                seeded,
                path,
                method,
                path_parameters=where,
                body=_body_with(shape, string, number),
                media_type="application/json",
                headers=headers,
            )
    deep = ("[" * DEEP + "]" * DEEP).encode()
    call(seeded, path, method, path_parameters=where, body=deep, media_type="application/json")
    call(
        seeded, path, method, path_parameters=where, body=b'{"a": ' + b"1" * 5000 + b"}", media_type="application/json"
    )


LONE_SURROGATES = ("\ud800", "ka\udfffrta")  # escapes in JSON that decode to no character (issue 30, finding 7)


def _body_emptied(schema_: dict | None, depth: int = 0):
    """A value of the schema's shape with every array empty and every nested object empty: the
    empty collections (``"deals": []``) a client may send."""
    spec = _resolved(schema_ or {})
    kind = spec.get("type")
    if kind == "array":
        return []
    if kind == "object" or "properties" in spec:
        if depth >= 1:
            return {}
        return {name: _body_emptied(item, depth + 1) for name, item in spec.get("properties", {}).items()}
    return _body_with(spec, "a", 1)


@pytest.mark.parametrize("path, method, operation", BODY_OPERATIONS, ids=[f"{m} {p}" for p, m, _ in BODY_OPERATIONS])
def test_lone_surrogates_and_empty_collections_in_bodies_are_4xx(seeded, path, method, operation):
    """Issue 30, finding 7: a lone surrogate in any string (the JSON escape ``\\ud800``, sent as
    such: it decodes to text UTF-8 cannot encode) and empty arrays and objects in every field, with
    and without an Idempotency-Key (whose fingerprint hashes the body)."""
    shape = _body_schema(operation)
    where = _path_values(seeded, path, None)
    bodies = [json.dumps(_body_with(shape, text, 1)).encode() for text in LONE_SURROGATES]
    bodies += [b'{"\\ud800": 1}', json.dumps(_body_emptied(shape)).encode(), b"{}", b"[]"]
    for number, body in enumerate(bodies):
        for key in (f"s{number}", None):
            headers = {"Idempotency-Key": key} if key else {}
            call(seeded, path, method, path_parameters=where, body=body, media_type="application/json", headers=headers)


def test_every_operation_with_a_body_is_covered():
    assert len(BODY_OPERATIONS) >= 10 and json.dumps(IDS)  # the schema was read
