"""The hash chain over a match's events.

Each event's ``hash`` is SHA-256 (hex) of the previous event's hash (64 zeros before the
first) followed by the event's canonical JSON: the object
``{"actor": <username or null>, "created_at": <ISO 8601, UTC>, "match": <uuid>,
"payload": {...}, "seq": n, "type": "..."}`` serialised with sorted keys, no whitespace,
UTF-8 (``ensure_ascii=False``). Any edited, removed, inserted or reordered event breaks it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64


def canonical_json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def timestamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def event_body(*, match_id, seq: int, type: str, payload: dict, actor: str | None, created_at: dt.datetime) -> dict:
    return {
        "actor": actor,
        "created_at": timestamp(created_at),
        "match": str(match_id),
        "payload": payload,
        "seq": seq,
        "type": type,
    }


def chain_hash(previous: str, body: dict) -> str:
    return hashlib.sha256(previous.encode("ascii") + canonical_json(body)).hexdigest()


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    first_bad_seq: int | None = None
    reason: str | None = None


# A link the body alone cannot prove (a redacted legacy event, ``games.domain.seals``): given the
# hash before, the body and the stored hash, None when its seal vouches for it, else why not.
Voucher = Callable[[str, dict, str], str | None]


def verify_chain(rows: Iterable[tuple[dict, str]], vouchers: Mapping[int, Voucher] | None = None) -> ChainCheck:
    """``rows``: (body, stored hash) in stored order. The first place the chain breaks, and why.
    ``vouchers`` by seq: the sealed events, whose link their seal proves instead of their body."""
    vouchers = vouchers or {}
    previous, expected_seq = GENESIS, 1
    for body, stored in rows:
        seq = body["seq"]
        if seq != expected_seq:
            why = "missing event" if seq > expected_seq else "reordered or duplicated event"
            return ChainCheck(
                False, expected_seq if seq > expected_seq else seq, f"{why}: expected seq {expected_seq}, found {seq}"
            )
        if seq in vouchers:
            why = vouchers[seq](previous, body, stored)
            if why is not None:
                return ChainCheck(False, seq, f"sealed event: {why}")
        elif chain_hash(previous, body) != stored:
            return ChainCheck(False, seq, "hash mismatch: the event's content or hash was altered")
        previous, expected_seq = stored, seq + 1
    return ChainCheck(True)


def deal_commitment(hands: dict[str, list[str]], salt: str) -> str:
    """SHA-256 over canonical ``{"hands": {seat: sorted cards}, "salt": salt}``, published before play."""
    return hashlib.sha256(canonical_json({"hands": {s: sorted(c) for s, c in hands.items()}, "salt": salt})).hexdigest()
