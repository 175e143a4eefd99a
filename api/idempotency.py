"""Idempotent POSTs, as Stripe's API does them: the ``Idempotency-Key`` header.

Decorate a view's POST handler with ``@idempotent``. A request that carries the header
(at most 255 characters) from an authenticated user is run at most once per (user, key):

1. Its fingerprint is SHA-256 over the method, the path and the canonical JSON of the body.
2. A row (user, key, fingerprint, ``status_code`` NULL) is inserted in its own, immediately
   committed transaction. If the key exists already (and has not expired):
   - a different fingerprint → ``422`` ``idempotency_key_reused``;
   - still running (``status_code`` NULL) → ``409`` ``idempotency_in_progress``;
   - completed → its stored status, body and headers are replayed with
     ``Idempotent-Replayed: true``; nothing new is stored.
3. The handler runs in one transaction with the storing of its response, so a command's events
   and the response that reports them commit together. 2xx and 4xx responses are stored;
   on an unhandled exception (or a 5xx) the row is deleted so that a retry can run.
4. A claim still running after ``IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS`` (120 s; a request under
   gunicorn is killed after ``GUNICORN_TIMEOUT``) is abandoned: its process died, or the database
   went away before the row could be deleted. The next request with the key takes it over (a
   conditional ``UPDATE``, so only one does) instead of getting ``409`` until the key expires.

Keys are kept ``IDEMPOTENCY_KEY_TTL_HOURS`` (24 h by default): lookups ignore older rows, and
``purge_expired_keys`` (``manage.py purge_idempotency_keys``) deletes them.
Requests without the header, and anonymous ones, run as usual. The claim must be visible to
concurrent requests at once, so this relies on ``ATOMIC_REQUESTS`` being off (as it is).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from typing import Any, Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from games.exceptions import CommandError, InvalidInput
from games.models import IdempotencyKey

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
STORED_HEADERS = ("ETag", "Location")


class IdempotencyKeyReused(CommandError):
    status, code, title = 422, "idempotency_key_reused", "Idempotency-Key reused"


class IdempotencyInProgress(CommandError):
    status, code, title = 409, "idempotency_in_progress", "Request in progress"


def ttl() -> dt.timedelta:
    return dt.timedelta(hours=getattr(settings, "IDEMPOTENCY_KEY_TTL_HOURS", 24))


def claim_timeout() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS", 120))


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
    return hashlib.sha256(f"{method.upper()}\n{path}\n".encode() + body.encode()).hexdigest()


def idempotent(handler: Callable) -> Callable:
    """Make a DRF view's POST handler honour ``Idempotency-Key`` (see the module docstring)."""

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if not key or len(key) > MAX_KEY_LENGTH:
            raise InvalidInput(f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters, got {len(key)}", field=HEADER)
        fingerprint = request_fingerprint(request.method, request.get_full_path(), request.data)
        row, replay = _claim(request.user, key, fingerprint)
        if replay is not None:
            return replay
        return _run_once(row, view, handler, request, args, kwargs)

    return wrapper


def _claim(user, key: str, fingerprint: str) -> tuple[IdempotencyKey | None, Response | None]:
    """Insert the running row, or find why not: reused, in progress, or done (→ the replay)."""
    for _ in range(3):
        try:
            with transaction.atomic():
                return IdempotencyKey.objects.create(user=user, key=key, request_hash=fingerprint), None
        except IntegrityError:
            pass
        existing = IdempotencyKey.objects.filter(user=user, key=key).first()
        if existing is None:
            continue  # deleted meanwhile (a failed first request, or the purge): try again
        if existing.created_at < timezone.now() - ttl():
            IdempotencyKey.objects.filter(pk=existing.pk, created_at=existing.created_at).delete()
            continue  # expired: as if it had never been
        if existing.request_hash != fingerprint:
            raise IdempotencyKeyReused(f"the {HEADER} {key!r} was used with a different request", field=HEADER)
        if existing.status_code is None:
            if existing.created_at >= timezone.now() - claim_timeout():
                raise IdempotencyInProgress(f"the first request with {HEADER} {key!r} is still running",
                                            field=HEADER)
            if _take_over(existing):
                return existing, None
            continue  # another request took it over, or it finished meanwhile
        return None, _replay(existing)
    raise IdempotencyInProgress(f"the {HEADER} {key!r} is contended; retry", field=HEADER)


def _take_over(abandoned: IdempotencyKey) -> bool:
    """Claim an abandoned running row for this request: only if nobody changed it since it was read."""
    return bool(IdempotencyKey.objects.filter(pk=abandoned.pk, created_at=abandoned.created_at,
                                              status_code__isnull=True).update(created_at=timezone.now()))


def _run_once(row: IdempotencyKey, view, handler: Callable, request, args, kwargs) -> Response:
    stored = False
    try:
        with transaction.atomic():
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - handled errors become their 4xx response
                response = view.handle_exception(exc)  # re-raises what the API does not handle
            if response.status_code < 500:
                _store(row, response)
                stored = True
    finally:
        if not stored:
            IdempotencyKey.objects.filter(pk=row.pk).delete()
    return response


def _store(row: IdempotencyKey, response: Response) -> None:
    body = json.loads(json.dumps(response.data, cls=JSONEncoder))
    headers = {name: response[name] for name in STORED_HEADERS if response.has_header(name)}
    IdempotencyKey.objects.filter(pk=row.pk).update(
        status_code=response.status_code,
        response={"body": body, "headers": headers, "content_type": response.content_type},
    )


def _replay(row: IdempotencyKey) -> Response:
    stored = row.response or {}
    response = Response(stored.get("body"), status=row.status_code, headers=stored.get("headers") or None,
                        content_type=stored.get("content_type"))
    response[REPLAYED_HEADER] = "true"
    return response
