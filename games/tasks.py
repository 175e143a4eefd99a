"""Celery tasks for the event store: thin wrappers around the audit and the checkpoints
(scheduled by Celery beat, ``CELERY_BEAT_SCHEDULE`` in config/settings.py)."""

from __future__ import annotations

import json
import logging

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games.read import analysis, audit
from games.write.checkpointing import checkpoint_take

log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def audit_matches() -> dict:
    """Audit every match; each failure is logged at ERROR (the nightly integrity check)."""
    failing = audit.audit_matches()
    for match_id, failures in failing.items():
        for failure in failures:
            log.error("audit failed: match %s: %s", match_id, failure)
    if not failing:
        log.info("audit: every match passes")
    return {"failing": sorted(failing)}


@shared_task(acks_late=True)
def take_checkpoint() -> dict | None:
    """Sign a checkpoint of every match's head, log it, and save it (with its heads file) to
    ``CHECKPOINT_DIR`` when set."""
    try:
        taken = checkpoint_take(out_dir=getattr(settings, "CHECKPOINT_DIR", "") or None)
    except ImproperlyConfigured as exc:  # no key in production: say so every time, loudly
        log.error("checkpoint not taken: %s", exc)
        return None
    log.info("checkpoint %s", json.dumps(taken.checkpoint, sort_keys=True))
    return taken.checkpoint


@shared_task(acks_late=True)
def analyse_position(*, match_id: str, seq: int, counter: str | None = None) -> None:
    """Compute and cache the arbiter's analysis of a position (``GET analysis/`` queued it after
    admitting the caller: a search of ``ANALYSIS_BUDGET_NODES`` takes seconds: off the request thread)."""
    analysis.analysis_job_run(match_id=match_id, seq=seq, counter=counter)
