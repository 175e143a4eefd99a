"""Throttles. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment in settings), read when a request arrives so that a settings change applies."""

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class AuthTokenThrottle(SimpleRateThrottle):
    """``POST /api/v1/auth/token/`` per client address (password guessing). Scope ``auth``."""

    scope = "auth"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
