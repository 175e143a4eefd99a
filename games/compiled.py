"""Statements of the card-play path, compiled once per process instead of on every request.

Measured in benchmarks/api_plays.py: building and compiling a statement costs the Django ORM
more CPU than PostgreSQL spends running it (a ``select_for_update().select_related().get()``
about 0.6 ms, the same SELECT as SQL about 0.15 ms). The few statements every play runs are
written here as SQL over the models' own table and column names, with parameters prepared and
rows converted exactly as the ORM does it (``get_db_prep_value``, the backends' converters),
so they run on PostgreSQL and SQLite alike and give the same model instances. Everything else
goes through the ORM.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django.db import connection, models
from django.db.models.expressions import Col


@functools.cache
def _shape(model: type[models.Model], alias: str, vendor: str) -> tuple[str, tuple, tuple]:
    """``alias."col", …`` for the model's concrete fields, their attnames and their converters."""
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    select = ", ".join(f"{alias}.{quote(f.column)}" for f in fields)
    converters = []
    for field in fields:
        col = Col(alias, field)
        converters.append((col, tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection))))
    return select, tuple(f.attname for f in fields), tuple(converters)


def columns(model: type[models.Model], alias: str) -> str:
    """The SELECT list of every column of ``model`` under ``alias``."""
    return _shape(model, alias, connection.vendor)[0]


def width(model: type[models.Model]) -> int:
    return len(model._meta.concrete_fields)


def instance(model: type[models.Model], alias: str, values: Iterable[Any]):
    """A model instance from the raw values of ``columns(model, alias)``, as the ORM loads it."""
    _, attnames, converters = _shape(model, alias, connection.vendor)
    converted = []
    for value, (col, steps) in zip(values, converters):
        for step in steps:
            value = step(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, attnames, converted)


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def prepared(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` for field ``name`` as a statement parameter (a UUID as text on SQLite, JSON adapted…)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def update(model: type[models.Model], pk: Any, **values: Any) -> None:
    """``UPDATE model SET … WHERE pk = …`` without a queryset (the fields named, nothing else)."""
    names = sorted(values)
    sql = _update_sql(model, tuple(names), connection.vendor)
    params = [prepared(model, name, values[name]) for name in names]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, prepared(model, model._meta.pk.name, pk)])


@functools.cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    assignments = ", ".join(f"{column(model, name)} = %s" for name in names)
    return f"UPDATE {table(model)} SET {assignments} WHERE {column(model, model._meta.pk.name)} = %s"


def insert(obj: models.Model) -> None:
    """Insert one new instance as ``save()`` would (``auto_now_add`` and defaults applied), without
    its signals or overrides, and set its primary key (``RETURNING`` where the backend has it)."""
    model = type(obj)
    fields = _insert_fields(model)
    params = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
    returning = connection.features.can_return_columns_from_insert
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, connection.vendor, returning), params)
        if model._meta.auto_field is not None:
            obj.pk = (
                cursor.fetchone()[0]
                if returning
                else connection.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)
            )
    obj._state.adding, obj._state.db = False, connection.alias


def _insert_fields(model: type[models.Model]) -> list:
    return [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]


@functools.cache
def _insert_sql(model: type[models.Model], vendor: str, returning: bool) -> str:
    fields = _insert_fields(model)
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {table(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    auto = model._meta.auto_field
    return sql + (f" RETURNING {quote(auto.column)}" if returning and auto is not None else "")
