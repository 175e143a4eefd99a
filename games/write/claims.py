"""An ``Idempotency-Key`` a card play stores with its events, in its one statement.

The API runs a POST that carries an ``Idempotency-Key`` in a transaction (api/idempotency.py):
the key looked up under its advisory lock, the command, the answer stored, the commit. For a card
play on the fast path (``games.write.fastplay``), itself one self-committing statement, that
transaction costs four more round trips than the play (``BEGIN``, the lock, the key's
``INSERT``, ``COMMIT``) — measured side by side, a quarter of the API's plays per second on
this machine (docs/card-play.md, "What each shortcut buys"). So the API may first hand the play
a ``Claim`` — the user, the key and the request's fingerprint, plain values passed down with the
command's arguments — and the fast path's statement inserts the key's row with the answer
(``key_row``: ``selectors.command_events``, what the API sends for a command) with the events:
both or neither. The API renders its own answer from the result after the command returned.

A claim is all or nothing: if the play does not take the fast path, or its statement writes
nothing (the match moved, or the key is stored already: its unique constraint), it writes
nothing and ``run`` raises ``NotClaimed``; the API then runs the request the usual way, which
finds a stored key under its lock and replays it, or decides the play under the locks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rest_framework.utils.encoders import JSONEncoder

from games.models import IdempotencyKey
from games.read.selectors import command_events
from games.write.results import CommandResult


@dataclass(frozen=True)
class Claim:
    """The ``Idempotency-Key`` ``key`` of ``user`` for a request whose fingerprint is ``request_hash``."""

    user: Any
    key: str
    request_hash: str


class NotClaimed(Exception):
    """The command could not store the claim's answer with its events: it wrote nothing."""


def stored_response(data: Any, headers: dict[str, str], content_type: str | None) -> dict[str, Any]:
    """An answer as a key's row keeps it (``IdempotencyKey.response``): the body as the API's JSON
    gives it back (DRF's encoder, as the renderer), every NUL replaced (jsonb cannot hold
    ``\\u0000``; an error may quote a client's input). ``api.idempotency`` stores every answer so."""
    body = _without_nul(json.loads(json.dumps(data, cls=JSONEncoder)))
    return {"body": body, "headers": headers, "content_type": content_type}


def key_row(claim: Claim, result: CommandResult) -> IdempotencyKey:
    """The claim's row with the answer the API sends for ``result``: ``201``, the events as the
    caller may see them, the new version's ``ETag``."""
    response = stored_response(command_events(result, result.role), {"ETag": f'"{result.match.version}"'}, None)
    return IdempotencyKey(
        user=claim.user, key=claim.key, request_hash=claim.request_hash, status_code=201, response=response
    )


def _without_nul(value: Any) -> Any:
    """``value`` with every NUL in its strings replaced by U+FFFD."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_nul(item) for item in value]
    return value
