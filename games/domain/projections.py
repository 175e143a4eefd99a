"""From events to state: the one fold (``apply``) that commands, rebuilds and audits share,
and the read models written from it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_noop

from games.domain import confirmation
from games.domain.chain import timestamp
from games.domain.event_types import (
    CardPlayed,
    DealCorrected,
    DealStarted,
    DealTallied,
    Event,
    LeadKept,
    LeadOffered,
    LeadSold,
    MatchCreated,
    RulingRecorded,
    of_row,
)
from games.engine import MatchState, Ruleset, Seat
from games.engine.cards import BY_NAME
from games.engine.errors import RulingNotAllowed
from games.engine.match import snapshot
from games.models import DealScore, Match, MatchEvent

T = MatchEvent.Type


def hands_of(payload_hands: Mapping[str, list[str]]) -> list[list[int]]:
    return [[BY_NAME[c] for c in payload_hands[s.name]] for s in Seat]


def start_state(ruleset: Mapping[str, Any], first_dealer: str) -> MatchState:
    """A match's state before its first deal: the pinned ruleset (``name``, ``version``, ``options``)."""
    return MatchState.start(
        Ruleset.from_options(ruleset["options"], name=ruleset["name"], version=ruleset["version"]),
        Seat[first_dealer],
    )


def apply(state: MatchState | None, event: Event, secrets: Mapping[int, Any] | None = None) -> MatchState | None:
    """The state after one event: the one step that commands, rebuilds, the audit, the viewer and
    the webhooks share. ``secrets`` supplies server-dealt hands by deal number (kept off the log
    until revealed) for a ``deal_started`` that carries only its commitment."""
    match event:
        case MatchCreated():
            return start_state(event.ruleset, event.first_dealer)
        case DealStarted():
            return state.start_deal(hands_of(event.hands if event.hands is not None else secrets[event.number]))
        case LeadOffered():
            return state.offer_lead(event.buyer, event.price)
        case LeadSold():
            return state.decide_lead(event.offer_index)
        case LeadKept():
            return state.decide_lead(None)
        case CardPlayed():
            return state.play(BY_NAME[event.card], seat=Seat[event.seat])
        case DealCorrected():  # before DealTallied: its subclass
            return apply_correction(state, event)
        case DealTallied():
            return apply_tally(state, event)
        case RulingRecorded():
            return apply_ruling(state, event)
    return state  # hands_revealed, match_abandoned, result_confirmed, match_withdrawn/_reinstated: no rule


def with_plays(snapshot: Mapping[str, Any], state: MatchState) -> dict[str, Any]:
    """A stored ``snapshot`` after cards played in a deal that goes on: the deal's plays from
    ``state``, nothing else changed — what a card play writes (``commands._plays_projected``) and
    what a process catching up from another's plays rebuilds (``states.kept_match``)."""
    return {**snapshot, "deal": {**snapshot["deal"], "plays": list(state.deal.plays)}}


def apply_tally(state: MatchState, event: DealTallied) -> MatchState:
    """A deal filed from a paper sheet (R31–R33) through the engine, which checks it again: its
    ``tally`` or ``points``, and the lead ``sale`` of a compensating odgrywka."""
    sale = event.sale
    return state.file_deal(
        tally=event.tally, points=event.points, sale=None if sale is None else (sale.buyer, sale.price)
    )


def apply_correction(state: MatchState, event: DealCorrected) -> MatchState:
    """The latest filed deal filed again in its place (issue 23, item 3): the engine replays it
    (``correct_last_deal``: only that deal, before the next one starts; R7 for its compensations)."""
    sale = event.sale
    return state.correct_last_deal(
        tally=event.tally, points=event.points, sale=None if sale is None else (sale.buyer, sale.price)
    )


# The ruling types of a ``ruling_recorded`` event (games/write/disputes.py decides them).
NO_CHANGE, DEAL_VOIDED, SCORE_ADJUSTED = "no_change", "deal_voided", "score_adjusted"
RULING_TYPES = (NO_CHANGE, DEAL_VOIDED, SCORE_ADJUSTED)


def apply_ruling(state: MatchState, event: RulingRecorded) -> MatchState:
    """A ruling through the engine: ``deal_voided`` voids the latest finished deal (which must be
    the one named), ``score_adjusted`` sets the deal's points, ``no_change`` changes nothing."""
    ruling, number = event.ruling, event.deal
    if ruling == DEAL_VOIDED:
        if not state.results or state.results[-1].number != number:
            raise RulingNotAllowed(
                detail=gettext_noop("deal %(number)s is not the latest finished deal: only that one can be voided"),
                number=number,
            )
        return state.void_last_deal()
    if ruling == SCORE_ADJUSTED:
        return state.adjust_deal(number, [event.points[s.name] for s in Seat])
    if ruling == NO_CHANGE:
        return state
    raise ValueError(f"unknown ruling {ruling!r}")


def fold(rows: Iterable[Any], secrets: Mapping[int, Any]) -> MatchState | None:
    """Replay a match's events through ``apply``: typed events, or stored rows (``MatchEvent``, or
    anything with ``type`` and ``payload``). Raises RuleViolation if one is illegal; TypeError,
    KeyError or ValueError if one cannot be read."""
    state = None
    for row in rows:
        state = apply(state, row if isinstance(row, Event) else of_row(row), secrets)
    return state


