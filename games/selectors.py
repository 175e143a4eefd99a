"""Read side: who a user is to a match, and what that viewer may see of it.

Writes live in ``services.py``; these functions only read (the read models, and the event
log where the read models do not suffice). Hidden information is decided here and nowhere
else: the API serialises what these functions return.

Viewer roles (``viewer_role``), first match wins:

- ``scorer``: the match's scorer (records a physical table, may act for every seat);
- ``player``: seated in the match (acts for his own seat only);
- ``staff``: a Django staff user (an arbiter: reads everything, acts for nobody);
- ``other``: anyone else, anonymous included — may not even learn that the match exists.

Scorers and staff see every hand. A player sees his own hand; the other hands of the deal in
play stay hidden from him everywhere (state, events, record) until the deal ends.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Iterable

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from games.engine import Seat
from games.engine.cards import BY_NAME
from games.engine.errors import RuleViolation
from games.engine.match import restore
from games.engine.record import FORMAT, SaleRecord, encode_deal
from games.engine.seats import by_seat

from .events import timestamp
from .exceptions import NotFound
from .models import DealSecret, Match, MatchEvent, MatchProjection
from .services import CommandResult, is_scorer, seat_of

T = MatchEvent.Type

SCORERS_GROUP = "scorers"  # members may file (import) match records, as staff may


# --- who is looking --------------------------------------------------------------------------

@dataclass(frozen=True)
class Viewer:
    role: str  # "scorer" | "player" | "staff" | "other"
    seat: Seat | None = None  # the viewer's own seat, when seated

    SCORER, PLAYER, STAFF, OTHER = "scorer", "player", "staff", "other"

    @property
    def may_read(self) -> bool:
        return self.role != self.OTHER

    @property
    def sees_all_hands(self) -> bool:
        return self.role in (self.SCORER, self.STAFF)


def viewer_role(match: Match, user) -> Viewer:
    """What ``user`` is to ``match`` (see the module docstring for the order)."""
    if user is None or not user.is_authenticated:
        return Viewer(Viewer.OTHER)
    seat = seat_of(match, user)
    if is_scorer(match, user):
        return Viewer(Viewer.SCORER, seat)
    if seat is not None:
        return Viewer(Viewer.PLAYER, seat)
    if user.is_staff:
        return Viewer(Viewer.STAFF)
    return Viewer(Viewer.OTHER)


def user_may_import(user) -> bool:
    """Filing a record: staff, or a member of the ``scorers`` group."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or user.groups.filter(name=SCORERS_GROUP).exists()


# --- matches ---------------------------------------------------------------------------------

_DETAIL = ("north", "east", "south", "west", "scorer", "projection")


def match_list(*, user) -> QuerySet[Match]:
    """The matches ``user`` may read: his own (seated or scoring); every match for staff."""
    matches = Match.objects.select_related(*_DETAIL)
    if user.is_staff:
        return matches
    return matches.filter(Q(scorer=user) | Q(north__user=user) | Q(east__user=user)
                          | Q(south__user=user) | Q(west__user=user))


def match_get(*, match_id: Any, user, detail: bool = True) -> tuple[Match, Viewer]:
    """The match and what ``user`` is to it; ``NotFound`` alike for a missing match and for one
    the user may not read (its existence is not revealed). ``detail=False`` loads only the row."""
    try:
        pk = uuid.UUID(str(match_id))
    except ValueError:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id}) from None
    matches = Match.objects.select_related(*_DETAIL) if detail else Match.objects.all()
    match = matches.filter(pk=pk).first()
    viewer = viewer_role(match, user) if match is not None else Viewer(Viewer.OTHER)
    if not viewer.may_read:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id})
    return match, viewer


def match_load(match_id: Any) -> Match:
    """A match with what ``match_detail`` reads, no questions asked (for the code that just made it)."""
    return Match.objects.select_related(*_DETAIL).get(pk=match_id)


def match_detail(match: Match) -> dict[str, Any]:
    """Status, seats, ruleset and the replay summary (RECORD_FORMAT.md) with the next deal due.
    Everything here is public to anyone who may read the match."""
    summary = match.projection.summary
    return {
        "id": match.id,
        "status": match.status,
        "version": match.version,
        "dealing": match.dealing,
        "first_dealer": match.first_dealer,
        "seats": {seat.name: player.username for seat, player in zip(Seat, match.seat_players())},
        "scorer": match.scorer.get_username() if match.scorer_id else None,
        "ruleset": {"name": match.ruleset_name, "version": match.ruleset_version,
                    "options": match.ruleset_options},
        "created_at": match.created_at,
        "complete": summary["complete"],
        "deals": summary["deals"],
        "totals": summary["totals"],
        "winners": summary["winners"],
        "next_deal": summary.get("next_deal"),
        "rulings": summary.get("rulings", []),
    }


