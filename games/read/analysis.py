"""The arbiter's analysis of a match (issue 17): who may see it, which position a seq or a
dispute names, and the range a ``score_adjusted`` ruling is checked against.

The numbers come from the engine (``games.engine.analysis``): per seat ``worst``, ``best`` and
``guaranteed`` final points of the deal from that position, and each legal card's value for
the seat on turn. A position never changes once played (events are only appended), so an
answer is cached by match, deal, plays and budget (in nodes: the same position gets the same
answer, exact or the same bounds, whatever the machine's load).

Who may see it (``analysis_access``, one small check the roles code can route through):

- a seated player — whatever else he is (an arbiter or the scorer sitting at the table) — only
  positions of deals that have finished: a double-dummy answer about a deal in play is advice
  drawn from hidden hands;
- staff, the arbiters of the match's club, and the match's scorer: any position;
- anyone else: 404, as for every match they may not read.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as KombuOperationalError

from games.domain import projections
from games.domain.event_types import CardPlayed, DealStarted
from games.domain.exceptions import AnalysisQueueUnavailable, AnalysisUnavailable, NotAllowed, NotFound
from games.domain.log import stream
from games.domain.roles import role_of
from games.domain.stream import Recorded
from games.engine import DealState, MatchState, Seat
from games.engine.analysis import analyse, deal_position
from games.models import Dispute, Match
from games.read import inspection
from games.read.audit import hands_by_deal

FULL, FINISHED_DEALS = "full", "finished_deals"


def analysis_access(match: Match, user) -> str:
    """``FULL`` (any position) or ``FINISHED_DEALS``; ``NotFound`` for anyone else (see above).
    Decided by the one role function: seated → a player, whatever else he is."""
    role = role_of(match, user)
    if not role.may_read:
        raise NotFound(_("no match %(id)s") % {"id": match.pk})
    return FULL if role.sees_all_hands else FINISHED_DEALS


# --- a position of the log ------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalysisJob:
    """A position whose analysis is not cached yet: what ``games.tasks.analyse_position`` needs to
    compute it (the match and the seq), and the cache key its answer will be found under."""

    match_id: str
    seq: int
    key: str


@dataclass(frozen=True)
class AnalysisLookup:
    """``answer``: the body of ``GET analysis/`` (its ``analysis`` null while ``job`` is pending)."""

    answer: dict[str, Any]
    job: AnalysisJob | None = None


def match_analysis(*, match_id: Any, user, at: int | None = None) -> AnalysisLookup:
    """The analysis right after event ``at`` (default: now): of the deal in play then, or of the
    deal finished last when the log stands between deals (its final points). Never computed here
    (a search of ``ANALYSIS_BUDGET_NODES`` takes seconds, too long for a request): the cached answer, or
    the job that computes it, for the caller to queue (``analysis_job_queue``). The caller is
    admitted first: whoever may not see the position gets the same refusal as ever."""
    match = _match(match_id)
    access = analysis_access(match, user)
    seq = match.version if at is None else at
    state = inspection.match_fold_at(match=match, seq=seq)[0]
    number, deal = _deal_at(state)
    if number is None:
        nothing = {"deal": None, "kind": None, "plays": None, "analysis": None}
        return AnalysisLookup({"match": match.pk, "at": seq, **nothing})
    if access == FINISHED_DEALS and not inspection.deal_finished_since(match, number):
        raise NotAllowed(
            _("deal %(deal)d is still in play: players see its analysis once it is over") % {"deal": number}
        )
    if deal is None:
        raise AnalysisUnavailable(
            _("deal %(deal)d was filed by its tally or points: it has no cards to analyse") % {"deal": number}
        )
    key = position_key(match=match, number=number, deal=deal)
    answer = {"match": match.pk, "at": seq, "deal": number, "kind": deal.kind.value, "plays": len(deal.plays)}
    found = cache.get(key)
    if found is not None:
        return AnalysisLookup({**answer, "analysis": found})
    return AnalysisLookup({**answer, "analysis": None}, AnalysisJob(str(match.pk), seq, key))


QUEUED, PENDING, BUSY = "queued", "pending", "busy"
BROKER_DOWN = (KombuOperationalError, redis.RedisError, OSError)  # what publishing raises when the broker is away


def analysis_job_queue(*, job: AnalysisJob, user) -> str:
    """Queue ``job`` unless it is queued already: ``QUEUED``, ``PENDING`` (queued before, by anyone)
    or ``BUSY`` (the user has ``ANALYSIS_JOBS_PER_USER`` jobs queued or running: try later). Under
    an eager Celery (no broker, ``make run``) the job runs here and its answer is cached on return.
    A job whose worker died is queued again once its mark expires (``ANALYSIS_JOB_SECONDS``)."""
    from games.tasks import analyse_position  # the tasks import this module

    seconds = settings.ANALYSIS_JOB_SECONDS
    if cache.get(_pending_key(job.key)) is not None:
        return PENDING
    counter = _user_jobs_key(user)
    cache.add(counter, 0, timeout=seconds)
    if cache.incr(counter) > settings.ANALYSIS_JOBS_PER_USER:
        _forget_job(counter)
        return BUSY
    if not cache.add(_pending_key(job.key), 1, timeout=seconds):
        _forget_job(counter)
        return PENDING  # another request queued it in the meantime
    try:
        analyse_position.delay(match_id=job.match_id, seq=job.seq, counter=counter)
    except BROKER_DOWN as exc:
        cache.delete(_pending_key(job.key))  # the next request tries again
        _forget_job(counter)
        raise AnalysisQueueUnavailable(
            _("the analysis could not be queued (the task queue did not answer); retry shortly")
        ) from exc
    return QUEUED


def analysis_found(*, job: AnalysisJob) -> dict[str, Any] | None:
    """The job's answer once computed (at once under an eager Celery), else None."""
    return cache.get(job.key)


