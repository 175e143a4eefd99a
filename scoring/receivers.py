"""Signal receivers: a season match ended → schedule its season's recompute (after commit)."""

from __future__ import annotations

import logging

import redis
from kombu.exceptions import OperationalError

from . import services
from .scheduling import schedule_recompute

log = logging.getLogger(__name__)


def on_match_result_changed(sender, *, match_id, status, **kwargs) -> None:
    season_id = services.season_match_ended(match_id=match_id)
    if season_id is None:
        return
    try:
        schedule_recompute(season_id)
    except (redis.RedisError, OperationalError):
        # The match is committed; its season catches up with the next trigger or the nightly rebuild.
        log.exception("could not schedule the standings of season %s after match %s ended", season_id, match_id)
