"""What makes two filings the same match (duplicates, issue 13).

A match's fingerprint is SHA-256 over its players by seat and its deals in order, each deal as
the record gives it: the hands as dealt (the order within a hand does not count), the sale and
the plays — or the tally or the points of a deal filed from a paper sheet. Two records with the
same fingerprint are one match filed twice. The ruleset, the first dealer and the date are
left out: the same deals by the same players are the same evening whatever else was written.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

DEAL_KEYS = ("sale", "plays", "tally", "points")


def record_fingerprint(record: dict[str, Any]) -> str:
    """The fingerprint of a ``kierki-match/1`` record (one already decoded without error)."""
    players = {str(seat): str(name) for seat, name in record["players"].items()}
    deals = [_deal(deal) for deal in record["deals"]]
    return hashlib.sha256(_canonical_bytes({"players": players, "deals": deals})).hexdigest()


def _canonical_bytes(value: Any) -> bytes:
    """``events.canonical_json``'s bytes (the same for any text UTF-8 can hold, so fingerprints
    stored before stay equal), except that a lone surrogate is kept as its code unit instead of
    failing: a fingerprint is computed for any decoded record, never a 500 (issue 30, finding 7)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


def _deal(deal: dict[str, Any]) -> dict[str, Any]:
    kept = {key: deal[key] for key in DEAL_KEYS if deal.get(key) is not None}
    if deal.get("hands") is not None:
        kept["hands"] = {str(seat): sorted(cards) for seat, cards in deal["hands"].items()}
    return kept
