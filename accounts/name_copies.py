"""Copies of a person's name outside the player table (docs/privacy.md): in the season log and in
other people's stored API answers and webhook deliveries, made before the log named people by id.
An erasure replaces them with his label, a rename with his corrected name."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

from games.models import IdempotencyKey
from scoring.models import SeasonStatusChange
from webhooks.models import Delivery


def name_copies_replace(names: set[str], by: str) -> None:
    """Every stored copy of one of ``names`` (a whole string) becomes ``by``."""
    SeasonStatusChange.objects.filter(actor_name__in=names).update(actor_name=by)
    for model, field in ((IdempotencyKey, "response"), (Delivery, "payload")):
        for pk, value in holding(model.objects.all(), field, names).values_list("pk", field).iterator():
            replaced = _replaced(value, names, by)
            if replaced != value:
                model.objects.filter(pk=pk).update(**{field: replaced})


def holding(rows: QuerySet, field: str, names: set[str]) -> QuerySet:
    """The rows whose JSON ``field`` may hold one of ``names`` as a string: its text holds the name
    quoted as JSON writes it (PostgreSQL's jsonb keeps ``ł`` as it is, SQLite's text has ``\\u0142``).
    The database reads the tables, so an erasure or a rename does not read every stored answer and
    delivery ever made; a row this keeps that holds the name only as a key, or in another case on
    SQLite (its LIKE ignores the case of ASCII letters), is left as it is by ``_replaced``."""
    found = Q()
    for name in names:
        for quoted in {json.dumps(name), json.dumps(name, ensure_ascii=False)}:
            found |= Q(as_text__contains=quoted)
    if not found:
        return rows.none()
    return rows.annotate(as_text=Cast(field, TextField())).filter(found)


def _replaced(value: Any, names: set[str], by: str) -> Any:
    if isinstance(value, str):
        return by if value in names else value
    if isinstance(value, list):
        return [_replaced(v, names, by) for v in value]
    if isinstance(value, dict):
        return {k: _replaced(v, names, by) for k, v in value.items()}
    return value
