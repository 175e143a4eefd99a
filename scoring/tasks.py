"""Celery tasks for scoring: thin wrappers that fetch by id and call a service."""

from celery import shared_task
from django.db import DatabaseError

from . import annotations, outbox, recompute, scheduling
from .models import Season


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=8,
)
def recompute_season(self, season_id: int, full: bool = False) -> dict | None:
    """Rebuild one season's standings (see recompute.standings_recompute); retried with
    exponential backoff on database errors, acknowledged only once done. A worker killed on the
    way leaves the season's outbox rows: the sweep (or the redelivery) runs it again."""
    if not self.request.is_eager:
        scheduling.release(season_id)
    done = recompute.standings_recompute(season_id=season_id, full=full)
    return (
        None
        if done is None
        else {"season": done.season_id, "rows": done.rows, "scored": done.scored, "rated": done.rated}
    )


@shared_task(acks_late=True)
def rebuild_open_seasons() -> int:
    """The nightly safety net (Celery beat): a full rebuild of every open season."""
    ids = Season.objects.filter(status=Season.Status.OPEN).values_list("pk", flat=True)
    return recompute.standings_rebuild(season_ids=list(ids))


@shared_task(acks_late=True)
def sweep_outbox() -> list[int]:
    """Celery beat, every SCORING_OUTBOX_SWEEP_SECONDS: dispatch again the recomputes that the
    broker did not take or a dead worker did not finish (scoring/outbox.py)."""
    return outbox.sweep()


@shared_task(acks_late=True, autoretry_for=(DatabaseError,), retry_backoff=2, max_retries=5)
def annotate_match(match_id: str) -> int:
    """Annotate a match's finished deals not annotated at the engine's version (scoring/annotations.py)."""
    return annotations.match_annotate(match_id=match_id)
