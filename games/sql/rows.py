"""Rows as the ORM reads and writes them, for the hand-written statements of this package.

A statement here names the models' own tables and columns (``table``, ``column``, ``columns``),
takes its parameters prepared as the ORM prepares them (``prepared``: ``get_db_prep_save``) and
turns its rows into model instances as the ORM does (``instance``: the backend's and the field's
converters, then ``Model.from_db``), so that it runs on PostgreSQL and SQLite alike and gives
the same instances a queryset would. The statement texts are built once per process (cached by
model and vendor). What these functions lean on of Django's internals is listed in
docs/hot-path-sql.md, with what to re-check on an upgrade.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models import signals
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute


def db():
    """The default database's connection wrapper itself: ``django.db.connection`` is a proxy that
    looks it up (a context-local read) on every attribute — a cost on the hot path."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _shape(model: type[models.Model], alias: str, vendor: str) -> tuple[str, tuple, tuple]:
    """``alias."col", …`` for the model's concrete fields, their attnames and their converters."""
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    select = ", ".join(f"{alias}.{quote(f.column)}" for f in fields)
    converters = []
    for field in fields:
        col = field.get_col(alias)  # as the ORM selects it: a foreign key converted as the field it targets
        converters.append((col, tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection))))
    return select, tuple(f.attname for f in fields), tuple(converters)


def columns(model: type[models.Model], alias: str) -> str:
    """The SELECT list of every column of ``model`` under ``alias``."""
    return _shape(model, alias, connection.vendor)[0]


def width(model: type[models.Model]) -> int:
    """How many values ``columns(model, …)`` selects."""
    return len(model._meta.concrete_fields)


def instance(model: type[models.Model], alias: str, values: Iterable[Any], only: Iterable[str] | None = None):
    """A model instance from the raw values of ``columns(model, alias)``, as the ORM loads it.
    ``only``: the values are those of these fields alone (in the model's order), the others
    deferred, as ``QuerySet.only`` loads them (read on first access)."""
    wrapper = db()
    _, attnames, converters = _shape(model, alias, wrapper.vendor)
    if only is not None:
        wanted = {model._meta.get_field(name).attname for name in only}
        attnames, converters = zip(*((a, c) for a, c in zip(attnames, converters) if a in wanted))
    converted = []
    for value, (col, steps) in zip(values, converters):
        for step in steps:
            value = step(value, col, wrapper)
        converted.append(value)
    return _built(model, wrapper.alias, attnames, converted)


def loaded(model: type[models.Model], values: dict[str, Any]):
    """An instance as the ORM loads one whose fields (by attname) have ``values``, already
    converted (``field_values`` of another instance): the fields left out deferred."""
    return _built(model, DEFAULT_DB_ALIAS, tuple(values), tuple(values.values()))


def field_values(obj: models.Model) -> dict[str, Any] | None:
    """``obj``'s concrete fields' values by attname, for ``loaded``; None if one is deferred."""
    loaded_values = obj.__dict__
    try:
        return {attname: loaded_values[attname] for attname in _attnames(type(obj))}
    except KeyError:
        return None


def refresh(obj: models.Model, alias: str, values: Iterable[Any]) -> None:
    """Set ``obj``'s fields from the raw values of ``columns(type(obj), alias)``, converted as
    ``instance`` converts them."""
    fresh = instance(type(obj), alias, values)
    for attname in _attnames(type(obj)):
        setattr(obj, attname, getattr(fresh, attname))


@functools.cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def _built(model: type[models.Model], alias: str, attnames: tuple[str, ...], converted) -> models.Model:
    if not _plain(model) or signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model):
        return model.from_db(alias, attnames, converted)
    # What ``from_db`` gives, without ``__init__``'s walk over every field: the values in the
    # instance's ``__dict__`` (a field left out stays deferred, read on first access).
    obj = model.__new__(model)
    obj._state = models.base.ModelState()
    obj._state.adding, obj._state.db = False, alias
    obj.__dict__.update(zip(attnames, converted))
    return obj


