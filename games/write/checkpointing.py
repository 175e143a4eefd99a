"""Taking signed checkpoints of the event store (the server side of ``games.domain.checkpoints``).

The key is ``settings.CHECKPOINT_SIGNING_KEY`` (base64 of a raw 32-byte Ed25519 private key;
``manage.py checkpoint --generate-key`` makes one). With ``DEBUG`` on and no key set, a
development key derived from ``SECRET_KEY`` is used — deterministic and therefore **insecure**:
anyone who knows the (default) secret key can forge checkpoints with it. Without ``DEBUG`` a
missing key is an error.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.db.models import F, Max

from games.domain import checkpoints
from games.domain.chain import timestamp
from games.models import MatchEvent

log = logging.getLogger(__name__)


def signing_key() -> Ed25519PrivateKey:
    configured = getattr(settings, "CHECKPOINT_SIGNING_KEY", "")
    if configured:
        return checkpoints.private_key_from_b64(configured)
    if not settings.DEBUG:
        raise ImproperlyConfigured("CHECKPOINT_SIGNING_KEY must be set (manage.py checkpoint --generate-key)")
    seed = hashlib.sha256(b"kierki-checkpoint-dev-key:" + settings.SECRET_KEY.encode()).digest()
    return Ed25519PrivateKey.from_private_bytes(seed)  # DEBUG only: insecure, see the module docstring


def current_heads() -> dict[str, Any]:
    """Every match's last event (seq, hash) and the highest event id, read in one snapshot."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":  # one snapshot for both queries
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        heads = [
            {"match": str(match_id), "seq": seq, "hash": hash}
            for match_id, seq, hash in MatchEvent.objects.filter(seq=F("match__version")).values_list(
                "match_id", "seq", "hash"
            )
        ]
        last_event_id = MatchEvent.objects.aggregate(last=Max("id"))["last"]
    return checkpoints.heads_document(heads, last_event_id)


@dataclass(frozen=True)
class Taken:
    checkpoint: dict[str, Any]
    heads: dict[str, Any]
    checkpoint_path: Path | None = None
    heads_path: Path | None = None


def checkpoint_take(*, out_dir: str | Path | None = None, now: dt.datetime | None = None) -> Taken:
    """Sign the current heads; with ``out_dir``, save ``<time>.checkpoint.json`` and
    ``<time>.heads.json`` there (keep both: the heads file is what the signature vouches for)."""
    heads = current_heads()
    moment = now or dt.datetime.now(dt.UTC)
    checkpoint = checkpoints.sign(heads, time=timestamp(moment), key=signing_key())
    if out_dir is None:
        return Taken(checkpoint, heads)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    checkpoint_path, heads_path = folder / f"{stamp}.checkpoint.json", folder / f"{stamp}.heads.json"
    heads_path.write_text(json.dumps(heads, indent=1) + "\n", encoding="utf-8")
    checkpoint_path.write_text(json.dumps(checkpoint, indent=1) + "\n", encoding="utf-8")
    return Taken(checkpoint, heads, checkpoint_path, heads_path)
