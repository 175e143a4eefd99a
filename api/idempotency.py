"""Idempotent POSTs, as Stripe's API does them: the ``Idempotency-Key`` header.

Decorate a view's POST handler with ``@idempotent``. A request that carries the header
(at most 255 characters) from an authenticated user is run at most once per (user, key):

1. Its fingerprint is SHA-256 over the method, the path and the canonical JSON of the body.
2. One transaction runs the whole request. It first takes a transaction-level advisory lock on
   (user, key) — PostgreSQL's ``pg_try_advisory_xact_lock``, in the statement that looks the key
   up. If another request with the key holds the lock, it is still running: ``409``
   ``idempotency_in_progress``. If the key was used before (and has not expired):
   - with a different fingerprint → ``422`` ``idempotency_key_reused``;
   - completed → its stored status, body and headers are replayed with
     ``Idempotent-Replayed: true``; nothing new is stored.
3. Otherwise the handler runs in that transaction, and its response is stored under the key
   before the commit: the events and the response that reports them commit together, in one
   commit (a command refuses before it writes, so a refusal's 4xx is stored the same way). 2xx and
   4xx responses are stored;
   on an unhandled exception (or a 5xx, or a lost connection) nothing is, so a retry runs anew.
   Two requests with one key that slip past the lock (the second looked before the first
   committed) meet at the key's unique constraint: the second is rolled back whole and replays
   the first's response.

A card play (``@idempotent(claimed=True)``) first tries without that transaction, on PostgreSQL:
the view passes a ``games.write.claims.Claim`` (the user, the key, the fingerprint) to the play,
whose fast path stores the key and its answer with the events in its one statement — which fails
whole if the key is stored already (a retry, a reuse, an expired key: the key's unique
constraint). The view renders its answer after the command returned. Whatever the claim did not
store — the fast path not taken, the match moved, the key stored, a refusal — nothing was
written (``claims.NotClaimed``), and the request runs the usual way from step 2
(docs/card-play.md, "A claimed Idempotency-Key").

SQLite has no advisory locks; it runs one writer at a time, so a second request waits for the
first and then replays it. Keys are kept ``IDEMPOTENCY_KEY_TTL_HOURS`` (24 h by default): lookups
ignore older rows, and ``purge_expired_keys`` (``manage.py purge_idempotency_keys``) deletes them.
Requests without the header, and anonymous ones, run as usual.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from games import sql
from games.domain.exceptions import CommandError, InvalidInput, quoted
from games.models import IdempotencyKey
from games.write import claims

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
STORED_HEADERS = ("ETag", "Location")


class IdempotencyKeyReused(CommandError):
    status, code, title = 422, "idempotency_key_reused", gettext_lazy("Idempotency-Key reused")


class IdempotencyInProgress(CommandError):
    status, code, title = 409, "idempotency_in_progress", gettext_lazy("Request in progress")


def ttl() -> dt.timedelta:
    return dt.timedelta(hours=getattr(settings, "IDEMPOTENCY_KEY_TTL_HOURS", 24))


def purge_expired_keys(*, now: dt.datetime | None = None) -> int:
    """Delete the keys older than the TTL; returns how many went."""
    cutoff = (now or timezone.now()) - ttl()
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def request_fingerprint(method: str, path: str, data: Any) -> str:
    """SHA-256 over ``METHOD\\npath\\n`` and the body as canonical JSON (sorted keys, no spaces)."""
    if hasattr(data, "lists"):  # a QueryDict from a form post
        data = {key: values if len(values) != 1 else values[0] for key, values in data.lists()}
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=JSONEncoder)
    # surrogatepass: the same bytes for any text UTF-8 holds; a lone surrogate (a form post, a
    # parser other than the API's, which refuses them) hashes instead of raising (issue 30, finding 7).
    head = f"{method.upper()}\n{path}\n".encode("utf-8", "surrogatepass")
    return hashlib.sha256(head + body.encode("utf-8", "surrogatepass")).hexdigest()


def idempotent(handler: Callable | None = None, *, claimed: bool = False) -> Callable:
    """Make a DRF view's POST handler honour ``Idempotency-Key`` (see the module docstring).
    ``claimed``: the handler runs a card play and passes ``request.idempotency_claim`` to it."""
    if handler is None:
        return functools.partial(idempotent, claimed=claimed)

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if not key or len(key) > MAX_KEY_LENGTH:
            raise InvalidInput(
                gettext("%(header)s must be 1 to %(max)s characters, got %(count)s")
                % {"header": HEADER, "max": MAX_KEY_LENGTH, "count": len(key)},
                field=HEADER,
            )
        if not key.isprintable():  # a NUL or a control character: PostgreSQL's text refuses NUL
            raise InvalidInput(
                gettext("%(header)s must not contain control characters, got %(key)s")
                % {"header": HEADER, "key": quoted(key)},
                field=HEADER,
            )
        fingerprint = request_fingerprint(request.method, request.get_full_path(), request.data)
        if claimed and sql.appends_unlocked():
            reply = _claimed(view, handler, request, args, kwargs, key, fingerprint)
            if reply is not None:
                return reply
        for _attempt in range(3):
            try:
                return _run_once(request.user, key, fingerprint, lambda: _handle(view, handler, request, args, kwargs))
            except _KeyTaken:
                continue  # a request with this key committed meanwhile: look again, and replay it
        raise IdempotencyInProgress(
            gettext("the %(header)s %(key)s is contended; retry") % {"header": HEADER, "key": repr(key)}, field=HEADER
        )

    return wrapper


class _KeyTaken(Exception):
    """The key's row was inserted by a concurrent request that committed first."""


