"""Reads for arbiters: the audit of a match and its state at any point of its log (time travel).

Who may look is ``roles.role_of``'s, as for every read (a seated user is a player there,
whatever else he is):

- **arbiters** (staff, and the arbiters and admins of the match's club, none of them seated
  or scoring): the audit, and the state after any event;
- the match's **scorer**: the state after any event (he sees every hand live anyway), not the
  audit;
- its seated **players**: the audit once the match has ended (finished or abandoned); the
  state after an event only where it hides nothing still hidden now: between deals, or inside
  a deal that has finished since (up to and including the event that completed it and its
  ``hands_revealed``). A point inside a deal still in play, or in a deal an abandonment cut
  short, is 403;
- anyone else: 404, as for every match they may not read.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext

from games.domain import projections
from games.domain.chain import timestamp
from games.domain.event_types import of_row
from games.domain.exceptions import InvalidInput, NotAllowed, NotFound, RuleBroken
from games.domain.roles import Role, role_of
from games.engine import MatchState, Seat
from games.engine.errors import RuleViolation
from games.models import Match, MatchEvent, MatchProjection
from games.read import audit
from games.read.selectors import deal_progress

T = MatchEvent.Type
ENDED = (Match.Status.FINISHED, Match.Status.ABANDONED)


Inspector = Role  # what the functions below take: the user's role in the match


def inspector(match: Match, user) -> Inspector:
    """What ``user`` is to ``match`` here; NotFound for anyone who may not read it."""
    role = role_of(match, user)
    if not role.may_read:
        raise NotFound(gettext("no match %(id)s") % {"id": match.pk})
    return role


def match_for_inspection(*, match_id: Any, user) -> tuple[Match, Inspector]:
    try:
        match = Match.objects.filter(pk=uuid.UUID(str(match_id))).first()
    except ValueError:
        match = None
    if match is None:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id})
    return match, inspector(match, user)


# --- the audit ---------------------------------------------------------------------------------------


def match_audit(*, match: Match, who: Inspector) -> dict[str, Any]:
    if who.kind == Role.SCORER or (who.kind == Role.PLAYER and match.status not in ENDED):
        raise NotAllowed(
            gettext(
                "the audit is for the club's arbiters and staff, and for the seated players once the match has ended"
            )
        )
    return audit.audit_report(match)


# --- time travel -------------------------------------------------------------------------------------


def match_state_at(*, match: Match, who: Inspector, seq: Any) -> dict[str, Any]:
    """The state right after event ``seq``, with every hand as it stood then."""
    state, prefix = match_fold_at(match=match, seq=seq)
    deal = state.deal
    if who.kind == Role.PLAYER and deal is not None and not deal_finished_since(match, deal.spec.number):
        raise NotAllowed(
            gettext(
                "deal %(number)s was in play after event %(seq)s and has not finished: players see "
                "a point inside a deal only once it is over"
            )
            % {"number": deal.spec.number, "seq": seq}
        )
    event = prefix[-1]
    summary = state.summary()
    return {
        "match": match.pk,
        "at": seq,
        "version": match.version,
        "role": who.role,
        "seat": who.seat.name if who.seat is not None else None,
        "event": {
            "seq": event.seq,
            "type": event.type,
            "actor": event.actor_name,
            "created_at": timestamp(event.created_at),
            "payload": event.payload,
            "hash": event.hash,
        },
        "complete": summary["complete"],
        "totals": summary["totals"],
        "deals": summary["deals"],
        "next_deal": projections.next_deal_of(state),
        "deal": None if deal is None else _deal_view(deal, prefix),
    }


def match_fold_at(*, match: Match, seq: Any) -> tuple[MatchState, list[MatchEvent]]:
    """The engine's state right after event ``seq`` (every hand as it stood), and the events up to it."""
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= match.version:
        raise InvalidInput(
            gettext("at must be the seq of one of the match's events (1 to %(version)s)") % {"version": match.version},
            field="at",
        )
    rows = list(match.events.order_by("seq"))
    prefix = [row for row in rows if row.seq <= seq]
    try:
        return projections.fold(prefix, audit.hands_by_deal(match, rows)), prefix
    except RuleViolation as violation:
        raise RuleBroken(violation) from None


def deal_finished_since(match: Match, number: int) -> bool:
    """Deal ``number`` has finished by now (its hands are no longer hidden from anyone)."""
    summary = MatchProjection.objects.filter(pk=match.pk).values_list("summary", flat=True).first() or {}
    return number <= len(summary.get("deals", []))


def _deal_view(deal, prefix: list[MatchEvent]) -> dict[str, Any]:
    to_play = deal.to_play
    return {
        "number": deal.spec.number,
        "kind": deal.kind.value,
        "dealer": deal.spec.dealer.name,
        "leader": deal.leader.name,
        "compensating": deal.spec.compensating,
        "hands": {s.name: _names(deal.hand(s)) for s in Seat},
        "dealt": {s.name: _names(deal.hand_dealt(s)) for s in Seat},
        **deal_progress(deal),
        "to_play": to_play.name if to_play is not None else None,
        "legal_cards": _names(deal.legal_cards(to_play)) if to_play is not None else [],
        "lead_sale": {
            "can_sell": deal.can_sell_lead,
            "holder": deal.holder.name,
            "decided": deal.decided,
            "offers": _offers(prefix, len(deal.offers)),
            "sale": None if deal.sale is None else {"buyer": deal.sale[0].name, "price": deal.sale[1]},
        },
    }


def _offers(prefix: list[MatchEvent], standing: int) -> list[dict[str, Any]]:
    """The ``standing`` offers of the deal in play at the end of ``prefix`` with their seq: the
    latest lead_offered events (some may precede its deal_started: R28 before the deal)."""
    offered = [row for row in prefix if row.type == T.LEAD_OFFERED][-standing:] if standing else []
    return [projections.standing_offer(row.seq, of_row(row)) for row in offered]


def _names(cards) -> list[str]:
    return [str(c) for c in cards]
