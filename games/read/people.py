"""Person references of the event log, resolved to the names of now (issue 28).

The log names a person by his ``Player.public_id`` (payloads of version 2, and each event's
``actor``), or — in events stored before — by his username or a guest's display name
(``event_types.PERSON_FIELDS``). Names live in the player table only, so a rename or an erasure
(``erased player #N``) shows everywhere at once while no hashed byte changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import Player


def names_of(refs: Iterable[str | None]) -> dict[str, str]:
    """The current name of each reference: a public id, else a legacy username; one nobody holds
    (a name stored before its owner was renamed) stands for itself."""
    wanted = {ref for ref in refs if isinstance(ref, str) and ref}
    if not wanted:
        return {}
    found = dict(Player.objects.filter(public_id__in=wanted).values_list("public_id", "username"))
    legacy = wanted - found.keys()
    if legacy:  # an account's username (its profile may carry another name), else a guest's name
        found.update(Player.objects.filter(user__username__in=legacy).values_list("user__username", "username"))
    return {ref: found.get(ref, ref) for ref in wanted}


def name_of(ref: str | None) -> str | None:
    return None if ref is None else names_of([ref]).get(ref, ref)


def named_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """A match summary with the people of its ``rulings`` (``arbiter``), ``confirmations`` and
    ``withdrawal`` (``by``) shown by name, as the API and the pages show them."""
    rulings = summary.get("rulings") or []
    confirmations = summary.get("confirmations") or []
    withdrawal = summary.get("withdrawal")
    names = names_of(
        [r.get("arbiter") for r in rulings] + [c.get("by") for c in confirmations] + [(withdrawal or {}).get("by")]
    )
    return {
        **summary,
        "rulings": [{**r, "arbiter": names.get(r.get("arbiter"), r.get("arbiter"))} for r in rulings],
        "confirmations": [{**c, "by": names.get(c.get("by"), c.get("by"))} for c in confirmations],
        "withdrawal": None if withdrawal is None else {**withdrawal, "by": names.get(withdrawal.get("by"))},
    }
