"""The annotated deals (issue 27): computed once per finished deal, off the request path.

A deal that ends (its last card, or the server's ``hands_revealed``) queues
``scoring.tasks.annotate_match`` once the command commits (``on_events_appended``, connected in
``ScoringConfig.ready``: data flows out of games, never in). The job folds the match's log,
annotates every played deal that has no row at the engine's current version
(``games.engine.annotation.ENGINE_VERSION``) and stores it (``DealAnnotation``). The rows are
derived data: ``manage.py annotate_deals`` rebuilds them from the log (all, or the stale ones).

Paper-sheet deals (R31–R33) carry no cards: they are never annotated and never counted.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from games.domain import projections
from games.domain.log import stream
from games.engine import DealState, Seat
from games.engine.annotation import BEST, ENGINE_VERSION, annotate
from games.engine.annotation import DealAnnotation as Annotated
from games.models import Match, MatchEvent
from games.read.audit import hands_by_deal

from .models import DealAnnotation

log = logging.getLogger(__name__)
T = MatchEvent.Type


def deal_ended(events: list, result: Any) -> bool:
    """From the signal's arguments alone: did these events end a deal with cards? (a server-dealt
    deal reveals its hands; a recorded one leaves no deal in play after its last card)."""
    types = {row.type for row in events}
    if T.HANDS_REVEALED in types:
        return True
    state = getattr(result, "state", None)
    return T.CARD_PLAYED in types and state is not None and state.deal is None


def annotated_automatically() -> bool:
    """Whether a job annotates each deal as it ends (``ANNOTATE_DEALS``). When not, a deal is
    annotated only by ``manage.py annotate_deals``, and nothing is computing one that is missing."""
    return settings.ANNOTATE_DEALS


def on_events_appended(sender, *, match, events: list, result=None, **kwargs) -> None:
    """Queue the match's annotation after the commit when a deal just ended."""
    if annotated_automatically() and deal_ended(events, result):
        match_id = str(match.pk)
        transaction.on_commit(lambda: annotation_job_queue(match_id=match_id))


def annotation_job_queue(*, match_id: str) -> bool:
    """Queue ``annotate_match`` unless it is queued already (a mark lasting ``ANALYSIS_JOB_SECONDS``);
    False when the broker did not take it (the next deal's end, a request or the command retries)."""
    from games.read.analysis import BROKER_DOWN

    from .tasks import annotate_match  # the tasks import this module

    mark = queued_mark(match_id)
    if not cache.add(mark, 1, timeout=settings.ANALYSIS_JOB_SECONDS):
        return True
    try:
        annotate_match.delay(match_id)
    except BROKER_DOWN:
        cache.delete(mark)
        log.warning("annotations of match %s not queued: the task queue did not answer", match_id)
        return False
    return True


def queued_mark(match_id: Any) -> str:
    """The cache key that stops a match's job being queued twice; the job clears it as it starts,
    so that a deal ending while it runs queues the next one."""
    return f"kierki:annotations:{ENGINE_VERSION}:{match_id}:queued"


def played_deals(match: Match) -> dict[int, DealState]:
    """The match's finished deals with cards, by number, as they ended (the log folded)."""
    log = stream(match)
    state = projections.fold(log, hands_by_deal(match, log))
    return {r.number: r.final for r in state.results if r.final is not None and r.final.is_over}


def match_annotate(*, match_id: Any, rebuild: bool = False) -> int:
    """Annotate the match's played deals with no row at the current engine version (every one
    with ``rebuild``); how many were annotated. ``ANNOTATION_BUDGET_NODES`` per position."""
    cache.delete(queued_mark(match_id))
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return 0
    current = set(DealAnnotation.objects.filter(match=match, version=ENGINE_VERSION).values_list("number", flat=True))
    done = 0
    for number, deal in played_deals(match).items():
        if number in current and not rebuild:
            continue
        started = time.perf_counter()
        annotated = annotate(deal, nodes=settings.ANNOTATION_BUDGET_NODES)
        annotation_store(
            match=match, number=number, deal=deal, annotated=annotated, seconds=time.perf_counter() - started
        )
        done += 1
    return done


def annotation_store(*, match: Match, number: int, deal: DealState, annotated: Annotated, seconds: float) -> None:
    data = annotated.as_json()
    DealAnnotation.objects.update_or_create(  # two jobs of one match store the same answer: the last stays
        match=match,
        number=number,
        defaults={
            "version": ENGINE_VERSION,
            "kind": deal.kind.value,
            "exact": annotated.exact,
            "cards": data["cards"],
            "positions": data["positions"],
            "seats": seat_figures(annotated),
            "computed_in": round(seconds, 3),
        },
    )


def seat_figures(annotated: Annotated) -> dict[str, dict[str, int]]:
    """Per seat what accuracy sums (docs/analysis.md, "Accuracy"): his cards, the graded ones,
    the graded ones that cost nothing (``clean``), and the points his cards are proven to have
    lost (each card's least proven cost, exact when graded exactly)."""
    figures = {s.name: {"cards": 0, "graded": 0, "clean": 0, "lost": 0} for s in Seat}
    for note in annotated.notes:
        row = figures[note.seat.name]
        row["cards"] += 1
        row["lost"] += note.cost.low
        if note.grade is not None:
            row["graded"] += 1
            row["clean"] += note.grade == BEST
    return figures


def annotations_rebuild(*, match_ids: list | None = None, stale_only: bool = True) -> int:
    """``manage.py annotate_deals``: annotate again (all, or only what is missing or stale)."""
    matches = Match.objects.all() if match_ids is None else Match.objects.filter(pk__in=match_ids)
    return sum(match_annotate(match_id=pk, rebuild=not stale_only) for pk in matches.values_list("pk", flat=True))
