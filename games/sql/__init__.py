"""The hand-written SQL of the hot path: the statements every card play runs, in one place.

Building and compiling a statement costs the Django ORM more CPU than PostgreSQL spends running
it, so the few statements of every play are SQL over the models' own tables and columns,
prepared and converted as the ORM does it (``rows``), on PostgreSQL and SQLite alike:

- ``tokens``: the API token with its user and his player (``api/authentication.py``);
- ``idempotency_keys``: the ``Idempotency-Key`` row under its advisory lock, and its insert
  (``api/idempotency.py``);
- ``matches``: the match locked with its projection, and the append of a command's events with
  the match's and the projection's new values (and the live views' ``pg_notify``) in one
  statement (``games/write/commands.py``), and the same append made without the lock, written only
  if the match is still where the command found it (a card play's fast path,
  ``games/write/fastplay.py``), and
  the match with its events since a version (a kept match caught up);
- ``rows``: how those statements name tables and columns, take parameters and build instances,
  and the plain ``update`` and ``insert`` of one row.

Each statement is tested against the ORM's own query for the same rows
(tests/store/test_store_hot_path_sql.py), and docs/hot-path-sql.md lists what to re-check when
Django is upgraded. Everything else goes through the ORM.
"""

from games.sql.idempotency_keys import key_lock_and_find, key_store
from games.sql.matches import (
    appends_unlocked,
    events_append,
    events_append_unlocked,
    match_and_events_since,
    match_lock,
)
from games.sql.rows import field_values, insert, loaded, update
from games.sql.tokens import token_with_user_and_player

__all__ = [
    "appends_unlocked",
    "events_append",
    "events_append_unlocked",
    "field_values",
    "insert",
    "key_lock_and_find",
    "key_store",
    "loaded",
    "match_and_events_since",
    "match_lock",
    "token_with_user_and_player",
    "update",
]
