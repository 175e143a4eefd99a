"""An ``Idempotency-Key`` whose answer a card play stores with its events, in one statement.

The API runs a POST that carries an ``Idempotency-Key`` in a transaction (api/idempotency.py):
the key looked up under its advisory lock, the command, the answer stored, the commit. For a card
play on the optimistic branch (``commands._unlocked``), which is itself one self-committing
statement, that transaction is four more round trips than the play needs (``BEGIN``, the lock,
the key's ``INSERT``, ``COMMIT``). So the API may first hand the play a ``Claim``: the branch then
renders the answer before it writes (``Claim.answer``: the key's row and the reply, from the
result as it will be stored) and its one statement writes the key's row with the events
(``games.sql.events_append_unlocked``'s ``key``) — both or neither.

A claim is all or nothing too: if the command does not take the optimistic branch, or its
statement writes nothing (the match moved, or the key was stored meanwhile by another request),
it writes nothing and raises ``NotClaimed``; the API then runs the request the usual way, which
decides again under the locks and replays a stored answer if there is one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.models import IdempotencyKey
    from games.write.commands import CommandResult


@dataclass
class Claim:
    """``answer(result)``: the key's row to store (its answer rendered from ``result``) and the
    reply to send; ``row`` and ``reply`` once the command stored them."""

    answer: Callable[[CommandResult], tuple[IdempotencyKey, Any]]
    row: IdempotencyKey | None = None
    reply: Any = None


class NotClaimed(Exception):
    """The command could not store the claim's answer with its events: it wrote nothing."""


_current: ContextVar[Claim | None] = ContextVar("kierki_claim", default=None)


@contextmanager
def claiming(claim: Claim) -> Iterator[Claim]:
    """Hand ``claim`` to the commands run inside the block."""
    token = _current.set(claim)
    try:
        yield claim
    finally:
        _current.reset(token)


def current() -> Claim | None:
    """The claim handed to the commands running now, if any."""
    return _current.get()