def analysis_job_run(*, match_id: str, seq: int, counter: str | None = None) -> None:
    """The task's work: compute (and cache) the analysis of the position right after ``seq``. The
    caller was admitted when the job was queued; the position never changes (events are only
    appended), so the answer is the one the request would have computed."""
    try:
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            return
        number, deal = _deal_at(inspection.match_fold_at(match=match, seq=seq)[0])
        if number is not None and deal is not None:
            position_analysis(match=match, number=number, deal=deal)
            cache.delete(_pending_key(position_key(match=match, number=number, deal=deal)))
    finally:
        if counter is not None:
            _forget_job(counter)


def _pending_key(key: str) -> str:
    return f"{key}:pending"


def _user_jobs_key(user) -> str:
    return f"kierki:analysis:jobs:{user.pk}"


def _forget_job(counter: str) -> None:
    try:
        cache.decr(counter)
    except ValueError:  # the counter expired meanwhile
        pass


def _deal_at(state: MatchState) -> tuple[int | None, DealState | None]:
    if state.deal is not None:
        return state.deal.spec.number, state.deal
    if state.results:
        return state.results[-1].number, state.results[-1].final  # no cards: a tallied deal
    return None, None


def position_key(*, match: Match, number: int, deal: DealState) -> str:
    """The cache key of a position's analysis: match, deal, plays, budget (nodes) and engine version."""
    budget = settings.ANALYSIS_BUDGET_NODES
    return f"kierki:analysis:{ENGINE_VERSION}:{match.pk}:{number}:{len(deal.plays)}:{budget}n"


ENGINE_VERSION = 2  # raise it when the engine's answers change: older cached ones are then ignored


def position_analysis(*, match: Match, number: int, deal: DealState) -> dict[str, Any]:
    """The engine's analysis of ``deal`` as it stands (deal ``number`` of ``match``), cached."""
    key = position_key(match=match, number=number, deal=deal)
    found = cache.get(key)
    if found is None:
        found = analyse(deal, nodes=settings.ANALYSIS_BUDGET_NODES).as_json()
        cache.set(key, found, timeout=None)
    return found


# --- a dispute's position ---------------------------------------------------------------------------