def import_summary(match: Match) -> dict[str, Any]:
    projection = MatchProjection.objects.get(pk=match.pk)
    return {"id": match.id, "version": match.version, "summary": projection.summary}


# --- the deal in play, as the viewer sees it ----------------------------------------------------

def match_state(*, match: Match, viewer: Viewer) -> dict[str, Any]:
    projection = match.projection
    state = restore(projection.snapshot)
    deal = state.deal
    state_view: dict[str, Any] = {
        "match": match.id,
        "version": match.version,
        "status": match.status,
        "role": viewer.role,
        "seat": viewer.seat.name if viewer.seat is not None else None,
        "complete": state.complete,
        "totals": by_seat(state.totals),
        "next_deal": projection.summary.get("next_deal"),
        "deal": None,
    }
    if deal is None:
        return state_view
    to_play = deal.to_play
    if viewer.sees_all_hands:
        legal_seat = to_play
    else:
        legal_seat = viewer.seat if viewer.seat == to_play else None
    completed = deal.completed_tricks()
    last = completed[-1] if completed else None
    state_view["deal"] = {
        "number": deal.spec.number,
        "kind": deal.kind.value,
        "dealer": deal.spec.dealer.name,
        "leader": deal.leader.name,
        "compensating": deal.spec.compensating,
        "hand": _names(deal.hand(viewer.seat)) if viewer.seat is not None else None,
        "hands": {s.name: _names(deal.hand(s)) for s in Seat} if viewer.sees_all_hands else None,
        "trick": [{"seat": s.name, "card": str(c)} for s, c in deal.current_trick()],
        "last_trick": None if last is None else {
            "winner": last[0].name, "cards": [{"seat": s.name, "card": str(c)} for s, c in last[1]]},
        "tricks": by_seat(deal.tricks),
        "tricks_completed": len(deal.winners),
        "plays": len(deal.plays),
        "to_play": to_play.name if to_play is not None else None,
        "legal_cards": _names(deal.legal_cards(legal_seat)) if legal_seat is not None else [],
        "lead_sale": {
            "can_sell": deal.can_sell_lead,
            "holder": deal.holder.name,
            "decided": deal.decided,
            "offers": _standing_offers(match, deal) if deal.offers else [],
            "sale": None if deal.sale is None else {"buyer": deal.sale[0].name, "price": deal.sale[1]},
        },
    }
    return state_view


def _names(cards: Iterable) -> list[str]:
    return [str(c) for c in cards]


def _standing_offers(match: Match, deal) -> list[dict[str, Any]]:
    """The deal's offers with the seq of their ``lead_offered`` event (what lead-decision takes)."""
    dealt_at = _last_deal_started_seq(match)
    rows = (MatchEvent.objects.filter(match=match, type=T.LEAD_OFFERED, seq__gt=dealt_at or 0)
            .order_by("seq").values_list("seq", "payload"))
    return [{"seq": seq, "buyer": payload["buyer"], "price": payload["price"]} for seq, payload in rows]


def _last_deal_started_seq(match: Match) -> int | None:
    return (MatchEvent.objects.filter(match=match, type=T.DEAL_STARTED).order_by("-seq")
            .values_list("seq", flat=True).first())


def _deal_in_play(snapshot: dict[str, Any]) -> int | None:
    """The number of the deal in play according to a projection snapshot, if one is."""
    return snapshot["played"] + 1 if snapshot.get("deal") is not None else None


# --- events --------------------------------------------------------------------------------------

def match_events(*, match: Match, viewer: Viewer, after: int = 0, limit: int = 1000) -> dict[str, Any]:
    """The events after ``seq`` ``after`` (at most ``limit``), redacted for ``viewer``. None past
    ``match.version``: the redaction is decided from the projection read with the match, so an
    event appended since (a recorded deal's hands) must wait for the next read."""
    rows = (MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=match.version).order_by("seq")
            .values("seq", "type", "payload", "actor_name", "actor__username", "created_at", "hash")[:limit])
    events = [_event_dict(r["seq"], r["type"], r["payload"], _actor(r["actor_name"], r["actor__username"]),
                          r["created_at"], r["hash"]) for r in rows]
    hidden_from = _hidden_from(match, viewer, _deal_in_play(match.projection.snapshot))
    return {"version": match.version, "after": after, "events": _redact(events, viewer, hidden_from)}


def command_events(result: CommandResult, viewer: Viewer) -> dict[str, Any]:
    """What a command appended, as its actor may see it (the response to a POST)."""
    match = result.match
    events = [_event_dict(e.seq, e.type, e.payload,
                          _actor(e.actor_name, e.actor.get_username() if e.actor is not None else None),
                          e.created_at, e.hash) for e in result.events]
    in_play = _deal_in_play(match.projection.snapshot) if hasattr(match, "projection") else None
    hidden_from = None
    if in_play is not None and _must_redact(match, viewer):
        hidden_from = 0  # every event of a command belongs to the deal in play
    return {"version": match.version, "status": match.status, "events": _redact(events, viewer, hidden_from)}


