"""The request body limit, enforced while the body is read: the outermost layer of the ASGI and
the WSGI application (config/asgi.py, config/wsgi.py), around Django.

Django's ASGI handler reads the whole body (into a temporary file past
``FILE_UPLOAD_MAX_MEMORY_SIZE``) before any middleware runs, and under WSGI a chunked body has no
``Content-Length`` for ``BodySizeLimitMiddleware`` to check. Here a body is refused with ``413``
``payload_too_large`` as soon as it is known to be over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(``API_MAX_BODY_BYTES``): at once when ``Content-Length`` says so (nothing read), else once the
bytes read pass the limit — so at most the limit plus one chunk is ever read, and all of it in
memory. ``BodySizeLimitMiddleware`` stays for what bypasses these (Django's test clients).
"""

from __future__ import annotations

import io
import logging
import uuid

from django.conf import settings

from games.ids import bounded_int

from .middleware import REQUEST_ID_HEADER, payload_too_large

access_log = logging.getLogger("kierki.request")


class BodyTooLarge(Exception):
    """Raised from the ASGI ``receive`` once the body read passes the limit."""


def _refusal(limit: int, length: int | None, method: str, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
    response = payload_too_large(limit, length)
    request_id = uuid.uuid4().hex
    access_log.info(
        "%s %s %s", method, path, 413, extra={"method": method, "path": path, "status": 413, "request_id": request_id}
    )
    headers = [
        *response.items(),
        (REQUEST_ID_HEADER, request_id),
        ("Content-Length", str(len(response.content))),
        ("Connection", "close"),
    ]  # the rest of the body is never read: the connection ends here
    return 413, headers, response.content


class ASGIBodyLimit:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if scope["type"] != "http" or limit is None:
            return await self.app(scope, receive, send)
        declared = next(
            (
                bounded_int(value.decode("latin-1").strip())
                for name, value in scope["headers"]
                if name.lower() == b"content-length"
            ),
            None,
        )
        if declared is not None and declared > limit:
            return await self._refuse(send, scope, limit, declared)
        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge  # Django is still reading the body: nothing was answered yet
                if declared is None and received and not message.get("more_body", False):
                    # A chunked body, read whole: its length, for DRF (which reads none without one).
                    scope["headers"] = [*scope["headers"], (b"content-length", str(received).encode())]
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await self._refuse(send, scope, limit, None)

    @staticmethod
    async def _refuse(send, scope, limit: int, length: int | None) -> None:
        status, headers, body = _refusal(limit, length, scope.get("method", ""), scope.get("path", ""))
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
        if limit is None:
            return self.app(environ, start_response)
        declared = (environ.get("CONTENT_LENGTH") or "").strip()
        if declared:
            length = bounded_int(declared)
            if length is not None and length > limit:
                return self._refuse(environ, start_response, limit, length)
        elif "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            # Django reads a body of CONTENT_LENGTH bytes (none without it): read the chunked body
            # here, at most one byte past the limit, and hand it on with its length.
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                return self._refuse(environ, start_response, limit, None)
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(environ, start_response, limit: int, length: int | None):
        status, headers, body = _refusal(limit, length, environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        start_response("413 Payload Too Large", headers)
        return [body]
