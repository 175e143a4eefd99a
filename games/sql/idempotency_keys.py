"""The ``Idempotency-Key`` row of a POST (api/idempotency.py): looked up under the key's
advisory lock in one statement, and stored with the response."""

from __future__ import annotations

import functools

from django.db import connection

from games.models import IdempotencyKey
from games.sql import rows


def key_lock_and_find(lock_id: int, user_id: int, key: str) -> tuple[bool, IdempotencyKey | None]:
    """PostgreSQL: ``pg_try_advisory_xact_lock(lock_id)`` and the (user, key) row, if any, in one
    statement: (whether this transaction now holds the lock, the row). Elsewhere (no advisory
    locks; SQLite runs one writer at a time): (True, the row)."""
    if connection.vendor != "postgresql":
        return True, IdempotencyKey.objects.filter(user_id=user_id, key=key).first()
    with connection.cursor() as cursor:
        cursor.execute(_lock_and_find_sql(), [lock_id, user_id, key])
        locked, *row = cursor.fetchone()
    return locked, rows.instance(IdempotencyKey, "k", row) if row[0] is not None else None


@functools.cache
def _lock_and_find_sql() -> str:
    col = functools.partial(rows.column, IdempotencyKey)
    return (
        f"SELECT pg_try_advisory_xact_lock(%s), {rows.columns(IdempotencyKey, 'k')} "
        f"FROM (SELECT 1) AS one LEFT JOIN {rows.table(IdempotencyKey)} k "
        f"ON k.{col('user')} = %s AND k.{col('key')} = %s"
    )


def key_store(row: IdempotencyKey) -> None:
    """Insert the new key ``row`` (``IntegrityError`` if (user, key) is taken)."""
    rows.insert(row)
