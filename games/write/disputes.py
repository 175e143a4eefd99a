"""Disputes and the arbiters' rulings on them: rulings are events in the match log, never edits.

Who is who is ``roles.role_of``'s: an **arbiter** of a match is a staff user or an arbiter or
admin of the club whose league the match's season belongs to — never one seated in the match or
scoring it (he is a player, or the scorer, there: ``arbiter_involved``). A match in no season
has staff as its only arbiters. A dispute is raised by a player seated in the match, its scorer,
or one of its arbiters.

Rulings (``ruling_record``) are ``ruling_recorded`` events (payload: ``dispute``, ``ruling``,
``deal``, ``points``, ``reason``, ``arbiter``), decided here and applied by the same fold as
every event (``projections.apply`` → the engine), so a rebuild and the audit replay
them. The three rulings:

- ``no_change``: the deal stands as played;
- ``score_adjusted``: the arbiter's points per seat count for the deal instead of the played
  ones (which stay visible beside them); the deal must be finished and not voided. A seat whose
  points change must get points within ``worst``..``best`` of the analysis at the disputed
  position (``games.read.analysis``) unless the ruling carries an ``override`` (its reason), which
  the payload keeps;
- ``deal_voided``: only the latest finished deal, while no later deal has started, and not in
  an abandoned match: it no longer counts, the compensating deals it required are cancelled,
  and a replacement of the same kind, dealer and leader is due next. A finished match whose
  last deal is voided is **re-opened** (``in_progress``): the replacement deal is due.

A later ruling on the same dispute supersedes the earlier one (the summary marks it
``superseded_by``). Rulings only move forward, so that no ruling ever has to be undone: after a
``score_adjusted`` a later ruling may adjust again or void the deal, but not go back to
``no_change`` (to restore the played points, adjust to them); after ``deal_voided`` nothing
more can be ruled on that dispute — a voided deal stays voided.

Read models follow in the same transaction: the voided deal's ``DealScore`` rows are removed
(the replacement deal has rows of its own), an adjusted deal's rows carry the arbiter's points.
``match_result_changed`` is sent after commit whenever a ruling touches a finished or abandoned
match, and when a void re-opens a finished one (then with ``status="in_progress"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_noop

from games.domain.event_types import CardPlayed, DealStarted, DealTallied, RulingRecorded
from games.domain.exceptions import InvalidInput, NotAllowed, NotFound, RuleBroken, RulingOutsideAnalysis
from games.domain.ids import int_id
from games.domain.log import stream, streams
from games.domain.projections import DEAL_VOIDED, NO_CHANGE, RULING_TYPES, SCORE_ADJUSTED, apply, deal_score_rows
from games.domain.roles import require_arbiter, role_of
from games.domain.signals import announce_result
from games.domain.stream import Recorded
from games.engine import MatchState, Seat
from games.engine.errors import RuleViolation, RulingNotAllowed
from games.models import DealScore, Dispute, Match
from games.read import analysis
from games.read.people import names_of
from games.write import commands, people
from games.write.commands import Unit
from games.write.results import CommandResult

MAX_STATEMENT, MAX_REASON = 5000, 2000
# An adjusted deal's points, either way: far beyond any deal's (a pool of 130 at most ×4), and
# within the integer columns that store and sum them (DealScore, the standings).
MAX_ADJUSTED = 10_000


# --- who is who -----------------------------------------------------------------------------------


def may_raise(match: Match, user) -> bool:
    """Its seated players, its scorer and its arbiters: whoever may read the match."""
    return role_of(match, user).may_read


def may_read_disputes(match: Match, user) -> bool:
    """The match's disputes: whoever may read the match."""
    return role_of(match, user).may_read


# --- raising a dispute ----------------------------------------------------------------------------


def dispute_raise(*, match_id, actor, deal: Any, statement: Any, play_index: Any = None) -> Dispute:
    """A seated player or the scorer flags deal ``deal`` (1-based; dealt already), optionally at
    ``play_index`` (0-based among the deal's plays so far)."""
    match = _match(match_id)
    if not may_raise(match, actor):
        raise NotAllowed(
            gettext("Only the players seated in this match, its scorer and its arbiters may raise a dispute.")
        )
    if not isinstance(statement, str) or not statement.strip() or len(statement) > MAX_STATEMENT or "\x00" in statement:
        raise InvalidInput(
            gettext("the statement must be text of 1 to %(max)s characters, without NUL") % {"max": MAX_STATEMENT},
            field="statement",
        )
    plays = match_plays_per_deal(match)
    if not _is_int(deal) or not 1 <= deal <= len(plays):
        raise InvalidInput(
            gettext("deal must be the number of a deal dealt in this match (1 to %(count)s)") % {"count": len(plays)},
            field="deal",
        )
    if play_index is not None and (not _is_int(play_index) or not 0 <= play_index < plays[deal - 1]):
        raise InvalidInput(
            gettext("play_index must be one of the deal's plays so far (0 to %(last)s)")
            % {"last": plays[deal - 1] - 1},
            field="play_index",
        )
    return Dispute.objects.create(match=match, deal=deal, play_index=play_index, statement=statement, raised_by=actor)


