"""When to recompute a season: debounced on Redis, or at once in the embedded mode.

``schedule_recompute(season_id)`` is called after a commit (``outbox.dispatch``): a match of the
season finished, was abandoned, or had a ruling (``games.domain.signals.match_result_changed``), or the
season's ``min_matches`` changed; and by the outbox's sweep for a request nobody took:

- embedded mode (no ``CELERY_BROKER_URL``: Celery runs tasks eagerly), the recompute runs
  right there, without Redis;
- with a broker, ``SET kierki:scoring:season:<id>:pending 1 NX EX <countdown + 300>`` on Redis
  (``REDIS_URL``, else the broker's URL): only the trigger that sets the key queues
  ``recompute_season`` with ``countdown=SCORING_DEBOUNCE_SECONDS``; every trigger until that
  run starts finds the key and adds nothing — its change will be read by that run. The task
  deletes the key as it starts (``release``), *before* it reads anything, so a trigger that
  arrives while a recompute runs queues exactly one more run: never dropped. The key's expiry
  only bounds how long a lost message could hold triggers back (the outbox's sweep mends that).

Redis being down must not hold a request up: the client gives up connecting after
``REDIS_CONNECT_TIMEOUT`` seconds and waiting for a reply after ``REDIS_SOCKET_TIMEOUT``. It
retries a broken connection once, at once (a pooled connection that Redis dropped when it
restarted), but not a timeout, which would only double the wait.
"""

from __future__ import annotations

import functools

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

PENDING_KEY = "kierki:scoring:season:{}:pending"
PENDING_GRACE = 300  # seconds a pending key outlives its countdown


def schedule_recompute(season_id: int) -> None:
    from .tasks import recompute_season

    if recompute_season.app.conf.task_always_eager:
        recompute_season.delay(season_id)
        return
    countdown = settings.SCORING_DEBOUNCE_SECONDS
    client, key = redis_client(), PENDING_KEY.format(season_id)
    if not client.set(key, "1", nx=True, ex=countdown + PENDING_GRACE):
        return  # a run is queued and has not started yet: it will read this change
    try:
        recompute_season.apply_async((season_id,), countdown=countdown)
    except Exception:
        client.delete(key)  # nothing was queued: let the next trigger try again
        raise


def release(season_id: int) -> None:
    """A recompute of the season starts: from now on a trigger queues one more run."""
    redis_client().delete(PENDING_KEY.format(season_id))


def is_pending(season_id: int) -> bool:
    return bool(redis_client().exists(PENDING_KEY.format(season_id)))


def redis_client() -> redis.Redis:
    from .tasks import recompute_season

    return _client(
        settings.REDIS_URL or recompute_season.app.conf.broker_url,
        settings.REDIS_CONNECT_TIMEOUT,
        settings.REDIS_SOCKET_TIMEOUT,
    )


@functools.lru_cache(maxsize=4)
def _client(url: str, connect_timeout: float, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=connect_timeout,
        socket_timeout=timeout,
        retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    )
