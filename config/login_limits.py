"""Failed sign-ins on the login forms (the site's and the admin's), counted by
``config.signin_counts`` — the same counts as the API's token endpoint.

Each POST to a form is counted before Django checks its password and given back unless it
failed: a failed attempt shows the form again (``200``); a sign-in redirects, a CSRF failure is a
``403`` (no password checked). Past a limit (per address and username, per username, per
address: docs/limits.md) the POST is ``429`` with ``Retry-After`` until the window ends.

A small middleware rather than django-axes (docs/limits.md): it needs no database table and no
authentication backend, and answers with the API's own rate-limit status, 429. It runs before
CSRF, so a refused attempt reads no form beyond its username.
"""

from __future__ import annotations

import functools

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from . import signin_counts
from .middleware import Middleware


@functools.cache
def login_paths() -> frozenset[str]:
    return frozenset({reverse("web:login"), reverse("admin:login")})


class LoginFailureLimitMiddleware(Middleware):
    def handle(self, request, get_response):
        if not self._applies(request):
            return get_response(request)
        attempt = self._attempt(request)
        if not attempt.allowed:
            return self._refusal(request, attempt.retry_after)
        response = get_response(request)
        self._settle(attempt, response)
        return response

    async def ahandle(self, request, get_response):
        if not self._applies(request):
            return await get_response(request)
        attempt = await sync_to_async(self._attempt)(request)
        if not attempt.allowed:  # rendering reads template files: off the event loop, as before
            return await sync_to_async(self._refusal)(request, attempt.retry_after)
        response = await get_response(request)
        await sync_to_async(self._settle)(attempt, response)
        return response

    @staticmethod
    def _applies(request: HttpRequest) -> bool:
        return request.method == "POST" and settings.LOGIN_FAILURE_LIMIT is not None and request.path in login_paths()

    @staticmethod
    def _attempt(request: HttpRequest) -> signin_counts.Attempt:
        return signin_counts.signin_attempt(request=request, username=request.POST.get("username", ""))

    @staticmethod
    def _refusal(request: HttpRequest, retry_after: int) -> HttpResponse:
        body = render_to_string("web/too_many_attempts.html", {"retry_after": retry_after}, request=request)
        return HttpResponse(body, status=429, headers={"Retry-After": str(retry_after)})

    @staticmethod
    def _settle(attempt: signin_counts.Attempt, response: HttpResponse) -> None:
        """Only a failed attempt (the form shown again) stays counted."""
        if response.status_code != 200:
            attempt.give_back()
