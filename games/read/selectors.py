"""Read side: who a user is to a match, and what that viewer may see of it.

Writes go through ``commands.run`` (``services.py`` decides them); these functions only read
(the read models, and the event log where the read models do not suffice). Hidden information
is decided here and nowhere else: the API serialises what these functions return.

Who a viewer is to a match is ``roles.role_of``'s (``Viewer`` is its ``roles.Role``): a seated
user is a player there whatever else he is; the scorer and the arbiters (staff, the club's
arbiters and admins) see every hand. A player sees his own hand; the other hands of the deal in
play stay hidden from him everywhere (state, events, record) until the deal ends.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext

from games.domain import confirmation
from games.domain.chain import timestamp
from games.domain.event_types import (
    CardPlayed,
    DealCorrected,
    DealStarted,
    DealTallied,
    HandsRevealed,
    LeadSold,
    MatchCreated,
    parse,
)
from games.domain.exceptions import NotFound
from games.domain.projections import standing_offer
from games.domain.roles import Role, arbitrated_matches, role_of
from games.engine import Seat
from games.engine.cards import BY_NAME
from games.engine.match import MatchState, restore
from games.engine.record import FORMAT, SaleRecord, encode_deal, encode_filed_deal
from games.engine.seats import by_seat
from games.models import DealSecret, Match, MatchEvent, MatchProjection
from games.write.results import CommandResult

T = MatchEvent.Type

SCORERS_GROUP = "scorers"  # members may file (import) match records, as staff may


# --- who is looking --------------------------------------------------------------------------

Viewer = Role  # what the read functions below take: the user's role in the match


def user_may_import(user) -> bool:
    """Filing a record: staff, or a member of the ``scorers`` group."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or user.groups.filter(name=SCORERS_GROUP).exists()


# --- matches ---------------------------------------------------------------------------------

_DETAIL = ("north", "east", "south", "west", "scorer", "created_by", "projection")


def match_list(*, user) -> QuerySet[Match]:
    """The matches ``user`` may read (``roles.role_of``): his own (seated or scoring) and those
    he arbitrates — every match for staff, his clubs' season matches for their arbiters and admins."""
    matches = _with_season(Match.objects.select_related(*_DETAIL))
    if user.is_staff:
        return matches
    return matches.filter(
        Q(scorer=user)
        | Q(north__user=user)
        | Q(east__user=user)
        | Q(south__user=user)
        | Q(west__user=user)
        | arbitrated_matches(user)
    )


def match_get(*, match_id: Any, user, detail: bool = True) -> tuple[Match, Viewer]:
    """The match and what ``user`` is to it; ``NotFound`` alike for a missing match and for one
    the user may not read (its existence is not revealed). ``detail=False`` loads only the row."""
    try:
        pk = uuid.UUID(str(match_id))
    except ValueError:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id}) from None
    matches = _with_season(Match.objects.select_related(*_DETAIL)) if detail else Match.objects.all()
    match = matches.filter(pk=pk).first()
    viewer = role_of(match, user) if match is not None else Role(Role.NOBODY)
    if not viewer.may_read:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id})
    return match, viewer


def match_load(match_id: Any) -> Match:
    """A match with what ``match_detail`` reads, no questions asked (for the code that just made it)."""
    return _with_season(Match.objects.select_related(*_DETAIL)).get(pk=match_id)


def _with_season(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``season``: the id of the season a match was filed into, or None. Read through the reverse
    relation of ``scoring``'s season match, so that this app imports nothing of scoring."""
    return matches.annotate(season=F("season_match__season_id"))


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
        "season": getattr(match, "season", None),
        "seats": {seat.name: player.username for seat, player in zip(Seat, match.seat_players())},
        "scorer": match.scorer.get_username() if match.scorer_id else None,
        "ruleset": {"name": match.ruleset_name, "version": match.ruleset_version, "options": match.ruleset_options},
        "created_at": match.created_at,
        "played_on": match.played_on,
        "complete": summary["complete"],
        "deals": summary["deals"],
        "totals": summary["totals"],
        "winners": summary["winners"],
        "next_deal": summary.get("next_deal"),
        "rulings": summary.get("rulings", []),
        "confirmation": confirmation.confirmation_view(match, summary),
        "withdrawn": match.withdrawn,
        "withdrawal": confirmation.withdrawal_view(summary),
    }


def import_summary(match: Match) -> dict[str, Any]:
    projection = MatchProjection.objects.get(pk=match.pk)
    return {"id": match.id, "version": match.version, "summary": projection.summary}


# --- the deal in play, as the viewer sees it ----------------------------------------------------


