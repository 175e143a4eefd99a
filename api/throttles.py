"""Throttles. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment in settings), read when a request arrives so that a settings change applies.

They count in Django's default cache: Redis at ``REDIS_URL`` (shared by every worker and node),
local memory only in the embedded default (docs/limits.md). Should the cache fail (Redis down),
a request is let through and a warning logged: a throttle must not turn an outage into 500s."""

import logging

import redis
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

log = logging.getLogger(__name__)
CACHE_ERRORS = (redis.RedisError, OSError)  # what Django's Redis cache raises when Redis is away


class FailOpen:
    """A throttle that allows the request when its cache cannot be read or written."""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            log.warning("throttle %s unchecked, the cache failed: %s: %s", type(self).__name__, type(exc).__name__, exc)
            return True


class AuthTokenThrottle(FailOpen, SimpleRateThrottle):
    """``POST /api/v1/auth/token/`` per client address (password guessing). Scope ``auth``."""

    scope = "auth"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserThrottle(FailOpen, UserRateThrottle):
    """Every request per user (``API_THROTTLE_USER``), anonymous ones per address."""


class AnonThrottle(FailOpen, AnonRateThrottle):
    """Anonymous requests per client address (``API_THROTTLE_ANON``)."""
