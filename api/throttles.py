"""Throttles. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment in settings), read when a request arrives so that a settings change applies.

They count in Django's default cache: Redis at ``REDIS_URL`` (shared by every worker and node),
local memory only in the embedded default (docs/limits.md). Should the cache fail (Redis down),
a request is let through and a warning logged: a throttle must not turn an outage into 500s.

Every throttled answer (a 429 too) carries the IETF draft's ``RateLimit-Limit``,
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until a request is freed): each throttle
notes its quota on the request (``note_quota``), ``RateLimitHeadersMiddleware`` writes the
tightest one (the fewest requests left) on the response (docs/limits.md, docs/api.md)."""

import logging
import math
from dataclasses import dataclass

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, UserRateThrottle

from config import signin_counts
from config.signin_counts import CACHE_ERRORS

log = logging.getLogger(__name__)
__all__ = ["CACHE_ERRORS", "AnonThrottle", "AuthTokenThrottle", "Quota", "RateLimitHeadersMiddleware", "UserThrottle"]
QUOTA_ATTRIBUTE = "kierki_rate_limit"  # on the Django request: the tightest quota noted


@dataclass(frozen=True)
class Quota:
    """One throttle's count after this request: its limit, the requests left in it, and the
    seconds until one is freed (the draft's ``RateLimit-Reset``, a delta)."""

    limit: int
    remaining: int
    reset: int
    refused: bool = False  # this throttle refused the request: its numbers match the 429's Retry-After

    def tightness(self) -> tuple[int, bool, int]:
        return (self.remaining, not self.refused, -self.reset)

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset),
        }


def note_quota(request, quota: Quota) -> None:
    """Keep ``quota`` on the Django request (a DRF request wraps it) if it is the tightest so far."""
    django_request = getattr(request, "_request", request)
    noted = getattr(django_request, QUOTA_ATTRIBUTE, None)
    if noted is None or quota.tightness() < noted.tightness():
        setattr(django_request, QUOTA_ATTRIBUTE, quota)


class RateLimitHeadersMiddleware:
    """Writes the quota the request's throttles noted, if any, on its answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        quota = getattr(request, QUOTA_ATTRIBUTE, None)
        if quota is not None:
            for name, value in quota.headers().items():
                response.headers.setdefault(name, value)
        return response


class FailOpen:
    """A throttle that allows the request when its cache cannot be read or written."""

    def allow_request(self, request, view):
        self.key = None  # set by DRF only when this throttle counts the request
        try:
            allowed = super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            log.warning("throttle %s unchecked, the cache failed: %s: %s", type(self).__name__, type(exc).__name__, exc)
            return True
        if self.key is not None:
            note_quota(request, self.quota(allowed))
        return allowed

    def quota(self, allowed: bool) -> Quota:
        """DRF's sliding window: ``history`` holds this request's time first when allowed; the
        oldest entry (last) frees a request when it leaves the window."""
        if not allowed:
            return Quota(self.num_requests, 0, max(1, math.ceil(self.wait() or 0)), refused=True)
        left = self.duration - (self.now - self.history[-1]) if self.history else self.duration
        return Quota(self.num_requests, max(0, self.num_requests - len(self.history)), max(1, math.ceil(left)))


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
        if attempt.limit:  # counted (not with the cache down)
            note_quota(request, Quota(attempt.limit, attempt.remaining, attempt.reset, refused=not attempt.allowed))
        return attempt.allowed

    def wait(self):
        return self.retry_after


class UserThrottle(FailOpen, UserRateThrottle):
    """Every request per user (``API_THROTTLE_USER``), anonymous ones per address."""


class AnonThrottle(FailOpen, AnonRateThrottle):
    """Anonymous requests per client address (``API_THROTTLE_ANON``)."""