def match_state(*, match: Match, viewer: Viewer) -> dict[str, Any]:
    return state_view(match=match, viewer=viewer, state=restore(match.projection.snapshot))


def is_viewers_move(view: dict[str, Any]) -> bool:
    """Whether ``view`` (a ``state_view``) asks something of its seated player: his card to play, a
    lead sale he may still offer in, a deal due (any seated player may deal a server-dealt one), or
    the match over. The scorer and staff act for anyone: always their move."""
    if view["role"] != "player" or view["status"] != Match.Status.IN_PROGRESS:
        return True
    deal = view["deal"]
    if deal is None:
        return view["next_deal"] is not None
    sale = deal["lead_sale"]
    offered = {offer["buyer"] for offer in sale["offers"]}
    may_offer = sale["can_sell"] and view["seat"] != sale["holder"] and view["seat"] not in offered
    return bool(deal["legal_cards"]) or may_offer


def state_view(*, match: Match, viewer: Viewer, state: MatchState) -> dict[str, Any]:
    """The match as ``viewer`` may see it in ``state`` (``GET state/`` and every command's answer)."""
    projection = match.projection
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
    state_view["deal"] = {
        "number": deal.spec.number,
        "kind": deal.kind.value,
        "dealer": deal.spec.dealer.name,
        "leader": deal.leader.name,
        "compensating": deal.spec.compensating,
        "hand": _names(deal.hand(viewer.seat)) if viewer.seat is not None else None,
        "hands": {s.name: _names(deal.hand(s)) for s in Seat} if viewer.sees_all_hands else None,
        **deal_progress(deal),
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


def deal_progress(deal) -> dict[str, Any]:
    """Where a deal stands, the same for every viewer: the trick on the table, the last trick
    taken and by whom, the tricks each seat has taken, how many tricks and plays so far."""
    completed = deal.completed_tricks()
    last = completed[-1] if completed else None
    return {
        "trick": [{"seat": s.name, "card": str(c)} for s, c in deal.current_trick()],
        "last_trick": None
        if last is None
        else {"winner": last[0].name, "cards": [{"seat": s.name, "card": str(c)} for s, c in last[1]]},
        "tricks": by_seat(deal.tricks),
        "tricks_completed": len(deal.winners),
        "plays": len(deal.plays),
    }


def _names(cards: Iterable) -> list[str]:
    return [str(c) for c in cards]


def _standing_offers(match: Match, deal) -> list[dict[str, Any]]:
    """The deal's offers with the seq of their ``lead_offered`` event (what lead-decision takes):
    the latest lead_offered events (some may precede the deal_started: R28 before the deal)."""
    if not deal.offers:
        return []
    rows = (
        MatchEvent.objects.filter(match=match, type=T.LEAD_OFFERED)
        .order_by("-seq")
        .values_list("seq", "payload")[: len(deal.offers)]
    )
    return [standing_offer(seq, parse(T.LEAD_OFFERED, payload)) for seq, payload in reversed(rows)]


def _last_deal_started_seq(match: Match) -> int | None:
    return (
        MatchEvent.objects.filter(match=match, type=T.DEAL_STARTED)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )


def _deal_in_play(snapshot: dict[str, Any]) -> int | None:
    """The number of the deal in play according to a projection snapshot, if one is."""
    return snapshot["played"] + 1 if snapshot.get("deal") is not None else None


# --- events --------------------------------------------------------------------------------------


def match_events(*, match: Match, viewer: Viewer, after: int = 0, limit: int = 1000) -> dict[str, Any]:
    """The events after ``seq`` ``after`` (at most ``limit``), redacted for ``viewer``. None past
    ``match.version``: the redaction is decided from the projection read with the match, so an
    event appended since (a recorded deal's hands) must wait for the next read."""
    rows = (
        MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=match.version)
        .order_by("seq")
        .values("seq", "type", "payload", "actor_name", "actor__username", "created_at", "hash")[:limit]
    )
    events = [
        _event_dict(
            r["seq"], r["type"], r["payload"], _actor(r["actor_name"], r["actor__username"]), r["created_at"], r["hash"]
        )
        for r in rows
    ]
    hidden_from = _hidden_from(match, viewer, _deal_in_play(match.projection.snapshot))
    return {"version": match.version, "after": after, "events": _redact(events, viewer, hidden_from)}