def _handle(view, handler: Callable, request, args, kwargs) -> Response:
    try:
        return handler(view, request, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - handled errors become their 4xx response
        return view.handle_exception(exc)  # re-raises what the API does not handle


def _claimed(view, handler: Callable, request, args, kwargs, key: str, fingerprint: str) -> Response | None:
    """The play run with a claim on ``key``: its answer, stored with its events; or None if the
    claim stored nothing (nothing was written; the usual way runs the request). The key is not
    looked up first: if it is stored (a retry, a reuse, an expired key), the statement that would
    store it again fails whole on its unique constraint, and the usual way answers it under the lock."""
    request.idempotency_claim = claims.Claim(request.user, key, fingerprint)
    try:
        return handler(view, request, *args, **kwargs)
    except (claims.NotClaimed, CommandError, APIException):
        return None  # refused or not stored, nothing written: the usual way decides, and stores the answer
    finally:
        request.idempotency_claim = None


def _run_once(user, key: str, fingerprint: str, handle: Callable[[], Response]) -> Response:
    with transaction.atomic():
        existing = _lock_and_find(user, key)
        if existing is not None:
            if existing.created_at >= timezone.now() - ttl():
                return _answer_for(existing, key, fingerprint)
            existing.delete()  # expired: as if it had never been
        response = handle()
        if response.status_code < 500:
            _store(user, key, fingerprint, response)
        return response


def _answer_for(existing: IdempotencyKey, key: str, fingerprint: str) -> Response:
    if existing.request_hash != fingerprint:
        raise IdempotencyKeyReused(
            gettext("the %(header)s %(key)s was used with a different request") % {"header": HEADER, "key": repr(key)},
            field=HEADER,
        )
    if existing.status_code is None:  # a row claimed by an older release, whose request still runs
        raise IdempotencyInProgress(
            gettext("the first request with %(header)s %(key)s is still running")
            % {"header": HEADER, "key": repr(key)},
            field=HEADER,
        )
    return _replay(existing)


def _lock_and_find(user, key: str) -> IdempotencyKey | None:
    """The key's row, if any, once this transaction holds the key's advisory lock (PostgreSQL)."""
    locked, existing = sql.key_lock_and_find(_lock_id(user.pk, key), user.pk, key)
    if not locked:
        raise IdempotencyInProgress(
            gettext("the first request with %(header)s %(key)s is still running")
            % {"header": HEADER, "key": repr(key)},
            field=HEADER,
        )
    return existing


def _lock_id(user_id: int, key: str) -> int:
    """A signed 64-bit advisory lock id for (user, key)."""
    digest = hashlib.sha256(f"idempotency:{user_id}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _store(user, key: str, fingerprint: str, response: Response) -> None:
    try:  # the violation aborts the transaction: _KeyTaken leaves it, and it rolls back whole
        sql.key_store(_row(user, key, fingerprint, response))
    except IntegrityError:
        raise _KeyTaken from None


def _row(user, key: str, fingerprint: str, response: Response) -> IdempotencyKey:
    """The key's row, with ``response`` as a replay gives it back."""
    headers = {name: response[name] for name in STORED_HEADERS if response.has_header(name)}
    return IdempotencyKey(
        user=user,
        key=key,
        request_hash=fingerprint,
        status_code=response.status_code,
        response=claims.stored_response(response.data, headers, response.content_type),
    )


def _replay(row: IdempotencyKey, *, replayed: bool = True) -> Response:
    """The stored answer (``Idempotent-Replayed: true`` unless this is its first sending)."""
    stored = row.response or {}
    response = Response(
        stored.get("body"),
        status=row.status_code,
        headers=stored.get("headers") or None,
        content_type=stored.get("content_type"),
    )
    if replayed:
        response[REPLAYED_HEADER] = "true"
    return response
