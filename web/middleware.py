"""What every page shares when a view fails in a way people should be told of, not shown a 500."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.middleware import Middleware
from games.domain.exceptions import LogUnreadable


class LogUnreadableMiddleware(Middleware):
    """A page that reads a match whose stored log was changed outside the service says so (409) in
    the reader's language, where it would fail with a 500; the API answers the same error as
    problem+json (``api.problems``), so requests under /api/ are left to it. Sync and async alike
    (``config.middleware.Middleware``): the event streams stay without a thread hop."""

    def handle(self, request, get_response):
        return get_response(request)

    async def ahandle(self, request, get_response):
        return await get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LogUnreadable) or request.path.startswith("/api/"):
            return None
        return render(request, "web/log_unreadable.html", {"detail": exception.detail}, status=exception.status)
