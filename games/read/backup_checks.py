"""What a restored database must prove before anyone trusts it (``manage.py backup verify``).

- every match audits clean (``games.read.audit``: the hash chain, the rules, the commitments);
- the signed checkpoint taken with the backup holds (its signature, its heads file), and every
  head it signed is still in the restored log at the same seq with the same hash: the log is
  append-only, so a restored database that lost or rewrote anything signed fails here even where
  its own chain was recomputed to look whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from games.domain import checkpoints
from games.models import Match, MatchEvent
from games.read.audit import audit_matches

HEADS_PER_QUERY = 500


@dataclass(frozen=True)
class BackupCheck:
    matches: int
    events: int
    checkpoint: dict[str, Any]
    heads_checked: int
    failing: dict[str, list[str]] = field(default_factory=dict)  # match id → what failed
    checkpoint_failure: str | None = None  # the checkpoint itself does not hold

    @property
    def ok(self) -> bool:
        return not self.failing and self.checkpoint_failure is None


def backup_verify(
    *,
    checkpoint: dict[str, Any],
    heads: dict[str, Any],
    public_key: str | None,
    progress: Callable[[Any], None] | None = None,
) -> BackupCheck:
    """Audit every match of the database in use and check it against ``checkpoint`` and its ``heads``."""
    signed = checkpoints.verify_checkpoint(checkpoint, heads, public_key=public_key)
    failing = audit_matches(progress=progress)
    heads_list = heads.get("heads", []) if signed.ok else []
    for match_id, failure in missing_heads(heads_list).items():
        failing.setdefault(match_id, []).append(failure)
    return BackupCheck(
        matches=Match.objects.count(),
        events=MatchEvent.objects.count(),
        checkpoint=checkpoint,
        heads_checked=len(heads_list),
        failing=failing,
        checkpoint_failure=None if signed.ok else signed.reason,
    )


def missing_heads(heads: list[dict[str, Any]]) -> dict[str, str]:
    """The signed heads not found in the log (match id → why): each must be an event of its match
    at its seq, with its hash."""
    found: dict[tuple[str, int], str] = {}
    for start in range(0, len(heads), HEADS_PER_QUERY):
        chunk = heads[start : start + HEADS_PER_QUERY]
        wanted = Q()
        for head in chunk:
            wanted |= Q(match_id=head["match"], seq=head["seq"])
        for match_id, seq, hash in MatchEvent.objects.filter(wanted).values_list("match_id", "seq", "hash"):
            found[(str(match_id), seq)] = hash
    missing = {}
    for head in heads:
        stored, named = found.get((str(head["match"]), head["seq"])), f"the checkpointed head (seq {head['seq']})"
        if stored is None:
            missing[str(head["match"])] = f"{named} is missing from the restored log"
        elif stored != head["hash"]:
            missing[str(head["match"])] = f"{named} has another hash: history was rewritten"
    return missing
