"""Bulk writes of derived rows: ids in chunks of ``CHUNK`` per ``IN (...)`` list, and plain tuples
written straight to a table (the standings recompute writes tens of thousands of them)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

CHUNK = 2000  # ids per IN (...) list


def chunks(items: list, size: int = CHUNK) -> Iterable[list]:
    """``items`` in lists of at most ``size``."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def insert_rows(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Write plain tuples — COPY on PostgreSQL, multi-row INSERTs elsewhere: a rebuild writes
    tens of thousands of derived rows, and model instances would cost more than the database."""
    if not rows:
        return
    ops = connection.ops
    columns = [model._meta.get_field(name) for name in fields]
    table, names = ops.quote_name(model._meta.db_table), ", ".join(ops.quote_name(c.column) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        adapt = [
            ops.adapt_datetimefield_value if column.get_internal_type() == "DateTimeField" else None
            for column in columns
        ]
        rows = [tuple(value if fix is None else fix(value) for value, fix in zip(row, adapt)) for row in rows]
        per_batch = max(1, min(1000, (connection.features.max_query_params or 65535) // len(fields)))
        one = f"({', '.join(['%s'] * len(fields))})"
        for batch in chunks(rows, per_batch):
            cursor.execute(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([one] * len(batch))}",
                [value for row in batch for value in row],
            )