@functools.cache
def _plain(model: type[models.Model]) -> bool:
    """Whether ``from_db`` on ``model`` only sets each field's value in the instance's
    ``__dict__``: neither ``from_db`` nor ``__init__`` overridden, and every field read through
    the ORM's plain deferred attribute (a foreign key's id too), no descriptor of its own."""
    plain = (DeferredAttribute, ForeignKeyDeferredAttribute)
    return (
        model.from_db.__func__ is models.Model.from_db.__func__
        and model.__init__ is models.Model.__init__
        and all(type(inspect.getattr_static(model, f.attname, None)) in plain for f in model._meta.concrete_fields)
    )


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def prepared(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` for field ``name`` as a statement parameter (a UUID as text on SQLite, JSON adapted…)."""
    return model._meta.get_field(name).get_db_prep_save(value, db())


def assignments(model: type[models.Model], names: Iterable[str]) -> str:
    """``"col" = %s, …`` for the fields ``names``, in that order."""
    return ", ".join(f"{column(model, name)} = %s" for name in names)


def update(model: type[models.Model], pk: Any, **values: Any) -> None:
    """``UPDATE model SET … WHERE pk = …`` without a queryset (the fields named, nothing else)."""
    wrapper, names = db(), sorted(values)
    sql = _update_sql(model, tuple(names), wrapper.vendor)
    fields = [model._meta.get_field(name) for name in (*names, model._meta.pk.name)]
    params = [field.get_db_prep_save(value, wrapper) for field, value in zip(fields, (*map(values.get, names), pk))]
    with wrapper.cursor() as cursor:
        cursor.execute(sql, params)


@functools.cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    return f"UPDATE {table(model)} SET {assignments(model, names)} WHERE {column(model, model._meta.pk.name)} = %s"


def insert_fields(model: type[models.Model]) -> list[models.Field]:
    """The fields an INSERT names: every concrete field but the auto primary key."""
    return list(_insert_fields(model))


@functools.cache
def _insert_fields(model: type[models.Model]) -> tuple[models.Field, ...]:
    return tuple(f for f in model._meta.concrete_fields if f is not model._meta.auto_field)


def insert_params(obj: models.Model) -> list[Any]:
    """``obj``'s values for ``insert_fields``, as ``save()`` would write them (``auto_now_add`` and
    defaults applied by ``pre_save``)."""
    wrapper = db()
    return [field.get_db_prep_save(field.pre_save(obj, True), wrapper) for field in _insert_fields(type(obj))]


def inserted(obj: models.Model, pk: Any = None) -> None:
    """Mark ``obj`` as saved (with its new primary key, when the database gave one)."""
    if pk is not None:
        obj.pk = pk
    obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


def insert(obj: models.Model) -> None:
    """Insert one new instance as ``save()`` would (``auto_now_add`` and defaults applied), without
    its signals or overrides, and set its primary key (``RETURNING`` where the backend has it)."""
    model, wrapper = type(obj), db()
    returning = wrapper.features.can_return_columns_from_insert
    pk = None
    with wrapper.cursor() as cursor:
        cursor.execute(_insert_sql(model, wrapper.vendor, returning), insert_params(obj))
        if model._meta.auto_field is not None:
            pk = (
                cursor.fetchone()[0]
                if returning
                else wrapper.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)
            )
    inserted(obj, pk)


@functools.cache
def _insert_sql(model: type[models.Model], vendor: str, returning: bool) -> str:
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {table(model)} ({', '.join(quote(f.column) for f in insert_fields(model))}) "
        f"VALUES ({', '.join(['%s'] * len(insert_fields(model)))})"
    )
    auto = model._meta.auto_field
    return sql + (f" RETURNING {quote(auto.column)}" if returning and auto is not None else "")
