"""Request plumbing for every URL: the request id, the access log line, the body size limit."""

from __future__ import annotations

import logging
import re
import time
import uuid
from datetime import UTC

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone, translation
from django.utils.translation import gettext

from .logging import request_id_var

access_log = logging.getLogger("kierki.request")

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,200}")
QUIET_PATHS = frozenset({"/healthz", "/readyz"})  # probes: no access line when they succeed


def request_id_for(request: HttpRequest) -> str:
    """The client's ``X-Request-ID`` when it is sane (≤ 200 of ``[A-Za-z0-9._-]``), else a new one."""
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    return incoming if _SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex


class Middleware:
    """A middleware that runs as it is called: synchronously under WSGI, as a coroutine under
    ASGI (no thread hop for the async views of api/streams.py)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if self.is_async:
            return self._acall(request)
        return self.handle(request, self.get_response)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        return await self.ahandle(request, self.get_response)

    def handle(self, request: HttpRequest, get_response) -> HttpResponse:
        raise NotImplementedError

    async def ahandle(self, request: HttpRequest, get_response) -> HttpResponse:
        raise NotImplementedError


class RequestIDMiddleware(Middleware):
    """First in MIDDLEWARE. Sets ``request.request_id`` and the logging context variable, echoes
    the id as ``X-Request-ID`` and writes one access line per request. The variable stays set
    until ``request_finished`` (after Django's own ``django.request`` line)."""

    def handle(self, request, get_response):
        started = self._start(request)
        return self._finish(request, get_response(request), started)

    async def ahandle(self, request, get_response):
        started = self._start(request)
        return self._finish(request, await get_response(request), started)

    @staticmethod
    def _start(request: HttpRequest) -> float:
        request.request_id = request_id_for(request)
        request_id_var.set(request.request_id)
        return time.perf_counter()

    @staticmethod
    def _finish(request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        response[REQUEST_ID_HEADER] = request.request_id
        if not (request.path in QUIET_PATHS and response.status_code < 400):
            elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
            access_log.info(
                "%s %s %s",
                request.method,
                request.get_full_path(),
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": elapsed_ms,
                },
            )
        return response


def _clear_request_id(**kwargs) -> None:
    request_id_var.set(None)


request_finished.connect(_clear_request_id, dispatch_uid="kierki.clear_request_id")


class BodySizeLimitMiddleware(Middleware):
    """A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``API_MAX_BODY_BYTES``) is ``413`` with a
    problem+json body, before anything reads it. DRF reads JSON bodies from the stream, past
    Django's own check, so the declared length is checked here; a ``RequestDataTooBig`` that
    Django raises anyway (a form read through ``request.body``) gets the same answer."""

    def handle(self, request, get_response):
        refusal = self._refusal(request)
        return refusal if refusal is not None else get_response(request)

    async def ahandle(self, request, get_response):
        refusal = self._refusal(request)
        return refusal if refusal is not None else await get_response(request)

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponse | None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return None
        return payload_too_large(limit, length, request=request) if length > limit else None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig):
            return payload_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, None, request=request)
        return None


def payload_too_large(limit: int | None, length: int | None, *, request: HttpRequest | None = None) -> JsonResponse:
    """The 413 problem, in the language the request asks for (this runs before LocaleMiddleware)."""
    language = translation.get_language_from_request(request) if request is not None else translation.get_language()
    with translation.override(language):
        return _payload_too_large(limit, length)


def _payload_too_large(limit: int | None, length: int | None) -> JsonResponse:
    from api.problems import PROBLEM_CONTENT_TYPE, PROBLEMS, problem  # the API's builder (imports DRF, models)

    if length is not None:
        detail = gettext("The request body is %(length)s bytes; the limit is %(limit)s bytes.")
    else:
        detail = gettext("The request body is too large; the limit is %(limit)s bytes.")
    # The API's problem types may list this one (then its type and title are used), or not.
    title = None if "payload_too_large" in PROBLEMS else gettext("Payload too large")
    body = problem(
        "payload_too_large", status=413, title=title, detail=detail % {"length": length, "limit": limit}, limit=limit
    )
    return JsonResponse(body, status=413, content_type=PROBLEM_CONTENT_TYPE)


class ApiTimeZoneMiddleware(Middleware):
    """Under ``/api/`` the current time zone is UTC, so the API's timestamps stay UTC ISO 8601
    (``...Z``) whatever ``TIME_ZONE`` the pages show times in (DRF's DateTimeField renders in
    the current time zone)."""

    def handle(self, request, get_response):
        if not request.path.startswith(API_PREFIX):
            return get_response(request)
        with timezone.override(UTC):
            return get_response(request)

    async def ahandle(self, request, get_response):
        if not request.path.startswith(API_PREFIX):
            return await get_response(request)
        with timezone.override(UTC):
            return await get_response(request)


API_PREFIX = "/api/"
