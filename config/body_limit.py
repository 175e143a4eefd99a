"""The request body limit, enforced while the body is read: the outermost layer of the ASGI and
the WSGI application (config/asgi.py, config/wsgi.py), around Django.

Django's ASGI handler reads the whole body (into a temporary file past
``FILE_UPLOAD_MAX_MEMORY_SIZE``) before any middleware runs, and under WSGI a chunked body has no
``Content-Length`` for ``BodySizeLimitMiddleware`` to check. Here a body is refused with ``413``
``payload_too_large`` as soon as it is known to be over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(``API_MAX_BODY_BYTES``): at once when ``Content-Length`` says so (nothing read), else once the
bytes read pass the limit — so at most the limit plus one chunk is ever read, and all of it in
memory. ``BodySizeLimitMiddleware`` stays for what bypasses these (Django's test clients).

A body must also arrive whole within ``API_BODY_READ_SECONDS`` of the request (issue 30, finding
2): a client trickling it a byte at a time held a gunicorn sync worker until the worker timeout.
Past that it is ``408`` ``request_timeout`` and the connection closes. Under WSGI the body is read
here, before Django, into memory (it is within the size limit); under gunicorn a timer shuts the
socket's reading side at the deadline, which ends a read blocked on a silent client. Under ASGI
each ``receive`` of the body waits at most until the deadline (the wait for a disconnect, once
the body is read, is left alone: a stream lasts as long as it lasts).
"""

from __future__ import annotations

import asyncio
import io
import logging
import socket
import threading
import time
import uuid
from http import HTTPStatus

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext

from games.domain.ids import bounded_int

from .middleware import REQUEST_ID_HEADER, payload_too_large

access_log = logging.getLogger("kierki.request")


READ_CHUNK = 64 * 1024


class BodyTooLarge(Exception):
    """Raised from the ASGI ``receive`` once the body read passes the limit."""


class BodyTooSlow(Exception):
    """Raised from the ASGI ``receive`` once the body has not arrived whole by the deadline."""


def request_timeout(seconds: int) -> JsonResponse:
    """The 408 problem: the body did not arrive within ``seconds``."""
    from api.problems import PROBLEM_CONTENT_TYPE, problem  # the API's builder (imports DRF, models)

    detail = gettext("The request body did not arrive whole within %(seconds)s seconds.") % {"seconds": seconds}
    body = problem("request_timeout", status=408, detail=detail, limit_seconds=seconds)
    return JsonResponse(body, status=408, content_type=PROBLEM_CONTENT_TYPE)