def command_events(result: CommandResult, viewer: Viewer) -> dict[str, Any]:
    """What a command appended, as its actor may see it (the response to a POST)."""
    match = result.match
    events = [
        _event_dict(
            e.seq,
            e.type,
            e.payload,
            _actor(e.actor_name, e.actor.get_username() if e.actor is not None else None),
            e.created_at,
            e.hash,
        )
        for e in result.events
    ]
    in_play = _deal_in_play(match.projection.snapshot) if hasattr(match, "projection") else None
    hidden_from = None
    if in_play is not None and _must_redact(match, viewer):
        hidden_from = 0  # every event of a command belongs to the deal in play
    state = result.state if result.state is not None else restore(match.projection.snapshot)
    return {
        "version": match.version,
        "status": match.status,
        "events": _redact(events, viewer, hidden_from),
        **command_outcome(result.events, state),
        "state": state_view(match=match, viewer=viewer, state=state),
        "next_move": None,  # filled by the API's ?wait= (api.streams.command_then_wait) where a move is awaited
    }


def command_outcome(events: list[MatchEvent], state: MatchState) -> dict[str, Any]:
    """What a command's card completed: the trick (with its winner) and, with its last trick, the
    deal (its R29 result). Both null for any other command, and for a card within a trick."""
    played = [e for e in events if e.type == MatchEvent.Type.CARD_PLAYED]
    if not played:
        return {"trick_completed": None, "deal_ended": None}
    ended = state.deal is None and state.results and state.results[-1].final is not None
    deal = state.results[-1].final if ended else state.deal
    if deal is None or not deal.plays or len(deal.plays) % 4:
        return {"trick_completed": None, "deal_ended": None}
    winner, cards = deal.completed_tricks()[-1]
    trick = {"winner": winner.name, "cards": [{"seat": s.name, "card": str(c)} for s, c in cards]}
    return {"trick_completed": trick, "deal_ended": state.results[-1].as_json() if ended else None}


def _actor(hashed: str | None, current: str | None) -> str | None:
    """The actor's name as the hash chain has it (a later rename changes nothing)."""
    return hashed if hashed is not None else current


def _event_dict(seq, type, payload, actor, created_at, hash) -> dict[str, Any]:
    """An event as the API shows it: ``actor`` and ``created_at`` exactly as hashed, so that
    anyone may recompute the chain (docs/audit.md) from the events endpoint."""
    return {
        "seq": seq,
        "type": type,
        "payload": payload,
        "actor": actor,
        "created_at": timestamp(created_at),
        "hash": hash,
        "redacted": False,
    }


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
    created: MatchCreated | None = None
    pending: SaleRecord | None = None  # a sale decided before its deal was dealt or filed
    for type, payload in MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", "payload"):
        event = parse(type, payload)
        if isinstance(event, MatchCreated):
            created = event
        elif isinstance(event, DealStarted):
            deal = {"number": event.number, "hands": event.hands, "sale": pending, "plays": []}
            pending = None
            deals.append(deal)
            by_number[deal["number"]] = deal
        elif isinstance(event, LeadSold):  # in the deal dealt, or before the next one is dealt or filed (R28)
            sale = SaleRecord(event.buyer, event.price)
            in_deal = deals and "filed" not in deals[-1] and not deals[-1]["plays"]
            if in_deal:
                deals[-1]["sale"] = sale
            else:
                pending = sale
        elif isinstance(event, CardPlayed):
            deals[-1]["plays"].append(BY_NAME[event.card])
        elif isinstance(event, HandsRevealed):
            by_number[event.number]["hands"] = event.hands
        elif isinstance(event, DealCorrected):  # the latest filed deal, filed again in its place (issue 23)
            deals[-1] = {"filed": encode_filed_deal(event.entry, getattr(event, event.entry), _sale_of(event))}
        elif isinstance(event, DealTallied):  # R31–R33: filed whole from a paper sheet
            sale = pending if event.sale is None else _sale_of(event)
            entry = "tally" if event.tally is not None else "points"
            deals.append({"filed": encode_filed_deal(entry, getattr(event, entry), sale)})
            pending = None
    shown = []
    for deal in deals:
        if "filed" in deal:
            shown.append(deal["filed"])
            continue
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
    ruleset = created.ruleset if created else {"name": match.ruleset_name, "options": match.ruleset_options}
    record = {
        "format": FORMAT,
        "ruleset": {"name": ruleset["name"], "options": ruleset.get("options") or {}},
        "players": created.seats if created else {s.name: p.username for s, p in zip(Seat, match.seat_players())},
        "first_dealer": match.first_dealer,
    }
    if match.played_on is not None:
        record["played_on"] = match.played_on.isoformat()
    record["deals"] = shown
    return record


def _sale_of(event: DealTallied) -> SaleRecord | None:
    return None if event.sale is None else SaleRecord(event.sale.buyer, event.sale.price)