def dispute_position(dispute: Dispute) -> tuple[int | None, DealState | None]:
    """The disputed position: deal ``dispute.deal`` just before its disputed play (before its
    first card when the dispute names none) — where the disputed card was chosen. Its seq (the
    event after which it stands) and the deal there; (None, None) for a deal without cards."""
    match = dispute.match
    log = stream(match)
    state = projections.fold(log, hands_by_deal(match, log))
    whole = next((r.final for r in state.results if r.number == dispute.deal), None)
    if whole is None and state.deal is not None and state.deal.spec.number == dispute.deal:
        whole = state.deal
    if whole is None:
        return None, None
    plays = dispute.play_index or 0
    seqs = position_seqs(log, dispute.deal)
    return (seqs[plays] if plays < len(seqs) else None), deal_position(whole, plays)


def position_seqs(log: Iterable[Recorded], number: int) -> list[int]:
    """For each position of deal ``number`` (0 to its plays so far), the seq of the event after
    which it stands: the deal's last event before its first card, then each of its cards."""
    seqs: list[int] = []
    inside = False
    for item in log:
        event = item.event
        if isinstance(event, DealStarted):
            if inside:
                break
            inside = event.number == number
        if not inside:
            continue
        if isinstance(event, CardPlayed) or not seqs:
            seqs.append(item.seq)
        elif len(seqs) == 1:
            seqs[0] = item.seq  # a lead offer or decision before the first card
    return seqs


def deal_position_seqs(*, match: Match, number: int) -> list[int]:
    return position_seqs(stream(match), number)


def dispute_analysis(*, dispute: Dispute, user) -> dict[str, Any] | None:
    """What the ruling form shows: the analysis at the disputed position, for whoever may see it
    (None for a player while the deal is in play, for a deal without cards, and while its job
    runs: it is queued here when not cached, as by ``GET analysis/``)."""
    match = dispute.match
    try:
        access = analysis_access(match, user)
    except NotFound:
        return None
    if access == FINISHED_DEALS and not inspection.deal_finished_since(match, dispute.deal):
        return None
    seq, deal = dispute_position(dispute)
    if deal is None or seq is None:
        return None
    found = _found_or_queued(
        AnalysisJob(str(match.pk), seq, position_key(match=match, number=dispute.deal, deal=deal)), user
    )
    if found is None:
        return None  # being computed (as for GET analysis/, never in the request): shown once it is
    return {"at": seq, "deal": dispute.deal, "kind": deal.kind.value, "plays": len(deal.plays), "analysis": found}


def _found_or_queued(job: AnalysisJob, user) -> dict[str, Any] | None:
    """The job's answer if cached (at once under an eager Celery); else queue it, quietly within
    the user's limit and if the broker answers, and None."""
    found = analysis_found(job=job)
    if found is None:
        try:
            analysis_job_queue(job=job, user=user)
        except AnalysisQueueUnavailable:
            return None
        found = analysis_found(job=job)
    return found


def ruling_outside_range(*, dispute: Dispute, points: dict[str, int], played: tuple[int, ...]) -> dict[str, Any]:
    """The seats a ``score_adjusted`` ruling affects (points other than the ``played`` ones) whose
    ruled points lie outside ``worst``..``best`` at the disputed position, with that range. The
    range is the proven outer one when the analysis is not exact, so only points surely out of
    reach are flagged. Empty for a deal without cards."""
    deal = dispute_position(dispute)[1]
    if deal is None:
        return {}
    seats = position_analysis(match=dispute.match, number=dispute.deal, deal=deal)["seats"]
    return {
        seat.name: {"points": points[seat.name], "worst": seats[seat.name]["worst"], "best": seats[seat.name]["best"]}
        for seat in Seat
        if points[seat.name] != played[seat]
        and not seats[seat.name]["worst"] <= points[seat.name] <= seats[seat.name]["best"]
    }


def _match(match_id: Any) -> Match:
    try:
        match = Match.objects.filter(pk=uuid.UUID(str(match_id))).first()
    except ValueError:
        match = None
    if match is None:
        raise NotFound(_("no match %(id)s") % {"id": match_id})
    return match