def _actor(hashed: str | None, current: str | None) -> str | None:
    """The actor's name as the hash chain has it (a later rename changes nothing)."""
    return hashed if hashed is not None else current


def _event_dict(seq, type, payload, actor, created_at, hash) -> dict[str, Any]:
    """An event as the API shows it: ``actor`` and ``created_at`` exactly as hashed, so that
    anyone may recompute the chain (README) from the events endpoint."""
    return {"seq": seq, "type": type, "payload": payload, "actor": actor, "created_at": timestamp(created_at),
            "hash": hash, "redacted": False}


def _must_redact(match: Match, viewer: Viewer) -> bool:
    """Only recorded deals put hands in the log (server-dealt ones publish a salted commitment)."""
    return not viewer.sees_all_hands and match.dealing == Match.Dealing.RECORDED


def _hidden_from(match: Match, viewer: Viewer, in_play: int | None) -> int | None:
    """The seq from which events must be redacted for ``viewer``: the recorded deal in play's
    ``deal_started``. None when nothing is hidden."""
    if in_play is None or not _must_redact(match, viewer):
        return None
    return _last_deal_started_seq(match)


def _redact(events: list[dict[str, Any]], viewer: Viewer, hidden_from: int | None) -> list[dict[str, Any]]:
    """While a recorded deal is in play a player sees only his own hand in its ``deal_started``,
    and no ``hash`` from that event on: the hash covers the hidden hands, and once some cards
    are out the remaining deals are few enough to find by trying them against it."""
    if hidden_from is None:
        return events
    for event in events:
        if event["seq"] < hidden_from:
            continue
        if event["type"] == T.DEAL_STARTED and "hands" in event["payload"]:
            payload = dict(event["payload"])
            own = viewer.seat.name if viewer.seat is not None else None
            payload["hands"] = {own: payload["hands"][own]} if own is not None else {}
            event["payload"] = payload
        event["hash"] = None
        event["redacted"] = True
    return events


# --- the record ----------------------------------------------------------------------------------

def match_record(*, match: Match, viewer: Viewer) -> dict[str, Any]:
    """The ``kierki-match/1`` record built from the events: every finished deal; the deal in play
    too for scorers and staff (a player gets it once it ends)."""
    deals: list[dict[str, Any]] = []
    by_number: dict[int, dict[str, Any]] = {}
    created: dict[str, Any] = {}
    for type, payload in MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", "payload"):
        if type == T.MATCH_CREATED:
            created = payload
        elif type == T.DEAL_STARTED:
            deal = {"number": payload["number"], "hands": payload.get("hands"), "sale": None, "plays": []}
            deals.append(deal)
            by_number[deal["number"]] = deal
        elif type == T.LEAD_SOLD:
            deals[-1]["sale"] = SaleRecord(payload["buyer"], payload["price"])
        elif type == T.CARD_PLAYED:
            deals[-1]["plays"].append(BY_NAME[payload["card"]])
        elif type == T.HANDS_REVEALED:
            by_number[payload["number"]]["hands"] = payload["hands"]
    shown = []
    for deal in deals:
        finished = len(deal["plays"]) == 52
        if not finished and not viewer.sees_all_hands:
            continue
        hands = deal["hands"]
        if hands is None:  # server-dealt and still in play: only scorers and staff get here
            secret = DealSecret.objects.filter(match=match, number=deal["number"]).first()
            if secret is None:
                continue
            hands = secret.hands
        shown.append(encode_deal([[BY_NAME[c] for c in hands[s.name]] for s in Seat], deal["plays"], deal["sale"]))
    ruleset = created.get("ruleset") or {"name": match.ruleset_name, "options": match.ruleset_options}
    return {
        "format": FORMAT,
        "ruleset": {"name": ruleset["name"], "options": ruleset.get("options") or {}},
        "players": created.get("seats") or {s.name: p.username for s, p in zip(Seat, match.seat_players())},
        "first_dealer": match.first_dealer,
        "deals": shown,
    }


# --- where a live command broke a rule -----------------------------------------------------------

def locate_violation(violation: RuleViolation, *, match_id: Any, command: str) -> RuleViolation:
    """Fill ``deal`` (1-based) and ``play_index`` (0-based, plays only) of a violation raised by a
    live command, from the match as it stands (the command stored nothing)."""
    snapshot = MatchProjection.objects.filter(pk=match_id).values_list("snapshot", flat=True).first()
    if snapshot is None:
        return violation
    in_play = _deal_in_play(snapshot)
    if command == "deal":
        return violation.located(deal=snapshot["played"] + 1)
    if in_play is None:
        return violation
    if command == "play":
        return violation.located(deal=in_play, play_index=len(snapshot["deal"]["plays"]))
    return violation.located(deal=in_play)
