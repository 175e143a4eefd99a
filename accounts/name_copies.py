"""Copies of a person's name outside the player table (docs/privacy.md): in the season log and in
other people's stored API answers and webhook deliveries, made before the log named people by id.
An erasure replaces them with his label, a rename with his corrected name."""

from __future__ import annotations

from typing import Any

from games.models import IdempotencyKey
from scoring.models import SeasonStatusChange
from webhooks.models import Delivery


def name_copies_replace(names: set[str], by: str) -> None:
    """Every stored copy of one of ``names`` (a whole string) becomes ``by``."""
    SeasonStatusChange.objects.filter(actor_name__in=names).update(actor_name=by)
    for model, field in ((IdempotencyKey, "response"), (Delivery, "payload")):
        for pk, value in model.objects.values_list("pk", field).iterator():
            replaced = _replaced(value, names, by)
            if replaced != value:
                model.objects.filter(pk=pk).update(**{field: replaced})


def _replaced(value: Any, names: set[str], by: str) -> Any:
    if isinstance(value, str):
        return by if value in names else value
    if isinstance(value, list):
        return [_replaced(v, names, by) for v in value]
    if isinstance(value, dict):
        return {k: _replaced(v, names, by) for k, v in value.items()}
    return value
