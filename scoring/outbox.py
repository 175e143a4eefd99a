"""The outbox of standings recomputes: a recompute a change requires is never lost to a Redis
outage or a dead worker.

- ``request`` writes a ``RecomputeRequest`` row *inside* the transaction that changes a season's
  results (a season match ended or was ruled on, ``min_matches`` changed): it commits with the
  events, or rolls back with them.
- ``dispatch``, after the commit, asks for the recompute at once (``scheduling.schedule_recompute``:
  the debounce on Redis, then the broker; in the embedded mode the recompute itself). Whatever
  fails there is logged, never raised — the client's command is committed — and the row stays.
- ``take``, inside the recompute's transaction, deletes the season's rows before it reads: the
  changes they stand for are committed, so this run reads them. A run that dies (a killed worker,
  a lost connection) rolls the deletion back with everything else.
- ``sweep`` (Celery beat every ``SCORING_OUTBOX_SWEEP_SECONDS``; ``manage.py sweep_outbox``)
  dispatches again every season with a row older than ``SCORING_OUTBOX_GRACE_SECONDS`` — more
  than the debounce countdown, so a recompute on its way is not asked for twice. With the outbox
  empty that is one probe of the ``created_at`` index.
"""

from __future__ import annotations

import datetime
import logging
from functools import partial

import redis
from django.conf import settings
from django.db import transaction
from django.db.models.functions import Now
from kombu.exceptions import OperationalError as KombuOperationalError

from .models import RecomputeRequest
from .scheduling import schedule_recompute

log = logging.getLogger(__name__)
BROKER_DOWN = (redis.RedisError, KombuOperationalError)  # Redis (the debounce) or the broker unreachable


def request(season_id: int) -> None:
    """Inside the transaction that changes the season's results: the row that commits with it."""
    RecomputeRequest.objects.create(season_id=season_id)


def enqueue(season_id: int) -> None:
    """``request`` now and ``dispatch`` once the transaction commits."""
    request(season_id)
    transaction.on_commit(partial(dispatch, season_id))


def dispatch(season_id: int) -> bool:
    """After the commit: ask for the season's recompute now. False (logged) when that failed."""
    try:
        schedule_recompute(season_id)
    except BROKER_DOWN as exc:
        log.warning(
            "could not schedule the standings of season %s (%s: %s); the outbox keeps the request",
            season_id,
            type(exc).__name__,
            exc,
        )
        return False
    except Exception:  # noqa: BLE001 - the change is committed and its request kept: the sweep retries
        log.exception("could not schedule the standings of season %s; the outbox keeps the request", season_id)
        return False
    return True


def take(season_id: int) -> int:
    """Inside the recompute's transaction, before it reads anything: delete the season's rows
    (those committed so far: their changes are visible to this run). How many went."""
    deleted, _ = RecomputeRequest.objects.filter(season_id=season_id).delete()
    return deleted


def sweep(*, grace: int | None = None) -> list[int]:
    """Dispatch every season with a request older than ``grace`` seconds (default
    ``SCORING_OUTBOX_GRACE_SECONDS``); returns those seasons."""
    grace = settings.SCORING_OUTBOX_GRACE_SECONDS if grace is None else grace
    due = list(
        RecomputeRequest.objects.filter(created_at__lte=Now() - datetime.timedelta(seconds=grace))
        .order_by("season_id")
        .values_list("season_id", flat=True)
        .distinct()
    )
    for season_id in due:
        dispatch(season_id)
    return due
