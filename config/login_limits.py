"""Failed sign-ins on the login forms, limited per client address and per username.

``LOGIN_FAILURE_LIMIT`` (``N/period``, default ``10/hour``) failed attempts are allowed per
window, for each client address and for each username; past it, every POST to the form (the
right password included) is ``429`` with ``Retry-After`` until the window ends. The counts live
in the shared cache (Redis at ``REDIS_URL``), so the limit holds across gunicorn workers and
nodes. An attempt counts as failed when the form is shown again (``200``); a sign-in redirects.

A small middleware rather than django-axes (docs/limits.md): it needs no database table, no
authentication backend and no change to the token endpoint (which DRF throttles), and answers
with the API's own rate-limit status, 429. If the cache is unreachable it lets the attempt
through and logs a warning: Redis down must not lock everyone out.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from rest_framework.throttling import BaseThrottle

from api.throttles import CACHE_ERRORS

from .middleware import Middleware

log = logging.getLogger(__name__)
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@functools.cache
def login_paths() -> frozenset[str]:
    return frozenset({reverse("web:login"), reverse("admin:login")})


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/hour"`` → (10, 3600): attempts and the window in seconds (DRF's notation)."""
    number, _, period = rate.partition("/")
    return int(number), PERIODS[period[0]]


def client_address(request: HttpRequest) -> str:
    """The address DRF's throttles count by (``API_NUM_PROXIES`` decides how X-Forwarded-For is read)."""
    return BaseThrottle().get_ident(request)


class LoginFailureLimitMiddleware(Middleware):
    def handle(self, request, get_response):
        if not self._applies(request):
            return get_response(request)
        keys, retry_after = self._keys(request)
        refusal = self._refusal(request, keys, retry_after)
        if refusal is not None:
            return refusal
        response = get_response(request)
        self._count(keys, response)
        return response

    async def ahandle(self, request, get_response):
        if not self._applies(request):
            return await get_response(request)
        keys, retry_after = self._keys(request)
        refusal = await sync_to_async(self._refusal)(request, keys, retry_after)
        if refusal is not None:
            return refusal
        response = await get_response(request)
        await sync_to_async(self._count)(keys, response)
        return response

    @staticmethod
    def _applies(request: HttpRequest) -> bool:
        return request.method == "POST" and settings.LOGIN_FAILURE_LIMIT is not None and request.path in login_paths()

    @staticmethod
    def _keys(request: HttpRequest) -> tuple[list[str], int]:
        """The cache keys of this window (the address's, the username's) and the seconds left in it."""
        _, period = parse_rate(settings.LOGIN_FAILURE_LIMIT)
        now = time.time()
        window = int(now // period)
        keys = [f"login-failures:address:{client_address(request)}:{window}"]
        username = request.POST.get("username", "").strip().casefold()[:150]
        if username:
            digest = hashlib.sha256(username.encode()).hexdigest()[:32]
            keys.append(f"login-failures:user:{digest}:{window}")
        return keys, max(1, math.ceil((window + 1) * period - now))

    @staticmethod
    def _refusal(request: HttpRequest, keys: list[str], retry_after: int) -> HttpResponse | None:
        limit, _ = parse_rate(settings.LOGIN_FAILURE_LIMIT)
        try:
            counts = cache.get_many(keys)
        except CACHE_ERRORS as exc:  # the cache down: let the attempt through
            log.warning("login failure limit unchecked, the cache failed: %s: %s", type(exc).__name__, exc)
            return None
        if not any(count >= limit for count in counts.values()):
            return None
        log.warning("login refused: too many failed attempts", extra={"path": request.path})
        body = render_to_string("web/too_many_attempts.html", {"retry_after": retry_after}, request=request)
        return HttpResponse(body, status=429, headers={"Retry-After": str(retry_after)})

    @staticmethod
    def _count(keys: list[str], response: HttpResponse) -> None:
        if response.status_code != 200:  # a sign-in redirects; a CSRF failure is a 403 (no attempt)
            return
        _, period = parse_rate(settings.LOGIN_FAILURE_LIMIT)
        try:
            for key in keys:
                cache.add(key, 0, timeout=period + 60)  # the window's key outlives the window a little
                cache.incr(key)  # atomic on Redis: concurrent workers never lose a count
        except CACHE_ERRORS as exc:
            log.warning("login failure not counted, the cache failed: %s: %s", type(exc).__name__, exc)