def next_deal_of(state: MatchState) -> dict[str, Any] | None:
    """The deal due next, as the summary and the state at any point show it."""
    due = state.next_deal
    if due is None:
        return None
    return {
        "number": due.number,
        "kind": due.kind.value,
        "dealer": due.dealer.name,
        "leader": due.leader.name,
        "compensating": due.compensating,
    }


def standing_offer(seq: int, event: LeadOffered) -> dict[str, Any]:
    """A standing lead offer as the state views show it: the seq of its ``lead_offered`` event
    (what a lead decision names), the buyer and the price."""
    return {"seq": seq, "buyer": event.buyer, "price": event.price}


def summary_of(state: MatchState, match: Match, rulings: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The replay summary of RECORD_FORMAT.md plus the next deal due, the match status and the
    arbiters' rulings (``rulings_of``; a ruled deal's entry also says ``voided`` or
    ``adjusted_points`` beside its played ``points``, and ``totals`` count what was ruled)."""
    summary = state.summary()
    summary["rulings"] = rulings or []
    summary["next_deal"] = next_deal_of(state) if match.status == Match.Status.IN_PROGRESS else None
    summary["status"] = match.status
    return summary


def snapshot_of(state: MatchState, results: list | None = None) -> dict[str, Any]:
    return snapshot(state, results)


def deal_score_rows(
    match: Match, state: MatchState, first_number: int, last_number: int | None = None
) -> list[DealScore]:
    """The per-player rows of every finished deal numbered ``first_number`` to ``last_number``
    (default: the last). Rulings count: a voided deal has no rows, an adjusted deal's ``points``
    are the arbiter's (its tricks and kreski stay as played)."""
    players = match.seat_player_ids()
    return [
        DealScore(
            match=match,
            number=r.number,
            seat=seat.name,
            player_id=players[seat],
            kind=r.kind.value,
            compensating=r.compensating,
            multiplier=r.multiplier,
            tricks=r.known_tricks[seat],
            points=r.counted_points[seat],
            kreski=r.kreski[seat],
        )
        for r in state.results[first_number - 1 : last_number]
        if not r.voided
        for seat in Seat
    ]


def rulings_of(events: Iterable[MatchEvent], earlier: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The summary's ``rulings``: ``earlier`` (a stored summary's) and those among ``events``, in
    log order, each its payload with ``seq``, ``time`` and ``superseded_by`` (the seq of the next
    ruling on the same dispute, which replaced it; None for the ruling in force)."""
    rulings = [dict(r) for r in earlier or []]
    for event in events:
        if event.type == T.RULING_RECORDED:
            ruling = of_row(event).fields()
            rulings.append({**ruling, "seq": event.seq, "time": timestamp(event.created_at), "superseded_by": None})
    previous: dict[Any, dict[str, Any]] = {}
    for ruling in rulings:
        ruling["superseded_by"] = None
        if ruling.get("dispute") in previous:
            previous[ruling.get("dispute")]["superseded_by"] = ruling["seq"]
        previous[ruling.get("dispute")] = ruling
    return rulings


SIGN_OFF_TYPES = (T.RESULT_CONFIRMED, T.MATCH_WITHDRAWN, T.MATCH_REINSTATED)


def sign_offs_of(events: Iterable[MatchEvent], earlier: dict[str, Any] | None = None) -> dict[str, Any]:
    """The summary's ``confirmations`` (each ``result_confirmed``: ``seat``, ``by``, ``result``,
    ``seq``, ``time``) and ``withdrawal`` (the ``match_withdrawn`` in force: ``reason``, ``by``,
    ``seq``, ``time``; None once reinstated), from ``earlier`` (a stored summary) and ``events``.
    They change no game state: the fold passes them by.

    A signature stored before signatures named their result signed the result in force then: one
    in ``earlier`` gets ``earlier``'s result; one among ``events`` followed by an event that may
    change the result (a deal's, a ruling other than ``no_change``) gets ``SUPERSEDED``; the
    others sign the current result (``confirmation.signed_now``)."""
    earlier = earlier or {}
    confirmations = [dict(c) for c in earlier.get("confirmations") or []]
    if any("result" not in c for c in confirmations):  # digested only then: most rewrites end a deal
        signed_before = confirmation.result_of(earlier)
        confirmations = [{"result": signed_before, **c} for c in confirmations]
    withdrawal = earlier.get("withdrawal")
    for event in events:
        if event.type not in SIGN_OFF_TYPES:
            if _may_change_the_result(event):
                confirmations = [{"result": confirmation.SUPERSEDED, **c} for c in confirmations]
            continue
        mark = {**of_row(event).fields(), "seq": event.seq, "time": timestamp(event.created_at)}
        if event.type == T.RESULT_CONFIRMED:
            confirmations.append(mark)
        else:
            withdrawal = mark if event.type == T.MATCH_WITHDRAWN else None
    return {"confirmations": confirmations, "withdrawal": withdrawal}


# The events that never change a finished result: a dispute's other events are not in the log.
RESULT_KEEPING_TYPES = (*SIGN_OFF_TYPES, T.HANDS_REVEALED, T.MATCH_ABANDONED)


def _may_change_the_result(event: MatchEvent) -> bool:
    if event.type == T.RULING_RECORDED:
        return (event.payload or {}).get("ruling") != NO_CHANGE
    return event.type not in RESULT_KEEPING_TYPES