def _refusal(limit: int, length: int | None, method: str, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
    return _closing_answer(payload_too_large(limit, length), method, path)


def _too_slow(method: str, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
    return _closing_answer(request_timeout(settings.API_BODY_READ_SECONDS), method, path)


def _closing_answer(response: JsonResponse, method: str, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
    status = response.status_code
    request_id = uuid.uuid4().hex
    access_log.info(
        "%s %s %s",
        method,
        path,
        status,
        extra={"method": method, "path": path, "status": status, "request_id": request_id},
    )
    headers = [
        *response.items(),
        (REQUEST_ID_HEADER, request_id),
        ("Content-Length", str(len(response.content))),
        ("Connection", "close"),
    ]  # the rest of the body is never read: the connection ends here
    return status, headers, response.content


class ASGIBodyLimit:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = next(
            (
                bounded_int(value.decode("latin-1").strip())
                for name, value in scope["headers"]
                if name.lower() == b"content-length"
            ),
            None,
        )
        if limit is not None and declared is not None and declared > limit:
            return await self._refuse(send, scope, limit, declared)
        received, reading = 0, True
        deadline = time.monotonic() + settings.API_BODY_READ_SECONDS

        async def limited_receive():
            nonlocal received, reading
            if not reading:  # the body is in: Django now waits for a disconnect, as long as it likes
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise BodyTooSlow from None  # Django is still reading the body: nothing was answered yet
            reading = message["type"] == "http.request" and message.get("more_body", False)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if limit is not None and received > limit:
                    raise BodyTooLarge  # Django is still reading the body: nothing was answered yet
                if declared is None and received and not message.get("more_body", False):
                    # A chunked body, read whole: its length, for DRF (which reads none without one).
                    scope["headers"] = [*scope["headers"], (b"content-length", str(received).encode())]
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await self._refuse(send, scope, limit, None)
        except BodyTooSlow:
            await self._answer(send, _too_slow(scope.get("method", ""), scope.get("path", "")))

    @classmethod
    async def _refuse(cls, send, scope, limit: int, length: int | None) -> None:
        await cls._answer(send, _refusal(limit, length, scope.get("method", ""), scope.get("path", "")))

    @staticmethod
    async def _answer(send, answer: tuple[int, list[tuple[str, str]], bytes]) -> None:
        status, headers, body = answer
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            }
        )
        await send({"type": "http.response.body", "body": body})


class WSGIBodyLimit:
    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = (environ.get("CONTENT_LENGTH") or "").strip()
        length = bounded_int(declared) if declared else None
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if limit is not None and length is not None and length > limit:
            return self._answer(environ, start_response, _refusal(limit, length, *_line(environ)))
        if not length and not chunked:
            return self.app(environ, start_response)  # no body
        # Django reads a body of CONTENT_LENGTH bytes (none of a chunked one, which has none): read
        # it here, a chunked one at most one byte past the limit, and hand it on with its length.
        want = length if not chunked else (None if limit is None else limit + 1)
        body = read_within(environ, want, settings.API_BODY_READ_SECONDS)
        if body is None:
            return self._answer(environ, start_response, _too_slow(*_line(environ)))
        if limit is not None and len(body) > limit:
            return self._answer(environ, start_response, _refusal(limit, None, *_line(environ)))
        environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        return self.app(environ, start_response)

    @staticmethod
    def _answer(environ, start_response, answer: tuple[int, list[tuple[str, str]], bytes]):
        status, headers, body = answer
        start_response(f"{status} {HTTPStatus(status).phrase}", headers)
        return [body]


def _line(environ) -> tuple[str, str]:
    return environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", "")


def read_within(environ, want: int | None, seconds: float) -> bytes | None:
    """The body from ``wsgi.input`` (``want`` bytes, or to its end), or None when it was not in
    within ``seconds``. Under gunicorn (``gunicorn.socket``) a timer shuts the socket's reading
    side at the deadline: a read blocked on a silent or trickling client then ends at once."""
    stream = environ["wsgi.input"]
    deadline = time.monotonic() + seconds
    watchdog = _Watchdog(environ.get("gunicorn.socket"), seconds)
    chunks, got = [], 0
    try:
        while want is None or got < want:
            chunk = stream.read(READ_CHUNK if want is None else min(READ_CHUNK, want - got))
            if not chunk or time.monotonic() >= deadline:
                break
            chunks.append(chunk)
            got += len(chunk)
    except Exception:  # a read the watchdog cut short (gunicorn: NoMoreData)
        if not watchdog.fired:
            raise
    finally:
        watchdog.cancel()
    if watchdog.fired or time.monotonic() >= deadline:
        return None
    return b"".join(chunks)


class _Watchdog:
    """One body read under watch: its socket's reading side is shut at ``seconds`` from now (by
    the process's one ``_Watcher`` thread: no thread started per request)."""

    def __init__(self, sock: socket.socket | None, seconds: float):
        self.sock, self.fired = sock, False
        self.deadline = time.monotonic() + seconds
        if sock is not None:
            WATCHER.arm(self)

    def fire(self) -> None:
        self.fired = True
        try:
            self.sock.shutdown(socket.SHUT_RD)
        except OSError:  # closed meanwhile
            pass

    def cancel(self) -> None:
        if self.sock is not None:
            WATCHER.disarm(self)


class _Watcher:
    """A daemon thread that fires the armed watchdogs whose deadline has passed. Started in the
    process that first arms one (a gunicorn worker, after the fork), again after a fork."""

    def __init__(self):
        self.armed: set[_Watchdog] = set()
        self.condition = threading.Condition()
        self.thread: threading.Thread | None = None

    def arm(self, watchdog: _Watchdog) -> None:
        with self.condition:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, daemon=True, name="body-read-watcher")
                self.thread.start()
            self.armed.add(watchdog)
            self.condition.notify()

    def disarm(self, watchdog: _Watchdog) -> None:
        with self.condition:
            self.armed.discard(watchdog)

    def _run(self) -> None:
        with self.condition:
            while True:
                now = time.monotonic()
                for due in [w for w in self.armed if w.deadline <= now]:
                    self.armed.discard(due)
                    due.fire()
                next_due = min((w.deadline for w in self.armed), default=None)
                self.condition.wait(None if next_due is None else max(0.0, next_due - now))


WATCHER = _Watcher()
