"""Seals of redacted legacy events (issue 28, docs/privacy.md). Pure: no Django.

An erasure must take a person's name out of events stored before the log named people by id
(payload version 1). Their stored ``hash`` stays — so every later link, every match head and
every signed checkpoint holds — while the payload is rewritten with his public id; the audit can
then no longer recompute that one link, and a **seal** vouches for it instead: the server's
Ed25519 signature (the checkpoint key) over the canonical JSON of
``{"format", "match", "seq", "hash", "previous", "digest"}`` — the event's place, its stored
hash, the hash before it and SHA-256 of the redacted body — made only after the original chain
was verified. Anyone holding the club's public key checks a seal offline; an edit of the
redacted event after sealing changes its digest, and a forged seal fails the signature.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from games.domain.chain import canonical_json

FORMAT = "kierki-seal/1"


def body_digest(body: dict[str, Any]) -> str:
    """SHA-256 (hex) of an event body's canonical JSON (``chain.event_body``)."""
    return hashlib.sha256(canonical_json(body)).hexdigest()


def signed_fields(*, match: str, seq: int, hash: str, previous: str, digest: str) -> dict[str, Any]:
    return {"format": FORMAT, "match": str(match), "seq": seq, "hash": hash, "previous": previous, "digest": digest}


@dataclass(frozen=True)
class Seal:
    match: str
    seq: int
    hash: str
    previous: str
    digest: str
    public_key: str
    signature: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seal:
        """A seal as the audit export shows it (``as_json``); ``KeyError``/``TypeError`` if it is not one."""
        return cls(
            str(data["match"]),
            data["seq"],
            data["hash"],
            data["previous"],
            data["digest"],
            data["public_key"],
            data["signature"],
        )

    def as_json(self) -> dict[str, Any]:
        return {**self.fields(), "public_key": self.public_key, "signature": self.signature}

    def fields(self) -> dict[str, Any]:
        return signed_fields(match=self.match, seq=self.seq, hash=self.hash, previous=self.previous, digest=self.digest)


def seal(
    *, match: str, seq: int, hash: str, previous: str, redacted_body: dict[str, Any], key: Ed25519PrivateKey
) -> Seal:
    digest = body_digest(redacted_body)
    fields = signed_fields(match=match, seq=seq, hash=hash, previous=previous, digest=digest)
    signature = base64.b64encode(key.sign(canonical_json(fields))).decode("ascii")
    public = base64.b64encode(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode("ascii")
    return Seal(str(match), seq, hash, previous, digest, public, signature)


def vouches(
    seal: Seal, *, previous: str, body: dict[str, Any], stored_hash: str, public_key: str | None = None
) -> str | None:
    """None when ``seal`` vouches for the link from ``previous`` to ``stored_hash`` over the
    redacted ``body`` (signed by ``public_key`` when given, else by the key it names); else why not."""
    if public_key is not None and public_key.strip() != seal.public_key.strip():
        return "the seal names another public key than the one given"
    if seal.previous != previous or seal.hash != stored_hash:
        return "the seal is for another link of the chain"
    if seal.digest != body_digest(body):
        return "the redacted event was altered after it was sealed"
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(seal.public_key, validate=True))
        key.verify(base64.b64decode(seal.signature, validate=True), canonical_json(seal.fields()))
    except (ValueError, TypeError, InvalidSignature):
        return "bad seal signature"
    return None
