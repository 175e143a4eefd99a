"""Signals the match commands send; other apps listen (data flows out of games, never in).

- ``events_appended`` is sent *inside* the command's transaction, after its events and read
  models are written (``commands.append``; ``match``: the locked ``Match``; ``events``: the new
  ``MatchEvent`` rows; ``result``: the ``games.write.results.CommandResult`` — the engine state, the caller's
  role and the projection as the command left them: a receiver builds from it, reads nothing back).
  A receiver that writes (an outbox row, a webhook delivery) commits or rolls back with the
  events. It runs on every card play: a receiver must decide from its arguments alone whether
  it cares before it touches the database. A card in a deal that goes on (the match in
  progress, only ``card_played`` events, the projection's snapshot still holding a deal) may
  have been written by the fast path (``games.write.fastplay.play``), which on PostgreSQL
  commits in its one statement: the signal then comes after the commit (inside the caller's
  transaction, if any), and a receiver must do nothing for it — webhooks' ``may_matter`` does not.
- ``match_result_changing`` is sent inside the transaction and ``match_result_changed`` after it
  commits, whenever a command leaves a match finished or abandoned (``match_id``: the match's
  UUID, ``status``: its new status) — an arbiter's ruling on a finished or abandoned match
  included — and when a ruling voids the last deal of a finished match, re-opening it
  (``status`` then ``in_progress``; games/write/disputes.py). The first is for work that must not be
  lost (an outbox row in the same transaction); the second for work that may be (a broker
  message).
"""

from functools import partial

from django.db import transaction
from django.dispatch import Signal

events_appended = Signal()
match_result_changing = Signal()
match_result_changed = Signal()


def announce_result(sender, *, match_id, status) -> None:
    """Send ``match_result_changing`` now and ``match_result_changed`` once the transaction commits."""
    match_result_changing.send(sender=sender, match_id=match_id, status=status)
    transaction.on_commit(partial(match_result_changed.send, sender=sender, match_id=match_id, status=status))
