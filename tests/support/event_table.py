"""Raw SQL on the append-only event table, for tests that tamper with it on purpose.

Imported by bare name (``from event_table import tamperable``): pytest puts ``tests/``, the
root conftest's folder, on ``sys.path``.
"""

import contextlib

from django.db import connection


@contextlib.contextmanager
def tamperable():
    """Raw writes to the event table: on PostgreSQL the append-only trigger is switched off
    for the block (inside the test's transaction), on SQLite there is none. The deferred
    foreign-key checks are run first: ALTER TABLE refuses while trigger events are pending."""
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        if postgres:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE games_matchevent DISABLE TRIGGER games_matchevent_append_only")
        try:
            yield cursor
        finally:
            if postgres:
                cursor.execute("ALTER TABLE games_matchevent ENABLE TRIGGER games_matchevent_append_only")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def json_param() -> str:
    """The placeholder for a JSON text parameter written by raw SQL."""
    return "%s::jsonb" if connection.vendor == "postgresql" else "%s"


def assert_refused(sql: str, params: list) -> None:
    """``sql`` is refused by the append-only trigger (PostgreSQL), its transaction rolled back."""
    import psycopg
    import pytest
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError) as raised:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    assert isinstance(raised.value.__cause__, psycopg.errors.InsufficientPrivilege)
    assert "append-only" in str(raised.value)
