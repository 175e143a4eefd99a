"""What every page shares when a view fails in a way people should be told of, not shown a 500."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.domain.exceptions import LogUnreadable


class LogUnreadableMiddleware:
    """A page that reads a match whose stored log was changed outside the service says so (409) in
    the reader's language, where it would fail with a 500; the API answers the same error as
    problem+json (``api.problems``), so requests under /api/ are left to it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LogUnreadable) or request.path.startswith("/api/"):
            return None
        return render(request, "web/log_unreadable.html", {"detail": exception.detail}, status=exception.status)
