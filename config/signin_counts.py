"""The one place sign-in attempts and password-reset mails are counted (issue 30, finding 3).

The login form, the admin's login and ``POST /api/v1/auth/token/`` share these counts, and the
token endpoint's throttle and the password-reset page count with the same atomic window.

**Atomic.** A count is ``cache.add(key, 0)`` then ``cache.incr(key)`` (Redis ``INCR``), compared
*after* the increment: of 60 concurrent attempts, the ten that got the values 1…10 go on, the rest
are refused. Reading a count, checking the password, then writing it let 41 of 60 through.

**A sign-in attempt is counted before its password is checked** and given back when it turns out
not to be a failure (a sign-in, a form without a password, a refusal): what stays counted is the
failures plus the attempts in flight. Three counts, each in fixed windows of its rate's period:

- the client address *and* the username: ``LOGIN_FAILURE_LIMIT`` (``10/hour``). A guesser locks
  out only what he sends from his own address; the owner signs in from hers;
- the username from every address: ``LOGIN_FAILURE_USER_LIMIT`` (``100/hour``), the ceiling
  against a guesser with many addresses (who can then lock the username out: the trade-off of
  docs/limits.md);
- the address for every username: ``LOGIN_FAILURE_ADDRESS_LIMIT`` (``100/hour``), against one
  address trying one password on many usernames.

A username is counted as Django's sign-in form reads it (``UsernameField``: stripped, NFKC) and
then case-folded: ``ｅｒｉｎ``, ``𝐞𝐫𝐢𝐧`` and ``Erin`` are one count with ``erin``.

With the cache unreachable the attempt goes through and a warning is logged: Redis down must
not lock everyone out.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
import unicodedata
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)
CACHE_ERRORS = (redis.RedisError, OSError)  # what Django's Redis cache raises when Redis is away
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_USERNAME = 150  # Django's username length: longer input is cut before hashing


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/hour"`` → (10, 3600): the count allowed and the window in seconds (DRF's notation)."""
    number, _, period = rate.partition("/")
    return int(number), PERIODS[period[0]]


def client_address(request) -> str:
    """The address DRF's throttles count by (``API_NUM_PROXIES`` decides how X-Forwarded-For is read)."""
    return BaseThrottle().get_ident(request) or ""  # None without REMOTE_ADDR (a test client, a socket)


def normalised_username(raw: object) -> str:
    """The username as the sign-in form reads it (stripped, NFKC), case-folded and NFKC again
    (case folding can undo NFKC): one key for every look-alike that signs in as the same user."""
    if not isinstance(raw, str):
        return ""
    folded = unicodedata.normalize("NFKC", raw.strip()).casefold()
    return unicodedata.normalize("NFKC", folded).strip()[:MAX_USERNAME]


