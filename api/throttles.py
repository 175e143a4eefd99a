"""Throttles. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment in settings), read when a request arrives so that a settings change applies.

They count in Django's default cache: Redis at ``REDIS_URL`` (shared by every worker and node),
local memory only in the embedded default (docs/limits.md). Should the cache fail (Redis down),
a request is let through and a warning logged: a throttle must not turn an outage into 500s."""

import logging

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, UserRateThrottle

from config import signin_counts
from config.signin_counts import CACHE_ERRORS

log = logging.getLogger(__name__)
__all__ = ["CACHE_ERRORS", "AnonThrottle", "AuthTokenThrottle", "UserThrottle"]


class FailOpen:
    """A throttle that allows the request when its cache cannot be read or written."""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            log.warning("throttle %s unchecked, the cache failed: %s: %s", type(self).__name__, type(exc).__name__, exc)
            return True


class AuthTokenThrottle(BaseThrottle):
    """``POST /api/v1/auth/token/`` per client address (password guessing). Scope ``auth``.

    A fixed window counted with the cache's atomic ``incr`` (``config.signin_counts``), not DRF's
    read-then-write history: 80 concurrent requests let 59 through a limit of 30 (issue 30)."""

    scope = "auth"
    retry_after = None

    def allow_request(self, request, view):
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if not rate:
            return True
        attempt = signin_counts.throttle_attempt(scope=self.scope, ident=self.get_ident(request), rate=rate)
        self.retry_after = attempt.retry_after or None
        return attempt.allowed

    def wait(self):
        return self.retry_after


class UserThrottle(FailOpen, UserRateThrottle):
    """Every request per user (``API_THROTTLE_USER``), anonymous ones per address."""


class AnonThrottle(FailOpen, AnonRateThrottle):
    """Anonymous requests per client address (``API_THROTTLE_ANON``)."""