def match_plays_per_deal(match: Match) -> list[int]:
    """How many cards have been played in each deal dealt (or filed from a paper sheet: none) so far."""
    return plays_per_deal(stream(match, DealStarted, DealTallied, CardPlayed))


def plays_per_deal(log: Iterable[Recorded]) -> list[int]:
    """The fold behind ``match_plays_per_deal``: a count per deal dealt or filed, the cards after it."""
    counts: list[int] = []
    for item in log:
        if isinstance(item.event, DealStarted | DealTallied):
            counts.append(0)
        elif isinstance(item.event, CardPlayed) and counts:
            counts[-1] += 1
    return counts


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _match(match_id) -> Match:
    try:
        return Match.objects.get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
        raise NotFound(gettext("no match %(id)s") % {"id": match_id}) from None


# --- ruling on it -----------------------------------------------------------------------------------


def ruling_record(
    *,
    dispute_id,
    actor,
    ruling: Any,
    reason: Any,
    points: Any = None,
    override: Any = None,
    expected_version: int | None = None,
) -> tuple[Dispute, CommandResult]:
    """An arbiter's ruling on a dispute, appended to the match log as ``ruling_recorded``."""
    _check_ruling_input(ruling, reason, points, override)
    # The analysis takes up to its budget: found before the match is locked (a position never changes).
    outside = _outside_analysis(dispute_id, actor, points) if ruling == SCORE_ADJUSTED else {}
    with transaction.atomic():
        pk = int_id(dispute_id)
        dispute = Dispute.objects.select_for_update().filter(pk=pk).first() if pk is not None else None
        if dispute is None:
            raise NotFound(gettext("no dispute %(id)s") % {"id": dispute_id})
        previous = _ruling_in_force(dispute)
        before: list[str] = []

        def admit(match: Match, role) -> None:  # before the version: a stale non-arbiter is 403 (v1)
            require_arbiter(match, actor, role, what=gettext("a ruling"))

        def decide(unit: Unit) -> None:  # an outsider got the runner's 404 ("no dispute") already
            before.append(unit.match.status)
            try:
                _decide_ruling(unit, dispute, previous, ruling, reason, points, override)
            except RuleViolation as violation:
                raise RuleBroken(violation.located(deal=dispute.deal)) from None
            if outside and override is None:
                raise RulingOutsideAnalysis(
                    gettext(
                        "the points of %(seats)s are outside what the analysis at the disputed position "
                        "allows (worst..best): send an override with its reason to rule them anyway"
                    )
                    % {"seats": ", ".join(outside)},
                    field="points",
                    seats=outside,
                )

        result = commands.run(
            match_id=dispute.match_id,
            actor=actor,
            expected_version=expected_version,
            decide=decide,
            admit=admit,
            ended_too=True,
            not_found=gettext("no dispute %(id)s") % {"id": dispute_id},
        )
        match = result.match
        _rewrite_deal_scores(match, result.state, dispute.deal)
        dispute.status, dispute.ruling_seq = Dispute.Status.RULED, result.events[-1].seq
        dispute.save(update_fields=["status", "ruling_seq"])
        if before[0] == Match.Status.FINISHED and match.status == Match.Status.IN_PROGRESS:
            announce_result(Match, match_id=match.pk, status=match.status)
    return dispute, result


def _outside_analysis(dispute_id, actor, points: dict) -> dict[str, Any]:
    """The seats the adjustment puts out of the analysis's range (``analysis.ruling_outside_range``);
    nothing to check when the ruling will be refused anyway (no such dispute, not an arbiter, the
    deal not finished)."""
    pk = int_id(dispute_id)
    dispute = Dispute.objects.select_related("match__projection").filter(pk=pk).first() if pk is not None else None
    if dispute is None or not role_of(dispute.match, actor).may_rule:
        return {}
    played = next(
        (
            d["points"]
            for d in dispute.match.projection.summary.get("deals", [])
            if d["number"] == dispute.deal and not d.get("voided")
        ),
        None,
    )
    if played is None:
        return {}
    return analysis.ruling_outside_range(dispute=dispute, points=points, played=tuple(played[s.name] for s in Seat))


def _check_ruling_input(ruling: Any, reason: Any, points: Any, override: Any = None) -> None:
    if ruling not in RULING_TYPES:
        raise InvalidInput(
            gettext("type must be one of %(choices)s") % {"choices": ", ".join(RULING_TYPES)}, field="type"
        )
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON or "\x00" in reason:
        raise InvalidInput(
            gettext("a ruling needs a reason: text of 1 to %(max)s characters, without NUL") % {"max": MAX_REASON},
            field="reason",
        )
    if ruling == SCORE_ADJUSTED:
        seats = [s.name for s in Seat]
        if (
            not isinstance(points, dict)
            or sorted(points) != sorted(seats)
            or not all(_is_int(points[s]) for s in seats)
        ):
            raise InvalidInput(gettext("score_adjusted needs whole points for each of N, E, S, W"), field="points")
        if not all(-MAX_ADJUSTED <= points[s] <= MAX_ADJUSTED for s in seats):
            raise InvalidInput(
                gettext("adjusted points lie from −%(max)d to %(max)d for each seat") % {"max": MAX_ADJUSTED},
                field="points",
            )
    elif points is not None:
        raise InvalidInput(
            gettext("only score_adjusted takes points, not %(ruling)s") % {"ruling": ruling}, field="points"
        )
    if override is not None and (
        ruling != SCORE_ADJUSTED
        or not isinstance(override, str)
        or not override.strip()
        or len(override) > MAX_REASON
        or "\x00" in override
    ):
        raise InvalidInput(
            gettext(
                "override is for score_adjusted only: the reason, 1 to %(max)d characters, for "
                "points outside the analysis"
            )
            % {"max": MAX_REASON},
            field="override",
        )


