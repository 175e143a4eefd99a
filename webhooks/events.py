"""The webhook events and their ``data``, derived from the match events a command appended.

Plain functions over plain values (the events, the stored summary): which deals a batch of
events finished, whether it finished or abandoned the match, which rulings it recorded.
``may_matter`` decides from its arguments alone, with no query: ``events_appended`` runs on
every card play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.domain.event_types import (
    CardPlayed,
    DealStarted,
    DealTallied,
    Event,
    HandsRevealed,
    MatchAbandoned,
    MatchReinstated,
    MatchWithdrawn,
    ResultConfirmed,
    RulingRecorded,
    of_row,
)
from games.models import Match, MatchEvent

T = MatchEvent.Type

MATCH_FINISHED = "match.finished"
MATCH_ABANDONED = "match.abandoned"
DEAL_FINISHED = "deal.finished"
RULING_RECORDED = "ruling.recorded"
STANDINGS_UPDATED = "standings.updated"
MATCH_WITHDRAWN = "match.withdrawn"  # the log's match_withdrawn: an arbiter withdrew the match
MATCH_REINSTATED = "match.reinstated"  # the log's match_reinstated: ... and took it back
RESULT_CONFIRMED = "result.confirmed"  # the log's result_confirmed: a seated player signed the sheet
PING = "ping"  # sent on request (POST /webhooks/{id}/ping/), whatever the endpoint subscribed to

EVENT_TYPES = (
    MATCH_FINISHED,
    MATCH_ABANDONED,
    DEAL_FINISHED,
    RULING_RECORDED,
    STANDINGS_UPDATED,
    MATCH_WITHDRAWN,
    MATCH_REINSTATED,
    RESULT_CONFIRMED,
)
MATCH_EVENT_TYPES = frozenset(EVENT_TYPES) - {STANDINGS_UPDATED}
SEATS = ("N", "E", "S", "W")

# A deal filed from the paper sheet (R31–R33) is finished as soon as it is filed.
# A withdrawal, a reinstatement and a confirmation are announced as they are (issue 29, item 2).
_TELLING = frozenset(
    {
        T.HANDS_REVEALED,
        T.MATCH_ABANDONED,
        T.RULING_RECORDED,
        T.DEAL_TALLIED,
        T.DEAL_CORRECTED,  # deal.finished again, with the corrected points (a DealTallied subclass)
        T.MATCH_WITHDRAWN,
        T.MATCH_REINSTATED,
        T.RESULT_CONFIRMED,
    }
)


def may_matter(match: Match, events: list[MatchEvent], projection=None) -> bool:
    """Whether ``events`` can announce anything (a deal or the match ended, a ruling), decided
    without touching the database. A server-dealt deal ends with ``hands_revealed``, a filed one
    with its ``deal_tallied``; a recorded one on the card after which the projection the command
    left (``projection``, else the match's cached one) holds no deal in play."""
    if match.status != Match.Status.IN_PROGRESS or any(e.type in _TELLING for e in events):
        return True
    if match.dealing != Match.Dealing.RECORDED or not any(e.type == T.CARD_PLAYED for e in events):
        return False
    if projection is None and not Match.projection.is_cached(match):
        return True  # cannot tell for free: let the caller look
    return (projection or match.projection).snapshot.get("deal") is None


def announcements(
    *, status: str, dealing: str, events: Iterable[MatchEvent], summary: dict[str, Any], deal_in_play: bool
) -> list[tuple[str, dict[str, Any]]]:
    """The webhook events a batch of match events makes, in order, each ``(type, data)`` with the
    data that depends on the batch (the caller adds the match, its season and players)."""
    events = [of_row(e) for e in events]
    found = [
        (DEAL_FINISHED, deal_data(summary, number)) for number in ended_deals(dealing, events, summary, deal_in_play)
    ]
    found += [(RULING_RECORDED, ruling_data(e, summary, status)) for e in events if isinstance(e, RulingRecorded)]
    if status == Match.Status.FINISHED and any(isinstance(e, CardPlayed | DealTallied) for e in events):
        found.append((MATCH_FINISHED, result_data(summary)))  # the last card, or the last deal filed
    for event in events:
        if isinstance(event, MatchAbandoned):
            found.append((MATCH_ABANDONED, {**result_data(summary), "reason": event.reason}))
        found += arbiter_and_signing(event, summary)
    return found


def arbiter_and_signing(event: Event, summary: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``match.withdrawn`` / ``match.reinstated`` (by an arbiter, with the reason) and
    ``result.confirmed`` (a seated player signs the result whose digest is ``result``)."""
    if isinstance(event, MatchWithdrawn | MatchReinstated):
        kind = MATCH_WITHDRAWN if isinstance(event, MatchWithdrawn) else MATCH_REINSTATED
        return [(kind, {"reason": event.reason, "by": event.by, "totals": summary["totals"]})]
    if isinstance(event, ResultConfirmed):
        return [(RESULT_CONFIRMED, {"seat": event.seat, "by": event.by, "result": event.result})]
    return []


def ended_deals(dealing: str, events: list[Event], summary: dict[str, Any], deal_in_play: bool) -> list[int]:
    """The numbers of the deals ``events`` (typed) finished."""
    revealed = [e.number for e in events if isinstance(e, HandsRevealed)]
    tallied = [e.number for e in events if isinstance(e, DealTallied)]  # filed whole: finished at once
    if dealing == Match.Dealing.SERVER or not any(isinstance(e, CardPlayed) for e in events):
        return sorted(revealed + tallied)
    started = [e.number for e in events if isinstance(e, DealStarted)]
    done = {deal["number"] for deal in summary["deals"]}
    if started:  # a record filed at once: every deal it holds that finished
        return [number for number in sorted(started + tallied) if number in done]
    return [summary["deals"][-1]["number"]] if summary["deals"] and not deal_in_play else []


def counted(deal: dict[str, Any]) -> dict[str, int]:
    """A finished deal's points as they count: none if voided, the arbiter's if adjusted."""
    if deal.get("voided"):
        return dict.fromkeys(SEATS, 0)
    return deal.get("adjusted_points") or deal["points"]


def totals_through(summary: dict[str, Any], index: int) -> dict[str, int]:
    """The match totals after the summary's deal ``index`` (0-based)."""
    totals = dict.fromkeys(SEATS, 0)
    for deal in summary["deals"][: index + 1]:
        for seat, points in counted(deal).items():
            totals[seat] += points
    return totals


def deal_data(summary: dict[str, Any], number: int) -> dict[str, Any]:
    index = max(i for i, deal in enumerate(summary["deals"]) if deal["number"] == number)
    deal = summary["deals"][index]
    return {
        "deal": number,
        "kind": deal["kind"],
        "compensating": deal["compensating"],
        "multiplier": deal["multiplier"],
        "tricks": deal["tricks"],
        "points": counted(deal),
        "kreski": deal["kreski"],
        "totals": totals_through(summary, index),
    }


def result_data(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "deals": sum(not deal.get("voided") for deal in summary["deals"]),
        "totals": summary["totals"],
        "winners": summary["winners"],
    }


def ruling_data(event: RulingRecorded, summary: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "dispute": event.dispute,
        "ruling": event.ruling,
        "deal": event.deal,
        "points": event.points,
        "reason": event.reason,
        "arbiter": event.arbiter,
        "status": status,
        "totals": summary["totals"],
    }
