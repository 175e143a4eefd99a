"""What in an OpenAPI document breaks a client written against an older one (issue 29, item 3).

``breaking_changes(old, new)`` names each break by a key that reads as the change, e.g.
``GET /api/v1/clubs/ 200 removed`` or ``POST /api/v1/matches/ request: field season newly required``;
CHANGELOG.md marks an accepted one on a ``- BREAKING: `<key>` …`` line (``marked``).

What breaks a client:
- a path, an operation, a response status or a success's media type removed (a changed status is
  the old one removed); an operation id renamed (the method name of a generated client);
- in an answer: a field removed or no longer required, or a type the old schema did not allow
  (a field becoming nullable, a string becoming an integer);
- in a request: a new required field or parameter, a field or parameter removed, a type or an
  enum narrowed (a value the old schema accepted that the new one refuses).

The 1.0.0 document is OpenAPI 3.0 (``nullable: true``), today's is 3.1 (``type: [X, "null"]``):
types are compared as sets with ``null`` in them either way. Component names may differ:
``$ref``s are followed, never compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_DEPTH = 12  # schemas nest (a match holds deals, deals hold tricks): deep enough, and no cycle
MARK = re.compile(r"^- BREAKING: `([^`]+)`", re.MULTILINE)


@dataclass
class Flat:
    """One schema as a client sees it: the types it may hold (None: any), its object fields,
    those required, its enum (None: any value) and its array items."""

    types: set[str] | None = None
    properties: dict[str, Any] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    enum: set[Any] | None = None
    items: Any = None


def resolve(document: dict, schema: Any) -> dict:
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        target: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema, seen = target, seen + 1
    return schema if isinstance(schema, dict) else {}


def flatten(document: dict, schema: Any) -> Flat:
    schema = resolve(document, schema)
    flat = Flat()
    if "type" in schema:
        kinds = schema["type"]
        flat.types = set(kinds) if isinstance(kinds, list) else {kinds}
    if "const" in schema:
        flat.enum = {_hashable(schema["const"])}
    if "enum" in schema:
        flat.enum = {_hashable(value) for value in schema["enum"]}
    flat.properties = dict(schema.get("properties") or {})
    flat.required = set(schema.get("required") or ())
    flat.items = schema.get("items")
    for part in schema.get("allOf") or ():
        _merge_all(flat, flatten(document, part))
    variants = [flatten(document, part) for part in (schema.get("oneOf") or schema.get("anyOf") or ())]
    if variants:
        _merge_any(flat, variants)
    if schema.get("nullable") and flat.types is not None:
        flat.types.add("null")
    if flat.enum is not None and schema.get("nullable"):
        flat.enum.add(None)
    return flat


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, dict | list) else value


def _merge_all(flat: Flat, part: Flat) -> None:
    if part.types is not None:
        flat.types = part.types if flat.types is None else (flat.types & part.types or flat.types)
    for name, schema in part.properties.items():
        flat.properties.setdefault(name, schema)
    flat.required |= part.required
    flat.enum = part.enum if flat.enum is None else flat.enum
    flat.items = flat.items if flat.items is not None else part.items


def _merge_any(flat: Flat, variants: list[Flat]) -> None:
    if flat.types is None and all(v.types is not None for v in variants):
        flat.types = set().union(*(v.types for v in variants))
    # 3.1's nullable reference, ``oneOf: [{$ref}, {type: "null"}]``: the fields are the reference's
    variants = [v for v in variants if v.types != {"null"}] or variants
    for variant in variants:
        for name, schema in variant.properties.items():
            flat.properties.setdefault(name, schema)
    if not flat.required:
        flat.required = set.intersection(*(v.required for v in variants))
    if flat.enum is None and all(v.enum is not None for v in variants):
        flat.enum = set().union(*(v.enum for v in variants))
    if flat.items is None:
        flat.items = next((v.items for v in variants if v.items is not None), None)


def _types(flat: Flat) -> set[str] | None:
    """``integer`` is a ``number`` (a number schema accepts or answers an integer)."""
    return None if flat.types is None else flat.types | ({"number"} if "integer" in flat.types else set())


@dataclass
class Differ:
    old_document: dict
    new_document: dict
    found: list[str] = field(default_factory=list)

    def answer(self, where: str, old: Any, new: Any, depth: int = 0) -> None:
        """An answer's schema: a client must still find every field it read, of a type it knows."""
        if depth > MAX_DEPTH:
            return
        before, after = flatten(self.old_document, old), flatten(self.new_document, new)
        old_types, new_types = _types(before), _types(after)
        if old_types is not None and new_types is not None and not new_types <= old_types:
            self.found.append(f"{where}: type {sorted(before.types)} became {sorted(after.types)}")
            return
        for name, schema in before.properties.items():
            if name not in after.properties:
                self.found.append(f"{where}: field {name} removed")
                continue
            if name in before.required and name not in after.required:
                self.found.append(f"{where}: field {name} no longer always present")
            self.answer(f"{where}.{name}", schema, after.properties[name], depth + 1)
        if before.items is not None and after.items is not None:
            self.answer(f"{where}[]", before.items, after.items, depth + 1)

    def request(self, where: str, old: Any, new: Any, depth: int = 0) -> None:
        """A request's schema: every body the old one accepted must still be accepted."""
        if depth > MAX_DEPTH:
            return
        before, after = flatten(self.old_document, old), flatten(self.new_document, new)
        old_types, new_types = _types(before), _types(after)
        if new_types is not None and (old_types is None or not old_types <= new_types):
            self.found.append(f"{where}: type {sorted(before.types or ['any'])} narrowed to {sorted(after.types)}")
            return
        if after.enum is not None and (before.enum is None or not before.enum <= after.enum):
            self.found.append(f"{where}: values narrowed")
        for name in sorted(after.required - before.required):
            self.found.append(f"{where}: field {name} newly required")
        for name, schema in before.properties.items():
            if name not in after.properties:
                self.found.append(f"{where}: field {name} removed")
            else:
                self.request(f"{where}.{name}", schema, after.properties[name], depth + 1)
        if before.items is not None and after.items is not None:
            self.request(f"{where}[]", before.items, after.items, depth + 1)

    def operation(self, name: str, old: dict, new: dict) -> None:
        if old.get("operationId") and old.get("operationId") != new.get("operationId"):
            self.found.append(f"{name} operationId {old['operationId']} renamed")  # a generated client's method
        self.parameters(name, old.get("parameters") or [], new.get("parameters") or [])
        old_body = _json_schema(self.old_document, old.get("requestBody"))
        new_body = _json_schema(self.new_document, new.get("requestBody"))
        if old_body is not None and new_body is not None:
            self.request(f"{name} request", old_body, new_body)
        new_responses = new.get("responses") or {}
        for status, response in (old.get("responses") or {}).items():
            if status not in new_responses:
                self.found.append(f"{name} {status} removed")
                continue
            self.response(f"{name} {status}", status, response, new_responses[status])

    def response(self, where: str, status: str, old: dict, new: dict) -> None:
        old, new = resolve(self.old_document, old), resolve(self.new_document, new)
        if not status.startswith("2"):
            return  # problems: one shape (problem+json), new codes allowed
        for media, body in (old.get("content") or {}).items():
            if media not in (new.get("content") or {}):
                self.found.append(f"{where} {media} removed")
            elif "json" in media:
                self.answer(where, body.get("schema"), new["content"][media].get("schema"))

    def parameters(self, name: str, old: list, new: list) -> None:
        def by_key(document: dict, parameters: list) -> dict:
            found = (resolve(document, p) for p in parameters)
            return {(p["in"], p["name"]): p for p in found if "name" in p}

        before, after = by_key(self.old_document, old), by_key(self.new_document, new)
        for key, parameter in before.items():
            if key not in after:
                self.found.append(f"{name} parameter {key[1]} ({key[0]}) removed")
            else:
                self.request(f"{name} parameter {key[1]}", parameter.get("schema"), after[key].get("schema"))
        for key, parameter in after.items():
            if key not in before and parameter.get("required"):
                self.found.append(f"{name} parameter {key[1]} ({key[0]}) newly required")


def _json_schema(document: dict, body: Any) -> Any:
    content = resolve(document, body).get("content") or {}
    return next((media["schema"] for kind, media in content.items() if "json" in kind and "schema" in media), None)


def breaking_changes(old: dict, new: dict) -> list[str]:
    differ = Differ(old, new)
    new_paths = new.get("paths") or {}
    for path, operations in (old.get("paths") or {}).items():
        for method in METHODS:
            if method not in operations:
                continue
            name = f"{method.upper()} {path}"
            if method not in (new_paths.get(path) or {}):
                differ.found.append(f"{name} removed")
                continue
            differ.operation(name, operations[method], new_paths[path][method])
    return list(dict.fromkeys(differ.found))


def marked(changelog: str) -> set[str]:
    """The keys ``## [Unreleased]`` marks as accepted breaking changes."""
    unreleased = changelog.split("## [Unreleased]", 1)[-1].split("\n## [", 1)[0]
    return set(MARK.findall(unreleased))