def digest(text: str) -> str:
    """Keys hold no username or e-mail address in clear."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Limit:
    """One count: its key (without the window) and its rate."""

    key: str
    rate: str

    def window_key(self, now: float) -> tuple[str, int, int]:
        """The cache key of the window ``now`` falls in, its limit and the seconds left in it."""
        limit, period = parse_rate(self.rate)
        window = int(now // period)
        return f"{self.key}:{window}", limit, max(1, math.ceil((window + 1) * period - now))


@dataclass
class Attempt:
    """Counted attempts: ``allowed`` or not, ``retry_after`` seconds when not; ``give_back()``
    uncounts an attempt that did not fail."""

    allowed: bool
    retry_after: int = 0
    keys: tuple[str, ...] = ()
    # the tightest count after this attempt, for the RateLimit-* headers (api/throttles.py):
    # its limit (0: nothing counted), the attempts left in its window, the seconds to its end
    limit: int = 0
    remaining: int = 0
    reset: int = 0

    def give_back(self) -> None:
        for key in self.keys:
            try:
                cache.decr(key)
            except ValueError:  # the window's key expired meanwhile: nothing left to give back
                pass
            except CACHE_ERRORS as exc:
                log.warning("count not given back, the cache failed: %s: %s", type(exc).__name__, exc)
                break
        self.keys = ()


def _increment(key: str, period: int) -> int:
    cache.add(key, 0, timeout=period + 60)  # the window's key outlives the window a little
    try:
        return cache.incr(key)  # atomic on Redis (INCR) and in local memory (a lock)
    except ValueError:  # expired between add and incr: this attempt opens the window again
        cache.add(key, 1, timeout=period + 60)
        return 1


def count(limits: list[Limit], *, what: str) -> Attempt:
    """Counts one attempt in every limit; refused (and given back) when any count passes its limit.

    The lowest limit is counted first and counting stops at the first count past its limit: a
    refused attempt, until it is given back, must not hold a place in a count it never reached,
    or concurrent attempts under that count's limit are refused with it (of 64 concurrent
    attempts, 2 let through where the limit was 3)."""
    limits = sorted((limit for limit in limits if limit.rate), key=lambda limit: parse_rate(limit.rate)[0])
    now = time.time()
    counted: list[str] = []
    retry_after = 0
    tightest: tuple[int, int, int] | None = None  # (remaining, limit, seconds left)
    try:
        for limit in limits:
            key, allowed, left = limit.window_key(now)
            _, period = parse_rate(limit.rate)
            value = _increment(key, period)
            counted.append(key)
            if tightest is None or max(0, allowed - value) < tightest[0]:
                tightest = (max(0, allowed - value), allowed, left)
            if value > allowed:
                retry_after = left
                break
    except CACHE_ERRORS as exc:  # the cache down: let the attempt through
        log.warning("%s limit unchecked, the cache failed: %s: %s", what, type(exc).__name__, exc)
        return Attempt(allowed=True)
    remaining, limit, left = tightest or (0, 0, 0)
    attempt = Attempt(
        allowed=not retry_after,
        retry_after=retry_after,
        keys=tuple(counted),
        limit=limit,
        remaining=remaining,
        reset=retry_after or left,
    )
    if not attempt.allowed:
        attempt.give_back()  # a refused attempt checks no password: it must not fill another count
    return attempt


def signin_attempt(*, request, username: object) -> Attempt:
    """Counts a sign-in attempt before its password is checked (the form, the admin, the token
    endpoint); the caller gives it back unless the password was wrong."""
    if not settings.LOGIN_FAILURE_LIMIT:  # the setting empty: sign-in limits off
        return Attempt(allowed=True)
    address = client_address(request)
    limits = [Limit(f"signin:address:{digest(address)}", settings.LOGIN_FAILURE_ADDRESS_LIMIT)]
    name = normalised_username(username)
    if name:
        user = digest(name)
        limits += [
            Limit(f"signin:pair:{digest(address)}:{user}", settings.LOGIN_FAILURE_LIMIT),
            Limit(f"signin:user:{user}", settings.LOGIN_FAILURE_USER_LIMIT),
        ]
    attempt = count(limits, what="sign-in")
    if not attempt.allowed:
        log.warning("sign-in refused: too many failed attempts", extra={"path": request.path})
    return attempt


def reset_mail_attempt(*, request, email: object) -> tuple[Attempt, Attempt]:
    """Counts a password-reset request per client address and per e-mail address given, whether
    or not an account has it (the answer must not tell): (the address's, the account's)."""
    address = count(
        [Limit(f"reset:address:{digest(client_address(request))}", settings.PASSWORD_RESET_ADDRESS_LIMIT or "")],
        what="password reset",
    )
    if not address.allowed:
        return address, Attempt(allowed=False)
    account = normalised_username(email)
    return address, count(
        [Limit(f"reset:account:{digest(account)}", settings.PASSWORD_RESET_ACCOUNT_LIMIT or "")],
        what="password reset",
    )


def throttle_attempt(*, scope: str, ident: str | None, rate: str) -> Attempt:
    """One request in a DRF throttle's fixed window (the token endpoint's ``auth`` scope)."""
    return count([Limit(f"throttle:{scope}:{digest(ident or '')}", rate)], what=f"throttle {scope}")