def _ruling_in_force(dispute: Dispute) -> str | None:
    if dispute.ruling_seq is None:
        return None
    ruling = next(iter(stream(dispute.match_id, RulingRecorded, upto=dispute.ruling_seq, latest=1)), None)
    return ruling.event.ruling if ruling is not None else None


def _decide_ruling(
    unit: Unit,
    dispute: Dispute,
    previous: str | None,
    ruling: str,
    reason: str,
    points: dict | None,
    override: str | None = None,
) -> None:
    """Check the ruling against the dispute's history and the match, through the engine."""
    if previous == DEAL_VOIDED:
        raise RulingNotAllowed(
            detail=gettext_noop("the deal was voided by this dispute's ruling: a voided deal stays voided")
        )
    if previous == SCORE_ADJUSTED and ruling == NO_CHANGE:
        raise RulingNotAllowed(
            detail=gettext_noop("an adjusted score is not undone by no_change: adjust it to the played points")
        )
    if ruling == DEAL_VOIDED and unit.match.status == Match.Status.ABANDONED:
        raise RulingNotAllowed(
            detail=gettext_noop("a deal of an abandoned match cannot be voided: no replacement can follow")
        )
    event = RulingRecorded(
        dispute=dispute.pk,
        ruling=ruling,
        deal=dispute.deal,
        points={s.name: points[s.name] for s in Seat} if ruling == SCORE_ADJUSTED else None,
        reason=reason,
        arbiter=people.person_ref(unit.actor),
        override=override,
    )
    unit.state = apply(unit.state, event)  # the same step the fold takes
    unit.emit(event)
    if ruling == DEAL_VOIDED and unit.match.status == Match.Status.FINISHED:
        unit.match.status = Match.Status.IN_PROGRESS  # re-opened: the replacement deal is due


def _rewrite_deal_scores(match: Match, state: MatchState, number: int) -> None:
    """The ruled deal's DealScore rows as the ruling left them (none once voided)."""
    if number > len(state.results):
        return  # the deal in play: it has no rows yet
    DealScore.objects.filter(match=match, number=number).delete()
    DealScore.objects.bulk_create(deal_score_rows(match, state, number, number))


# --- reading them -------------------------------------------------------------------------------------


def dispute_get(*, dispute_id, user) -> Dispute:
    pk = int_id(dispute_id)
    dispute = Dispute.objects.select_related("match", "raised_by").filter(pk=pk).first() if pk is not None else None
    if dispute is None or not may_read_disputes(dispute.match, user):
        raise NotFound(gettext("no dispute %(id)s") % {"id": dispute_id})
    return dispute


def disputes_of_match(*, match: Match) -> QuerySet[Dispute]:
    return Dispute.objects.filter(match=match).select_related("raised_by")


def dispute_views(disputes: Iterable[Dispute]) -> list[dict[str, Any]]:
    """Disputes as the API shows them, each with its rulings (from the log), the one in force last."""
    disputes = list(disputes)
    rulings: dict[int, list[dict[str, Any]]] = {}
    if disputes:
        wanted = {d.pk for d in disputes}
        for item in streams({d.match_id for d in disputes}, RulingRecorded):
            if item.event.dispute in wanted:
                rulings.setdefault(item.event.dispute, []).append(_ruling_view(item))
    names = names_of(r["arbiter"] for shown in rulings.values() for r in shown)  # the log's ids, by name
    for shown in rulings.values():
        for ruling in shown:
            ruling["arbiter"] = names.get(ruling["arbiter"], ruling["arbiter"])
    return [_dispute_view(d, rulings.get(d.pk, [])) for d in disputes]


def _ruling_view(item: Recorded[RulingRecorded]) -> dict[str, Any]:
    event = item.event
    return {
        "seq": item.seq,
        "type": event.ruling,
        "deal": event.deal,
        "points": event.points,
        "reason": event.reason,
        "arbiter": event.arbiter,
        "time": item.recorded_at,
        "override": event.override,
    }


def _dispute_view(dispute: Dispute, rulings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": dispute.pk,
        "match": dispute.match_id,
        "deal": dispute.deal,
        "play_index": dispute.play_index,
        "statement": dispute.statement,
        "raised_by": dispute.raised_by.get_username(),
        "created_at": dispute.created_at,
        "status": dispute.status,
        "ruling_seq": dispute.ruling_seq,
        "ruling": rulings[-1] if rulings else None,
        "rulings": rulings,
    }
