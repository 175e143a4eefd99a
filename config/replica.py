"""Reads that may lag go to a streaming replica (docs/postgresql-scale.md).

With ``DATABASE_REPLICA_URL`` set the settings add a ``replica`` database and this router. Nothing
goes there by default: only the code inside ``reads_from_replica`` (a context manager and a
decorator) reads from it — lists, standings, exports, audits, whose reader can live with a second
of lag. Everything else, every write and every read inside a transaction, goes to the primary.

A client that just wrote reads its own write: a request with an unsafe method by a signed-in
user pins that user to the primary for ``DATABASE_REPLICA_PIN_SECONDS`` (a key in the shared
cache, so every node and every device of the user sees it; an API client keeps no cookie).
"""

from __future__ import annotations

import contextlib
import contextvars

from django.conf import settings
from django.core.cache import cache
from django.db import connections

PRIMARY = "default"
REPLICA = "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

_replica_wanted: contextvars.ContextVar[bool] = contextvars.ContextVar("replica_wanted", default=False)
_request: contextvars.ContextVar = contextvars.ContextVar("replica_request", default=None)


class reads_from_replica(contextlib.ContextDecorator):  # noqa: N801 - read as a phrase: `with reads_from_replica():`
    """The ORM reads inside go to the replica, when there is one and the client is not pinned."""

    def __enter__(self):
        self._token = _replica_wanted.set(True)
        return self

    def __exit__(self, *exc):
        try:
            _replica_wanted.reset(self._token)
        except ValueError:  # a streamed response's generator, resumed in another context (ASGI): leave it
            _replica_wanted.set(False)
        return False


def replica_configured() -> bool:
    return REPLICA in connections.databases


def _pin_key(user_id) -> str:
    return f"replica-pin:{user_id}"


def _signed_in_user_id(request):
    user = getattr(request, "user", None)  # DRF's authentication sets it on the Django request too
    return user.pk if user is not None and user.is_authenticated else None


def client_is_pinned() -> bool:
    """Whether the current request's user wrote within the pin window (asked once per request)."""
    request = _request.get()
    if request is None:
        return False  # no client to surprise: a task or a command
    if not hasattr(request, "_replica_pinned"):
        user_id = _signed_in_user_id(request)
        try:
            request._replica_pinned = user_id is not None and bool(cache.get(_pin_key(user_id)))
        except Exception:  # noqa: BLE001 - the cache down: read from the primary, never stale
            request._replica_pinned = True
    return request._replica_pinned


def reading_alias() -> str:
    """Where a read inside ``reads_from_replica`` goes now."""
    if (
        not _replica_wanted.get()
        or not replica_configured()
        or connections[PRIMARY].in_atomic_block
        or client_is_pinned()
    ):
        return PRIMARY
    return REPLICA


class ReplicaRouter:
    """Writes to the primary always; reads to the replica only inside ``reads_from_replica``."""

    def db_for_read(self, model, **hints):
        return reading_alias()

    def db_for_write(self, model, **hints):
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the same rows on both: an object read from the replica may be written through the primary

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY


class ReplicaPinMiddleware:
    """Remembers the request for the router, and pins a user who may just have written."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            response = self.get_response(request)
        finally:
            _request.reset(token)
        if request.method not in SAFE_METHODS and replica_configured():
            user_id = _signed_in_user_id(request)
            if user_id is not None:
                try:
                    cache.set(_pin_key(user_id), 1, timeout=settings.DATABASE_REPLICA_PIN_SECONDS)
                except Exception:  # noqa: BLE001 - the cache down: the write stands; reads may lag once
                    pass
        return response
