"""Signed checkpoints of the event store, and their offline verification.

Pure: the standard library, ``cryptography`` (Ed25519) and the pure domain modules (``chain``,
``stream``, ``deal_log``) — no Django, so the ``kierki`` command runs it anywhere. The server side (reading the
heads, the key from settings) is ``games.write.checkpointing``.

A **heads file** (``kierki-heads/1``) lists every match's head when the checkpoint was taken:
``{"format", "last_event_id", "heads": [{"match": uuid, "seq": n, "hash": hex}, ...]}``.

A **checkpoint** (``kierki-checkpoint/1``) signs, with the server's Ed25519 key::

    {"format": "kierki-checkpoint/1", "matches": n, "last_event_id": id,
     "heads_hash": SHA-256 hex over the sorted lines "match_id:seq:hash\\n" of the heads,
     "time": ISO 8601 UTC, "public_key": base64 raw 32 bytes, "signature": base64 64 bytes}

The signature covers the canonical JSON (sorted keys, no whitespace, UTF-8) of ``format``,
``matches``, ``last_event_id``, ``heads_hash`` and ``time``. Because the log is append-only
with a hash chain, a head signed once must stay in the chain forever: a log exported later
(the audit endpoint's ``events``) must still pass through every checkpointed head.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from games.domain import seals
from games.domain.chain import GENESIS, canonical_json, chain_hash
from games.domain.deal_log import FiledDeal, LoggedDeal, PlayedDeal, deal_log
from games.domain.stream import stream_of

FORMAT = "kierki-checkpoint/1"
HEADS_FORMAT = "kierki-heads/1"
SIGNED_FIELDS = ("format", "matches", "last_event_id", "heads_hash", "time")


# --- keys ---------------------------------------------------------------------------------------------


def private_key_from_b64(text: str) -> Ed25519PrivateKey:
    """A raw 32-byte Ed25519 private key, base64-encoded (``ValueError`` if it is not one)."""
    return Ed25519PrivateKey.from_private_bytes(_b64_bytes(text, 32, "private key"))


def public_key_from_b64(text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(_b64_bytes(text, 32, "public key"))


def public_key_b64(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return base64.b64encode(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode("ascii")


def private_key_b64(key: Ed25519PrivateKey) -> str:
    return base64.b64encode(key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())).decode("ascii")


def _b64_bytes(text: Any, size: int, what: str) -> bytes:
    try:
        raw = base64.b64decode(str(text).strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"the {what} is not base64") from None
    if len(raw) != size:
        raise ValueError(f"the {what} must be {size} bytes, got {len(raw)}")
    return raw


# --- heads and checkpoints ---------------------------------------------------------------------------


def heads_hash(heads: Iterable[dict[str, Any]]) -> str:
    """SHA-256 (hex) over the sorted lines ``match_id:seq:hash``, each ended by a newline."""
    lines = sorted(f"{h['match']}:{h['seq']}:{h['hash']}\n" for h in heads)
    return hashlib.sha256("".join(lines).encode("ascii")).hexdigest()


def heads_document(heads: list[dict[str, Any]], last_event_id: int | None) -> dict[str, Any]:
    return {
        "format": HEADS_FORMAT,
        "last_event_id": last_event_id,
        "heads": sorted(heads, key=lambda h: str(h["match"])),
    }


def sign(heads_doc: dict[str, Any], *, time: str, key: Ed25519PrivateKey) -> dict[str, Any]:
    """The signed checkpoint of a heads document."""
    body = {
        "format": FORMAT,
        "matches": len(heads_doc["heads"]),
        "last_event_id": heads_doc["last_event_id"],
        "heads_hash": heads_hash(heads_doc["heads"]),
        "time": time,
    }
    signature = key.sign(canonical_json(body))
    return {**body, "public_key": public_key_b64(key), "signature": base64.b64encode(signature).decode("ascii")}


@dataclass(frozen=True)
class Check:
    ok: bool
    reason: str | None = None


def verify_checkpoint(checkpoint: Any, heads_doc: Any, *, public_key: str | None = None) -> Check:
    """The checkpoint's signature (by ``public_key`` when given, else by the key it names), and
    the heads file recomputing to its ``heads_hash`` and match count."""
    try:
        body = {name: checkpoint[name] for name in SIGNED_FIELDS}
        named_key, signature = checkpoint["public_key"], checkpoint["signature"]
        heads = heads_doc["heads"]
        if not isinstance(heads, list) or not all(isinstance(h, dict) for h in heads):
            raise TypeError("heads must be a list of objects")
        recomputed = heads_hash(heads)
    except (KeyError, TypeError) as exc:
        return Check(False, f"malformed checkpoint or heads file: {exc!r}")
    if body["format"] != FORMAT or heads_doc.get("format") != HEADS_FORMAT:
        return Check(False, f"unknown format: expected {FORMAT} and {HEADS_FORMAT}")
    if public_key is not None and public_key.strip() != str(named_key).strip():
        return Check(False, "the checkpoint names another public key than the one given")
    try:
        key = public_key_from_b64(public_key if public_key is not None else named_key)
        key.verify(_b64_bytes(signature, 64, "signature"), canonical_json(body))
    except ValueError as exc:
        return Check(False, str(exc))
    except InvalidSignature:
        return Check(False, "bad signature: the checkpoint was altered or signed with another key")
    if recomputed != body["heads_hash"]:
        return Check(False, "the heads do not hash to the checkpoint's heads_hash: the heads file was altered")
    if len(heads) != body["matches"]:
        return Check(False, f"the heads file lists {len(heads)} matches, the checkpoint {body['matches']}")
    if heads_doc.get("last_event_id") != body["last_event_id"]:
        return Check(False, "the heads file's last_event_id differs from the checkpoint's")
    return Check(True)


# --- an exported log against the heads ---------------------------------------------------------------


def verify_log(
    match_id: str, log: list[dict[str, Any]], heads_doc: dict[str, Any], *, public_key: str | None = None
) -> Check:
    """An exported event log of one match (the audit's ``events``): its hash chain recomputed
    from the events alone, and the checkpointed head of the match still in it. An event redacted
    at an erasure carries its ``seal`` (``games.domain.seals``), which must be signed by
    ``public_key`` (the club's pinned key, or the checkpoint's) and vouch for that link."""
    previous, expected_seq = GENESIS, 1
    hashes: dict[int, str] = {}
    try:
        for event in log:
            if event["seq"] != expected_seq:
                return Check(False, f"seq {expected_seq} is missing or out of order (found {event['seq']})")
            body = {
                "actor": event["actor"],
                "created_at": event["created_at"],
                "match": str(match_id),
                "payload": event["payload"],
                "seq": event["seq"],
                "type": event["type"],
            }
            if "seal" in event:
                why = seals.vouches(
                    seals.Seal.from_json(event["seal"]),
                    previous=previous,
                    body=body,
                    stored_hash=event["hash"],
                    public_key=public_key,
                )
                if why is not None:
                    return Check(False, f"sealed event at seq {event['seq']}: {why}")
                computed = event["hash"]
            else:
                computed = chain_hash(previous, body)
            if computed != event["hash"]:
                return Check(False, f"hash mismatch at seq {event['seq']}: the event or its hash was altered")
            hashes[event["seq"]] = previous = computed
            expected_seq += 1
    except (KeyError, TypeError) as exc:
        return Check(False, f"malformed event log: {exc!r}")
    head = next((h for h in heads_doc.get("heads", []) if str(h.get("match")) == str(match_id)), None)
    if head is None:
        return Check(True, "the chain holds; the match is not in the checkpoint (it began later)")
    if hashes.get(head["seq"]) != head["hash"]:
        return Check(False, f"the checkpointed head (seq {head['seq']}) is not in the log: history was rewritten")
    return Check(True)


def deals_of_log(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The finished deals of an event log as record deals: ``hands`` (sorted per seat), ``sale``,
    ``plays`` — the log's typed stream folded by ``deal_log``, the record export's fold."""
    return [_normal_deal(d) for d in deal_log(stream_of(log)) if d.finished and _known(d)]


def verify_record(record: Any, log: list[dict[str, Any]]) -> Check:
    """A ``kierki-match/1`` record against an event log: the same finished deals, card for card."""
    try:
        recorded = [_normal_deal(d) for d in record["deals"] if _finished(d)]
        logged = deals_of_log(log)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        return Check(False, f"malformed record or log: {exc!r}")
    if len(recorded) != len(logged):
        return Check(False, f"the record has {len(recorded)} finished deals, the log {len(logged)}")
    for number, (ours, theirs) in enumerate(zip(recorded, logged), 1):
        if ours != theirs:
            return Check(False, f"finished deal {number} of the record differs from the log")
    return Check(True)


def _finished(deal: dict[str, Any]) -> bool:
    """A played deal of a record with its 52 cards, or one filed from a paper sheet."""
    return "tally" in deal or "points" in deal or len(deal["plays"]) == 52


def _known(deal: LoggedDeal) -> bool:
    """A deal whose hands the log shows (a server-dealt one's once revealed)."""
    return isinstance(deal, FiledDeal) or deal.hands is not None


def _normal_deal(deal: dict[str, Any] | LoggedDeal) -> dict[str, Any]:
    """A deal of a record, or of the log, in one shape to compare."""
    if isinstance(deal, FiledDeal):
        return {
            deal.entry: deal.value,
            "sale": _sale(deal.sale and {"buyer": deal.sale.buyer, "price": deal.sale.price}),
        }
    if isinstance(deal, PlayedDeal):
        sale = deal.sale and {"buyer": deal.sale.buyer, "price": deal.sale.price}
        deal = {"hands": deal.hands, "sale": sale, "plays": deal.plays}
    for entry in ("tally", "points"):
        if entry in deal:
            return {entry: deal[entry], "sale": _sale(deal.get("sale"))}
    return {
        "hands": {seat: sorted(cards) for seat, cards in deal["hands"].items()},
        "sale": _sale(deal.get("sale")),
        "plays": list(deal["plays"]),
    }


def _sale(sale: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if not sale else {"buyer": sale["buyer"], "price": sale["price"]}
