"""The two statements of every match command: the lock that reads the match, and the append
that writes what the command decided.

- ``match_lock``: the match row and its projection's, locked and read in one statement
  (``FOR UPDATE OF`` both, the match first, as every writer takes them).
- ``events_append``: the command's events inserted, the match's columns (its version, its
  status, …) and the projection's updated — and, on PostgreSQL, the ``pg_notify`` that wakes the
  live views — in **one** statement: a data-modifying ``WITH`` whose parts run on one snapshot
  inside the command's transaction, all or nothing. On SQLite (no data-modifying ``WITH``) the
  same writes run as separate statements in the same transaction: the same rows, one writer at a
  time anyway.
- ``events_append_unlocked`` (PostgreSQL): the same append for a command decided without the
  lock, on the match as this process last left it (``games.write.states``) — one statement that writes
  only if the match is still at that version, with that head hash and with the columns the
  decision read unchanged, and otherwise writes nothing at all (docs/card-play.md, "The
  fast path", ``games.write.fastplay``). Outside a transaction it commits by itself: no ``BEGIN``, no
  ``COMMIT``.
  With a ``key``, the same statement inserts an ``Idempotency-Key`` row with its answer
  (``games.write.claims``): the key stored with the events, or neither.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction

from games.models import IdempotencyKey, Match, MatchEvent, MatchProjection
from games.sql import rows


def match_lock(pk: Any, known: tuple[int, str] | None = None) -> Match | None:
    """The match ``pk`` with its projection (``match.projection``, cached both ways), both rows
    locked until the transaction ends; None if there is no such match. READ COMMITTED re-reads the
    latest version of a row it waited for, so a command queued behind another reads its result.

    ``known``: the (version, head hash) of a projection the caller holds already. If the stored one
    is that, its ``snapshot`` and ``summary`` are not sent: they come back deferred (read on first
    access, as the ORM's ``defer``), for the caller to set from what it holds."""
    version, head, wrapper = *(known if known is not None else (None, None)), rows.db()
    with wrapper.cursor() as cursor:
        sql, tests = _lock_sql(wrapper.vendor)
        cursor.execute(sql, [version, head] * tests + [rows.prepared(Match, "id", pk)])
        row = cursor.fetchone()
    if row is None:
        return None
    split = rows.width(Match)
    match = rows.instance(Match, "m", row[:split])
    *values, unchanged = row[split:]
    if unchanged:  # the columns not sent are NULL in the row: leave them deferred
        kept = [v for f, v in zip(MatchProjection._meta.concrete_fields, values) if f.name in _KEPT]
        projection = rows.instance(MatchProjection, "p", kept, only=_KEPT)
    else:
        projection = rows.instance(MatchProjection, "p", values)
    Match.projection.related.set_cached_value(match, projection)
    MatchProjection.match.field.set_cached_value(projection, match)
    return match


def match_and_events_since(pk: Any, version: int) -> tuple[Match | None, list[MatchEvent]]:
    """The match ``pk`` (not locked) and its events after ``version``, in order (their ``seq``,
    ``type``, ``payload`` and ``hash``; the rest deferred), in one statement: what a process that
    kept the match at ``version`` needs to catch up (``games.write.states.kept_match``)."""
    with rows.db().cursor() as cursor:
        cursor.execute(_since_sql(), [version, rows.prepared(Match, "id", pk)])
        found = cursor.fetchall()
    if not found:
        return None, []
    split = rows.width(Match)
    match = rows.instance(Match, "m", found[0][:split])
    events = [rows.instance(MatchEvent, "e", row[split:], only=_SINCE) for row in found if row[split] is not None]
    return match, events


_SINCE = ("seq", "type", "payload", "hash")  # in the model's order


@functools.cache
def _since_sql() -> str:
    e = functools.partial(rows.column, MatchEvent)
    return (
        f"SELECT {rows.columns(Match, 'm')}, {', '.join(f'e.{e(name)}' for name in _SINCE)} "
        f"FROM {rows.table(Match)} m LEFT JOIN {rows.table(MatchEvent)} e "
        f"ON e.{e('match')} = m.{rows.column(Match, 'id')} AND e.{e('seq')} > %s "
        f"WHERE m.{rows.column(Match, 'id')} = %s ORDER BY e.{e('seq')}"
    )


_KEPT = ("match", "version", "head_hash")  # the projection's columns sent whether known or not


@functools.cache
def _lock_sql(vendor: str) -> tuple[str, int]:
    """The statement, and how many times it tests ``known`` (two parameters each time)."""
    p = functools.partial(rows.column, MatchProjection)
    known = f"(p.{p('version')} = %s AND p.{p('head_hash')} = %s)"
    projection = [
        f"p.{p(f.name)}" if f.name in _KEPT else f"CASE WHEN {known} THEN NULL ELSE p.{p(f.name)} END"
        for f in MatchProjection._meta.concrete_fields
    ]
    sql = (
        f"SELECT {rows.columns(Match, 'm')}, {', '.join(projection)}, COALESCE({known}, FALSE) "
        f"FROM {rows.table(Match)} m INNER JOIN {rows.table(MatchProjection)} p "
        f"ON p.{rows.column(MatchProjection, 'match')} = m.{rows.column(Match, 'id')} "
        f"WHERE m.{rows.column(Match, 'id')} = %s"
    )
    sql += " FOR UPDATE OF m, p" if connection.features.has_select_for_update_of else ""
    return sql, 1 + sum(f.name not in _KEPT for f in MatchProjection._meta.concrete_fields)


def events_append(
    match: Match,
    events: Sequence[MatchEvent],
    *,
    match_values: dict[str, Any],
    projection_values: dict[str, Any] | None,
    notify: tuple[str, str] | None = None,
    patches: dict[str, tuple[tuple[str, ...], Any]] | None = None,
) -> None:
    """Insert ``events`` (new ``MatchEvent`` instances of ``match``, their primary keys set on
    return), set ``match_values`` on the match's row and ``projection_values`` on its projection's
    (None: the projection is not there yet — the caller creates it), and ``pg_notify(channel,
    payload)`` ``notify`` — one statement on PostgreSQL. ``notify`` is PostgreSQL's alone: on
    other databases it must be None. A second event with a ``seq`` already taken raises
    ``IntegrityError`` (``one_event_per_seq``), and nothing of the statement is written.

    ``patches``: for some JSON columns of ``projection_values``, ``(path, part)`` — the new value
    is the stored one with ``part`` at ``path`` and nothing else changed (a card play adds to the
    plays of the deal). On PostgreSQL the column is then set with ``jsonb_set`` from ``part``
    alone instead of the whole value; elsewhere the whole value is written. The caller vouches
    that the two are equal."""
    if not events:
        raise ValueError("nothing to append")
    patched = _patched(patches)
    wrapper = rows.db()
    if wrapper.vendor != "postgresql":
        if notify is not None:
            raise ValueError("pg_notify is PostgreSQL's")
        _append_one_by_one(match, events, match_values, projection_values)
        return
    match_names, projection_names = tuple(sorted(match_values)), tuple(sorted(projection_values or ()))
    patched = patched if projection_values is not None else ()
    sql = _append_sql(
        len(events), match_names, projection_names if projection_values is not None else None, notify, patched
    )
    field, pk = Match._meta.get_field, Match._meta.pk.get_db_prep_save(match.pk, wrapper)
    params = [value for event in events for value in rows.insert_params(event)]
    params += [field(name).get_db_prep_save(match_values[name], wrapper) for name in match_names]
    params.append(pk)
    if projection_values is not None:
        params += _projection_params(projection_names, projection_values, patches, wrapper)
        params.append(pk)
    if notify is not None:
        params += list(notify)
    with wrapper.cursor() as cursor:
        cursor.execute(sql, params)
        ids = dict((seq, pk) for pk, seq in cursor.fetchall())
    for event in events:
        rows.inserted(event, ids[event.seq])


@functools.cache
def _append_sql(
    count: int,
    match_names: tuple[str, ...],
    projection_names: tuple[str, ...] | None,
    notify: bool,
    patched: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> str:
    quote = connection.ops.quote_name
    fields = rows.insert_fields(MatchEvent)
    values = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * count)
    parts = [
        f"e AS (INSERT INTO {rows.table(MatchEvent)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {values} RETURNING {rows.column(MatchEvent, 'id')}, {rows.column(MatchEvent, 'seq')})",
        f"m AS (UPDATE {rows.table(Match)} SET {rows.assignments(Match, match_names)} "
        f"WHERE {rows.column(Match, 'id')} = %s)",
    ]
    if projection_names is not None:
        parts.append(
            f"p AS (UPDATE {rows.table(MatchProjection)} SET {_projection_assignments(projection_names, patched)} "
            f"WHERE {rows.column(MatchProjection, 'match')} = %s)"
        )
    if notify:  # a volatile function: the CTE is materialised and runs once, joined to the events' rows
        parts.append("n AS (SELECT pg_notify(%s, %s))")
    return f"WITH {', '.join(parts)} SELECT e.* FROM e{', n' if notify else ''}"


def appends_unlocked() -> bool:
    """Whether ``events_append_unlocked`` runs here: PostgreSQL (a data-modifying ``WITH``)."""
    return rows.db().vendor == "postgresql"


def events_append_unlocked(
    match: Match,
    events: Sequence[MatchEvent],
    *,
    head: str,
    checked: dict[str, Any],
    match_values: dict[str, Any],
    projection_values: dict[str, Any],
    notify: tuple[str, str] | None = None,
    patches: dict[str, tuple[tuple[str, ...], Any]] | None = None,
    key: IdempotencyKey | None = None,
) -> bool:
    """``events_append`` for a command decided without the lock: in one statement, and only if the
    match is still where the decision found it — at version ``events[0].seq - 1``, its projection's
    head hash ``head``, and each column of ``checked`` (name: value) as given. Then the match's
    row is updated first (the order every writer locks in: ``match_lock``), and the projection,
    the events and the notification only if it was: True, and ``match`` set from the row as
    stored. Otherwise nothing is written — not an event, not a notification — and False: another
    command moved the match (a concurrent one waited for is re-checked on the row it committed,
    READ COMMITTED's re-check of an ``UPDATE``'s ``WHERE``), or what the process kept is not what
    is stored. The version makes the check: every command moves it, and the head hash makes sure
    the log at that version is the one the decision's state came from.

    ``key``: a new ``Idempotency-Key`` row, inserted by the same statement (hanging on the match's
    row like the rest). If its (user, key) is taken, the statement fails whole: False, nothing
    written (``games.write.claims``)."""
    if not events:
        raise ValueError("nothing to append")
    patched = _patched(patches)
    wrapper = rows.db()
    match_names, checked_names = tuple(sorted(match_values)), tuple(sorted(checked))
    projection_names = tuple(sorted(projection_values))
    sql = _append_unlocked_sql(
        len(events), match_names, checked_names, projection_names, notify is not None, patched, key is not None
    )
    match_field, pk = Match._meta.get_field, Match._meta.pk.get_db_prep_save(match.pk, wrapper)
    params = [match_field(name).get_db_prep_save(match_values[name], wrapper) for name in match_names]
    params += [pk, events[0].seq - 1]
    params += [match_field(name).get_db_prep_save(checked[name], wrapper) for name in checked_names]
    params.append(head)
    params += _projection_params(projection_names, projection_values, patches, wrapper)
    params += [value for event in events for value in rows.insert_params(event)]
    if notify is not None:
        params += list(notify)
    if key is None:
        found = _run(wrapper, sql, params)
    else:
        try:
            found = _run_alone(wrapper, sql, params + rows.insert_params(key))
        except IntegrityError:  # the key was stored meanwhile (its unique constraint): nothing written
            return False
    if not found:
        return False
    if key is not None:
        rows.inserted(key)
    split = rows.width(Match)
    rows.refresh(match, "m", found[0][:split])
    ids = {row[split + 1]: row[split] for row in found}
    for event in events:
        rows.inserted(event, ids[event.seq])
    return True


def _run(wrapper, sql: str, params: list[Any]) -> list[tuple]:
    with wrapper.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _run_alone(wrapper, sql: str, params: list[Any]) -> list[tuple]:
    """``_run`` for a statement that may fail on a constraint: inside a transaction (a test's), in
    a savepoint, so that the failure leaves the transaction usable; outside one it is its own."""
    if not wrapper.in_atomic_block:
        return _run(wrapper, sql, params)
    with transaction.atomic(using=wrapper.alias):
        return _run(wrapper, sql, params)


@functools.cache
def _append_unlocked_sql(
    count: int,
    match_names: tuple[str, ...],
    checked: tuple[str, ...],
    projection_names: tuple[str, ...],
    notify: bool,
    patched: tuple[tuple[str, tuple[str, ...]], ...],
    key: bool = False,
) -> str:
    quote, m = connection.ops.quote_name, functools.partial(rows.column, Match)
    of_match = rows.column(MatchProjection, "match")
    fields = rows.insert_fields(MatchEvent)
    guards = "".join(f" AND m.{m(name)} IS NOT DISTINCT FROM %s" for name in checked)
    one_event = f"SELECT {', '.join(['%s'] * len(fields))} FROM m"  # a row only if the match's was updated
    parts = [
        f"m AS (UPDATE {rows.table(Match)} AS m SET {rows.assignments(Match, match_names)} "
        f"WHERE m.{m('id')} = %s AND m.{m('version')} = %s{guards} AND EXISTS (SELECT FROM "
        f"{rows.table(MatchProjection)} AS h WHERE h.{of_match} = m.{m('id')} "
        f"AND h.{rows.column(MatchProjection, 'head_hash')} = %s) RETURNING {rows.columns(Match, 'm')})",
        f"p AS (UPDATE {rows.table(MatchProjection)} SET {_projection_assignments(projection_names, patched)} "
        f"WHERE {of_match} = (SELECT {m('id')} FROM m))",
        f"e AS (INSERT INTO {rows.table(MatchEvent)} ({', '.join(quote(f.column) for f in fields)}) "
        f"{' UNION ALL '.join([one_event] * count)} "
        f"RETURNING {rows.column(MatchEvent, 'id')}, {rows.column(MatchEvent, 'seq')})",
    ]
    if notify:  # from m: sent only if the match's row was updated
        parts.append("n AS (SELECT pg_notify(%s, %s) FROM m)")
    if key:  # from m too: the key's row only with the events
        key_fields = rows.insert_fields(IdempotencyKey)
        parts.append(
            f"k AS (INSERT INTO {rows.table(IdempotencyKey)} ({', '.join(quote(f.column) for f in key_fields)}) "
            f"SELECT {', '.join(['%s'] * len(key_fields))} FROM m)"
        )
    return f"WITH {', '.join(parts)} SELECT m.*, e.* FROM m, e{', n' if notify else ''}"


@functools.cache
def _plain_path(path: tuple[str, ...]) -> bool:
    return all(re.fullmatch(r"[a-z_]+", key) for key in path)


def _patched(patches: dict[str, tuple[tuple[str, ...], Any]] | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The patched columns and their paths, sorted (part of the statement's cache key); the paths
    are written in the statement, so only plain keys are taken."""
    for path, _ in (patches or {}).values():
        if not _plain_path(path):
            raise ValueError(f"not a plain JSON path: {path!r}")
    return tuple(sorted((name, path) for name, (path, _) in (patches or {}).items()))


def _projection_params(names: tuple[str, ...], values: dict[str, Any], patches, wrapper) -> list[Any]:
    """The parameters of ``_projection_assignments``: a patched column's part, else its whole value."""
    field = MatchProjection._meta.get_field
    return [
        field(name).get_db_prep_save(patches[name][1] if patches and name in patches else values[name], wrapper)
        for name in names
    ]


def _projection_assignments(names: tuple[str, ...], patched: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """``"col" = %s``, or ``"col" = jsonb_set("col", '{path}', %s)`` for the patched columns (the
    path written in the statement: keys of the code's own, not parameters — a list parameter
    costs psycopg more to adapt than the rest of the statement's)."""
    paths, parts = dict(patched), []
    for name in names:
        col = rows.column(MatchProjection, name)
        if name in paths:
            parts.append(f"{col} = jsonb_set({col}, '{{{','.join(paths[name])}}}', %s)")
        else:
            parts.append(f"{col} = %s")
    return ", ".join(parts)


def _append_one_by_one(
    match: Match, events: Sequence[MatchEvent], match_values: dict[str, Any], projection_values: dict[str, Any] | None
) -> None:
    if len(events) == 1:
        rows.insert(events[0])
    else:
        MatchEvent.objects.bulk_create(events)
    rows.update(Match, match.pk, **match_values)
    if projection_values is not None:
        rows.update(MatchProjection, match.pk, **projection_values)
