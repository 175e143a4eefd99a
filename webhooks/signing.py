"""The body of a delivery and its ``X-Kierki-Signature`` header (Stripe style):
``t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>``. Signing the time with the
body lets a receiver refuse a replayed request (docs/webhooks.md has its side)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

SECRET_BYTES = 32


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(SECRET_BYTES)


def body(*, event_id, type: str, created_at, data: dict[str, Any]) -> bytes:
    """The JSON sent: ``{"id", "type", "created_at", "data"}``, compact UTF-8."""
    document = {
        "id": str(event_id),
        "type": type,
        "created_at": created_at.isoformat().replace("+00:00", "Z"),
        "data": data,
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, body: bytes, timestamp: int) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"
