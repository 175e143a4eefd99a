"""Match commands: each one transaction that locks the match row, decides through the rules
engine, and appends the resulting events with the next ``seq`` — or stores nothing at all.

Decide, then apply: the ``_decide_*`` functions check through the engine and emit events on
a ``_Unit``; ``_commit`` writes them (hash chain, read models) in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import secrets as secrets_module
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import MatchState, Seat, errors
from games.engine import record as records
from games.engine.cards import BY_NAME, NAMES
from games.engine.errors import RecordFormatError, RulesetError, RuleViolation
from games.engine.match import restore
from games.engine.replay import replay

from . import confirmation, sql, states
from .events import GENESIS, chain_hash, deal_commitment, event_body
from .exceptions import (
    CommandError,
    DuplicateRecord,
    InvalidInput,
    MatchClosed,
    MatchReadOnly,
    NotAllowed,
    NotFound,
    RuleBroken,
    VersionConflict,
)
from .fingerprints import record_fingerprint
from .messages import engine_message
from .models import DealScore, DealSecret, Match, MatchEvent, MatchProjection, Player
from .projections import deal_score_rows, rulings_of, sign_offs_of, snapshot_of, start_state, summary_of
from .roles import is_scorer, seat_of  # noqa: F401 - who sits where: roles decides, commands ask
from .signals import announce_result, events_appended

T = MatchEvent.Type
User = get_user_model()


@dataclass
class _Unit:
    """One command's work on one locked match: the engine state and the events it emits."""

    match: Match
    projection: MatchProjection | None
    state: MatchState
    actor: Any
    events: list[tuple[str, dict]] = field(default_factory=list)
    secrets: list[DealSecret] = field(default_factory=list)  # server-dealt hands, written with the events
    columns: dict[str, Any] = field(default_factory=dict)  # Match columns the decision changes (confirmed, ...)

    def emit(self, type: str, payload: dict) -> None:
        self.events.append((type, payload))


@dataclass(frozen=True)
class CommandResult:
    """What a command appended, with the engine state right after it (None: read it from the
    projection), so that the answer tells the client what comes next without another read."""

    match: Match
    events: list[MatchEvent]
    state: MatchState | None = None


# --- players and roles -----------------------------------------------------------------------


def player_for_user(user) -> Player:
    """The user's player profile, created on first use (a guest profile of the same name is claimed)."""
    player = getattr(user, "player", None)
    if player is not None:
        return player
    player, _ = Player.objects.get_or_create(username=user.get_username())
    if player.user_id is None:
        player.user = user
        player.save(update_fields=["user"])
    return player


def _acting_seat(unit: _Unit, requested: str | None, default: Seat | None) -> Seat:
    """Who may act for which seat: a player for his own seat only; the scorer for any seat."""
    match, actor = unit.match, unit.actor
    if is_scorer(match, actor):
        if requested is None:
            if default is None:
                raise InvalidInput(gettext("a scorer must name the seat"), field="seat")
            return default
        return _parse_seat(requested, "seat")
    own = seat_of(match, actor)
    if own is None:
        raise NotAllowed(gettext("only the players seated in this match and its scorer may act in it"))
    if requested is not None and _parse_seat(requested, "seat") != own:
        raise NotAllowed(
            gettext("you play seat %(seat)s; only the scorer may act for another seat") % {"seat": own.name}
        )
    return own


def _parse_seat(value: Any, name: str) -> Seat:
    try:
        return Seat.parse(value)
    except ValueError:
        raise InvalidInput(
            gettext("not a seat: %(seat)s (expected one of N, E, S, W)") % {"seat": repr(value)}, field=name
        ) from None


# --- the unit of work ------------------------------------------------------------------------

Unit = _Unit  # what ``command_run``'s ``decide`` receives: the locked match, its engine state, the actor


def command_run(
    *,
    match_id,
    actor,
    expected_version: int | None,
    decide: Callable[[_Unit], None],
    admit: Callable[[Match], None] | None = None,
    ended_too: bool = False,
) -> CommandResult:
    """Run a command from another module exactly as the match commands run: ``decide`` checks and
    ``emit``s events (and sets ``columns``) on the locked match's unit; they are chained and the
    read models brought up to date in the same transaction, or nothing is stored. ``ended_too``:
    also on a finished or abandoned match (signing the sheet, withdrawing it)."""
    return _run(match_id, actor, expected_version, decide, admit, ended_too=ended_too)


def _run(
    match_id,
    actor,
    expected_version: int | None,
    decide: Callable[[_Unit], None],
    admit: Callable[[Match], None] | None = None,
    *,
    ended_too: bool = False,
) -> CommandResult:
    """``admit``, when given, sees the locked match before anything else is checked and raises to
    refuse (the API's read-access check: outsiders get 404), so that the match is read only once.

    Decisions write nothing (``_commit`` writes what they emitted), so a refusal leaves nothing to
    undo: inside a caller's transaction (the API's Idempotency-Key, which stores the refusal) the
    block needs no savepoint — two statements fewer on every card play. The refusal is raised
    after the block, so that it does not doom the caller's transaction."""
    with transaction.atomic(savepoint=False):
        try:
            unit = _locked_unit(match_id, actor, expected_version, admit, ended_too)
            decide(unit)
        except (CommandError, RuleViolation) as refusal:
            error = refusal
        else:
            return CommandResult(unit.match, _commit(unit), unit.state)
    if isinstance(error, RuleViolation):
        raise RuleBroken(error) from None
    raise error


def _locked_unit(
    match_id, actor, expected_version: int | None, admit: Callable[[Match], None] | None, ended_too: bool = False
) -> _Unit:
    match = _lock(match_id)
    if admit is not None:
        admit(match)
    if expected_version is not None and expected_version != match.version:
        raise VersionConflict(
            gettext("the match is at version %(version)s, not %(expected_version)s")
            % {"version": match.version, "expected_version": expected_version},
            current_version=match.version,
        )
    if match.status != Match.Status.IN_PROGRESS and not ended_too:
        raise MatchClosed(
            gettext("the match is %(status)s; nothing more can be recorded")
            % {"status": str(match.get_status_display()).lower()}
        )
    refuse_if_read_only(match)
    projection, state = match.projection, states.kept_state(match.projection)
    return _Unit(match, projection, restore(projection.snapshot) if state is None else state, actor)


def refuse_if_read_only(match: Match) -> None:
    """A match of a closed season takes no command (nor a ruling) until its season reopens."""
    if match.read_only:
        raise MatchReadOnly(
            gettext("the match belongs to a closed season; nothing more can be recorded until staff reopen it")
        )


def _lock(match_id) -> Match:
    """Lock the match row and its projection's, and read both, in one statement (``games.sql``:
    it runs on every card play). A client that waited for the locks gets the rows as the previous
    one committed them: READ COMMITTED re-reads the latest version of every row it locks."""
    try:
        pk = Match._meta.pk.to_python(match_id)
    except (ValueError, TypeError, ValidationError):
        raise NotFound(gettext("no match %(id)s") % {"id": match_id}) from None
    match = sql.match_lock(pk, known=states.known(pk))  # the state kept from this process's last command on it
    if match is None:
        raise NotFound(gettext("no match %(id)s") % {"id": match_id})
    return match


def _commit(unit: _Unit) -> list[MatchEvent]:
    """Append the unit's events (chained), then bring the read models up to date."""
    match, projection = unit.match, unit.projection
    previous = projection.head_hash if projection else GENESIS
    now = timezone.now()
    actor_name = unit.actor.get_username() if unit.actor is not None else None
    rows = []
    for type, payload in unit.events:
        seq = match.version + 1
        body = event_body(match_id=match.id, seq=seq, type=type, payload=payload, actor=actor_name, created_at=now)
        previous = chain_hash(previous, body)
        rows.append(
            MatchEvent(
                match=match,
                seq=seq,
                type=type,
                payload=payload,
                actor=unit.actor,
                actor_name=actor_name,
                created_at=now,
                hash=previous,
            )
        )
        match.version = seq
    if unit.secrets:
        DealSecret.objects.bulk_create(unit.secrets)
    _project(unit, previous, rows)  # inserts the rows with the read models' new values
    states.keep(unit.projection, unit.state)
    events_appended.send(sender=Match, match=match, events=rows)
    return rows


def _project(unit: _Unit, head: str, rows: list[MatchEvent]) -> None:
    """Append ``rows`` with the match's new version and status and the projection's new values —
    one statement on PostgreSQL (``games.sql.events_append``), with the ``pg_notify`` that wakes
    the live views — then what only a deal's or the match's end writes."""
    from . import live  # live imports selectors, which import this module

    match, state = unit.match, unit.state
    finished_before = len(unit.projection.summary["deals"]) if unit.projection else 0
    if state.complete and match.status == Match.Status.IN_PROGRESS:
        match.status = Match.Status.FINISHED
        if not match.confirmed and confirmation.played_by_own_seats(match):  # it ends now: rule "online"
            unit.columns["confirmed"] = True
    for name, value in unit.columns.items():
        setattr(match, name, value)
    unchanged = unit.projection is not None and _summary_unchanged(unit, finished_before)
    results = unit.projection.snapshot["results"] if unchanged else None  # no deal ended, no ruling
    values = dict(version=match.version, head_hash=head, snapshot=snapshot_of(state, results))
    if not unchanged:
        earlier = unit.projection.summary if unit.projection else None
        values["summary"] = summary_of(state, match, rulings_of(rows, earlier.get("rulings") if earlier else None))
        values["summary"].update(sign_offs_of(rows, earlier))
    sql.events_append(
        match,
        rows,
        match_values=dict(version=match.version, status=match.status, **unit.columns),
        projection_values=values if unit.projection is not None else None,
        notify=live.moved_notice(match),
    )
    if unit.projection is None:
        unit.projection = MatchProjection.objects.create(match=match, **values)
    else:
        for name, value in values.items():
            setattr(unit.projection, name, value)
    if match.status != Match.Status.IN_PROGRESS:  # commands only run on matches in progress: it ends now
        if match.status == Match.Status.FINISHED and match.fingerprint is None:
            _fingerprint_finished(match)
        announce_result(Match, match_id=match.pk, status=match.status)
    if len(state.results) > finished_before:
        DealScore.objects.bulk_create(deal_score_rows(match, state, finished_before + 1))


def _summary_unchanged(unit: _Unit, finished_before: int) -> bool:
    """Cards played in a deal that goes on change nothing the summary holds (finished deals,
    totals, winners, the next deal due, status, rulings): most plays keep it as stored."""
    return (
        unit.state.deal is not None
        and len(unit.state.results) == finished_before
        and unit.match.status == Match.Status.IN_PROGRESS
        and all(type == T.CARD_PLAYED for type, _ in unit.events)
    )


# --- commands ------------------------------------------------------------------------------


def match_create(
    *,
    actor,
    seats: dict[str, str],
    first_dealer: str,
    dealing: str = Match.Dealing.SERVER,
    ruleset: dict | None = None,
    scorer: str | None = None,
    played_on: dt.date | None = None,
) -> Match:
    """A new match: four distinct players by username, the first dealer, the pinned ruleset, and the
    date it was played on when that is not the day it is filed (a paper sheet's)."""
    ruleset = ruleset or {}
    players = _seat_players(seats)
    dealer = _parse_seat(first_dealer, "first_dealer")
    if dealing not in Match.Dealing.values:
        raise InvalidInput(
            gettext("dealing must be one of %(choices)s") % {"choices": ", ".join(Match.Dealing.values)},
            field="dealing",
        )
    pinned = {
        "name": ruleset.get("name", "rozbojnik-odgrywka"),
        "version": ruleset.get("version", 1),
        "options": ruleset.get("options") or {},
    }
    try:
        state = start_state({"ruleset": pinned, "first_dealer": dealer.name})
    except RulesetError as exc:
        raise InvalidInput(engine_message(exc), field=f"ruleset.{exc.field}") from None
    scorer_user = _scorer(scorer, actor, dealing)
    with transaction.atomic():
        match = Match.objects.create(
            north=players[0],
            east=players[1],
            south=players[2],
            west=players[3],
            first_dealer=dealer.name,
            ruleset_name=pinned["name"],
            ruleset_version=pinned["version"],
            ruleset_options=state.ruleset.options(),
            dealing=dealing,
            scorer=scorer_user,
            created_by=actor,
            played_on=played_on,
        )
        unit = _Unit(match, None, state, actor)
        created = {
            "seats": {s.name: p.username for s, p in zip(Seat, players)},
            "first_dealer": dealer.name,
            "ruleset": state.ruleset.as_json(),
            "dealing": dealing,
            "scorer": scorer_user.get_username() if scorer_user else None,
        }
        if played_on is not None:  # the date of play is part of the log; the filing time is each event's
            created["played_on"] = played_on.isoformat()
        unit.emit(T.MATCH_CREATED, created)
        _commit(unit)
        match_filing_assess(match=match)
    return match


def match_filing_assess(*, match: Match) -> bool:
    """Record whether the match was filed by officials none of whom sits in it (its result then
    needs no confirmation: ``confirmation``). ``match_create`` asks at once (staff); a season
    match is asked again once it has joined its season (its club's roles then count)."""
    filed = confirmation.filed_by_official(match)
    if filed and not match.filed_by_official:
        match.filed_by_official = match.confirmed = True
        Match.objects.filter(pk=match.pk).update(filed_by_official=True, confirmed=True)
    return filed


USERNAME_MAX_LENGTH = Player._meta.get_field("username").max_length


def _seat_players(seats: Any, *, create_guests: bool = False) -> list[Player]:
    if not isinstance(seats, dict) or sorted(seats) != sorted(s.name for s in Seat):
        raise InvalidInput(gettext("seats must name a player for each of N, E, S, W"), field="seats")
    names = [seats[s.name] for s in Seat]
    if any(not isinstance(n, str) or not n for n in names):
        raise InvalidInput(gettext("each seat needs a player's username"), field="seats")
    for seat, name in zip(Seat, names):  # checked here, not left to the database (a DataError, a 500)
        if len(name) > USERNAME_MAX_LENGTH or "\x00" in name or not name.isprintable():
            raise InvalidInput(
                gettext("a username is 1 to %(max)d printable characters, without NUL") % {"max": USERNAME_MAX_LENGTH},
                field=f"seats.{seat.name}",
            )
    if len(set(names)) != 4:
        raise InvalidInput(gettext("four different players are needed"), field="seats")
    found = {p.username: p for p in Player.objects.filter(username__in=names)}
    users = {u.get_username(): u for u in User.objects.filter(username__in=set(names) - set(found))}
    players = []
    for seat, name in zip(Seat, names):
        if name in found:
            players.append(found[name])
        elif name in users:
            players.append(player_for_user(users[name]))
        elif create_guests:
            players.append(Player.objects.create(username=name))
        else:
            raise InvalidInput(gettext("no player named %(name)s") % {"name": repr(name)}, field=f"seats.{seat.name}")
    return players


def _scorer(username: str | None, actor, dealing: str):
    if username is None:
        return actor if dealing == Match.Dealing.RECORDED else None
    try:
        return User.objects.get(username=username)
    except User.DoesNotExist:
        raise InvalidInput(
            gettext("no user named %(username)s") % {"username": repr(username)}, field="scorer"
        ) from None


def deal_start(
    *,
    match_id,
    actor,
    hands: dict | None = None,
    expected_version: int | None = None,
    admit: Callable[[Match], None] | None = None,
) -> CommandResult:
    """Deal the next deal due: by the server (secretly, with a published commitment) or as recorded."""

    def decide(unit: _Unit) -> None:
        recorded = unit.match.dealing == Match.Dealing.RECORDED
        if recorded and not is_scorer(unit.match, unit.actor):
            raise NotAllowed(gettext("in a recorded match only its scorer enters the hands"))
        if not recorded:
            _acting_seat(unit, None, Seat.N)  # any seated player or the scorer
            if hands is not None:
                raise InvalidInput(gettext("the server deals this match: send no hands"), field="hands")
        _decide_deal(unit, _parse_hands(hands) if recorded else None)

    return _run(match_id, actor, expected_version, decide, admit)


def _parse_hands(hands: Any) -> dict[str, list[str]]:
    if not isinstance(hands, dict) or sorted(hands) != sorted(s.name for s in Seat):
        raise InvalidInput(gettext("hands must give a list of cards for each of N, E, S, W"), field="hands")
    for seat, cards in hands.items():
        if not isinstance(cards, list):
            raise InvalidInput(gettext("must be a list of cards"), field=f"hands.{seat}")
        for index, card in enumerate(cards):
            if card not in BY_NAME:
                raise InvalidInput(
                    gettext("not a card: %(card)s") % {"card": repr(card)}, field=f"hands.{seat}[{index}]"
                )
    return {s.name: list(hands[s.name]) for s in Seat}


def _decide_deal(unit: _Unit, hands: dict[str, list[str]] | None) -> None:
    spec = unit.state.next_deal
    if spec is None:
        unit.state.start_deal(())  # raises deal_in_play or match_over, as the rules say
    payload = {
        "number": spec.number,
        "kind": spec.kind.value,
        "dealer": spec.dealer.name,
        "leader": spec.leader.name,
        "compensating": spec.compensating,
    }
    if hands is None:
        hands, salt = _shuffle(), secrets_module.token_hex(16)
        unit.secrets.append(DealSecret(match=unit.match, number=spec.number, hands=hands, salt=salt))
        payload["commitment"] = deal_commitment(hands, salt)
    else:
        payload["hands"] = hands
    unit.state = unit.state.start_deal([[BY_NAME[c] for c in hands[s.name]] for s in Seat])
    unit.emit(T.DEAL_STARTED, payload)


def _shuffle() -> dict[str, list[str]]:
    deck = list(NAMES)
    secrets_module.SystemRandom().shuffle(deck)
    return {s.name: sorted(deck[13 * s : 13 * s + 13]) for s in Seat}


def card_play(
    *,
    match_id,
    actor,
    card: str,
    seat: str | None = None,
    expected_version: int | None = None,
    admit: Callable[[Match], None] | None = None,
) -> CommandResult:
    def decide(unit: _Unit) -> None:
        deal = unit.state.deal
        acting = _acting_seat(unit, seat, deal.to_play if deal else None)
        _decide_play(unit, acting, card)

    return _run(match_id, actor, expected_version, decide, admit)


def _decide_play(unit: _Unit, seat: Seat, card: Any) -> None:
    if card not in BY_NAME:
        raise InvalidInput(
            gettext("not a card: %(card)s (rank 2-9/T/J/Q/K/A then suit S/H/D/C)") % {"card": repr(card)}, field="card"
        )
    deal = unit.state.deal
    unit.state = unit.state.play(BY_NAME[card], seat=seat)
    unit.emit(T.CARD_PLAYED, {"seat": seat.name, "card": card})
    if deal is not None and unit.state.deal is None and unit.match.dealing == Match.Dealing.SERVER:
        secret = DealSecret.objects.get(match=unit.match, number=deal.spec.number)
        unit.emit(T.HANDS_REVEALED, {"number": deal.spec.number, "hands": secret.hands, "salt": secret.salt})


def lead_offer(
    *,
    match_id,
    actor,
    price: Any,
    seat: str | None = None,
    expected_version: int | None = None,
    admit: Callable[[Match], None] | None = None,
) -> CommandResult:
    """R26, R28: a player (or the scorer for him) offers to buy the lead right for ``price`` tricks."""

    def decide(unit: _Unit) -> None:
        _decide_offer(unit, _acting_seat(unit, seat, None), price)

    return _run(match_id, actor, expected_version, decide, admit)


def _decide_offer(unit: _Unit, buyer: Seat, price: Any) -> None:
    unit.state = unit.state.offer_lead(buyer, price)
    unit.emit(T.LEAD_OFFERED, {"buyer": buyer.name, "price": price})


def lead_decide(
    *,
    match_id,
    actor,
    offer: int | None = None,
    keep: bool = False,
    expected_version: int | None = None,
    admit: Callable[[Match], None] | None = None,
) -> CommandResult:
    """R28: the lead holder accepts the offer made by event ``offer`` (its seq), or keeps the lead."""
    if keep == (offer is not None):
        raise InvalidInput(gettext('send either {"offer": <event seq>} or {"keep": true}'), field="offer")

    def decide(unit: _Unit) -> None:
        deal, due = unit.state.deal, unit.state.next_deal
        if deal is not None or (due is not None and due.lead_for_sale):  # else the engine says why not
            holder = unit.state.lead_holder
            if _acting_seat(unit, None, holder) != holder:
                raise NotAllowed(gettext("only the lead holder (or the scorer) decides on the offers"))
        _decide_lead(unit, None if keep else _offer_index(unit, offer))

    return _run(match_id, actor, expected_version, decide, admit)


def _offer_index(unit: _Unit, seq: Any) -> int:
    """The place among the standing offers (the deal's, or the next deal's before it is dealt or
    filed) of the lead_offered event ``seq``: they are the latest lead_offered events."""
    standing = len(unit.state.lead_offers)
    offers = (
        list(
            MatchEvent.objects.filter(match=unit.match, type=T.LEAD_OFFERED)
            .order_by("-seq")
            .values_list("seq", flat=True)[:standing]
        )[::-1]
        if standing
        else []
    )
    if seq not in offers or isinstance(seq, bool):
        raise InvalidInput(
            gettext("%(seq)s is not the seq of a standing lead offer of this deal") % {"seq": repr(seq)}, field="offer"
        )
    return offers.index(seq)


def _decide_lead(unit: _Unit, index: int | None) -> None:
    unit.state = unit.state.decide_lead(index, seat=unit.state.lead_holder)
    if index is None:
        unit.emit(T.LEAD_KEPT, {})
    else:
        offer = unit.state.lead_offers[index]
        unit.emit(T.LEAD_SOLD, {"offer_index": index, "buyer": offer.buyer.name, "price": offer.price})


def deal_tally(
    *,
    match_id,
    actor,
    tally: Any = None,
    points: Any = None,
    sale: Any = None,
    expected_version: int | None = None,
    admit: Callable[[Match], None] | None = None,
) -> CommandResult:
    """The next deal of a recorded match, filed whole from the paper sheet by its scorer: its
    ``tally`` (R31, R32) or only its ``points`` (R33), with the ``sale`` of a compensating
    odgrywka's lead ``{"buyer": seat, "price": tricks}`` when it was sold. One event."""

    def decide(unit: _Unit) -> None:
        if unit.match.dealing != Match.Dealing.RECORDED or not is_scorer(unit.match, unit.actor):
            raise NotAllowed(gettext("only the scorer of a recorded match files deals from a paper sheet"))
        _decide_tally(unit, tally=tally, points=points, sale=sale)

    return _run(match_id, actor, expected_version, decide, admit)


def _decide_tally(unit: _Unit, *, tally: Any, points: Any, sale: Any, both: bool = False) -> None:
    """R31–R33 through the engine (which checks match_over, bad_tally, sale_not_allowed, bad_sale in
    that order); the error names the deal it was meant to be."""
    number = unit.state.schedule.played + 1
    try:
        if sale is not None and (
            not isinstance(sale, dict) or set(sale) != {"buyer", "price"} or not isinstance(sale["buyer"], str)
        ):
            raise errors.BadSale(detail=gettext("a sale gives the buyer's seat and the price in tricks"))
        offer = None if sale is None else (sale["buyer"], sale["price"])
        unit.state = unit.state.file_deal(tally=tally, points=points, sale=offer, both=both)
    except RuleViolation as violation:
        raise violation.located(deal=number) from None
    result = unit.state.results[-1]
    payload: dict[str, Any] = {
        "number": result.number,
        "kind": result.kind.value,
        "entry": result.entry,
        result.entry: result.filed,
    }
    if sale is not None:  # a sale decided through lead_offered/lead_sold events is theirs to tell
        payload["sale"] = {"buyer": result.sale[0].name, "price": result.sale[1]}
    unit.emit(T.DEAL_TALLIED, payload)


def match_abandon(*, match_id, actor, reason: str = "", expected_version: int | None = None) -> CommandResult:
    if not isinstance(reason, str) or len(reason) > 500 or "\x00" in reason:
        raise InvalidInput(gettext("reason must be text of at most 500 characters, without NUL"), field="reason")

    def decide(unit: _Unit) -> None:
        if not (is_scorer(unit.match, actor) or actor.is_staff or seat_of(unit.match, actor) is not None):
            raise NotAllowed(gettext("only the seated players, the scorer or staff may abandon a match"))
        unit.emit(T.MATCH_ABANDONED, {"reason": reason})
        unit.match.status = Match.Status.ABANDONED

    return _run(match_id, actor, expected_version, decide)


def record_import(*, actor, record: Any, allow_duplicate: bool = False) -> Match:
    """A ``kierki-match/1`` record filed as a recorded match, through the same decisions as live
    play, all or nothing. Unknown player names become guest profiles. A record whose players and
    deals equal a match already stored is refused (``DuplicateRecord``) unless ``allow_duplicate``."""
    try:
        decoded = records.decode(record)
    except RecordFormatError as exc:
        raise InvalidInput(engine_message(exc), field=exc.field or None) from None
    checked = replay(decoded)
    if not checked.ok:
        raise RuleBroken(checked.error)
    fingerprint = record_fingerprint(record)
    with transaction.atomic():
        if not allow_duplicate:
            _refuse_duplicate(fingerprint)
        match = _create_for_import(actor, decoded)
        match.fingerprint = fingerprint
        Match.objects.filter(pk=match.pk).update(fingerprint=fingerprint)
        projection = MatchProjection.objects.get(pk=match.pk)
        unit = _Unit(match, projection, restore(projection.snapshot), actor)
        for deal in decoded.deals:
            if deal.entry != "played":  # R31–R33: filed from a paper sheet
                sale = None if deal.sale is None else {"buyer": deal.sale.buyer, "price": deal.sale.price}
                _decide_tally(unit, tally=deal.tally, points=deal.points, sale=sale)
                continue
            _decide_deal(unit, {s.name: [NAMES[c] for c in deal.hands[s]] for s in Seat})
            if deal.sale is not None:
                _decide_offer(unit, Seat[deal.sale.buyer], deal.sale.price)
                _decide_lead(unit, len(unit.state.deal.offers) - 1)
            for card in deal.plays:
                _decide_play(unit, unit.state.deal.to_play, NAMES[card])
        _commit(unit)
    match.refresh_from_db()
    return match


def _refuse_duplicate(fingerprint: str) -> None:
    """Inside the import's transaction: one filing of a fingerprint at a time (PostgreSQL: an
    advisory lock on it; SQLite runs one writer anyway), so two concurrent imports of one record
    cannot both pass the check."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int(fingerprint[:15], 16)])
    existing = Match.objects.filter(fingerprint=fingerprint).order_by("created_at").values_list("pk", flat=True).first()
    if existing is not None:
        raise DuplicateRecord(
            gettext(
                "these deals by these players are filed already as match %(match)s; "
                "send ?allow_duplicate=true to file them again on purpose"
            )
            % {"match": existing},
            match=str(existing),
        )


def _fingerprint_finished(match: Match) -> None:
    """A match filed live gets the fingerprint of its record when it finishes, so that importing
    the same sheet afterwards is caught too."""
    from .selectors import Viewer, match_record  # selectors import this module

    record = match_record(match=match, viewer=Viewer(Viewer.PLAYER))
    match.fingerprint = record_fingerprint(record)
    sql.update(Match, match.pk, fingerprint=match.fingerprint)


def _create_for_import(actor, decoded: records.MatchRecord) -> Match:
    players = _seat_players({s: str(n) for s, n in decoded.players.items()}, create_guests=True)
    return match_create(
        actor=actor,
        seats={s.name: p.username for s, p in zip(Seat, players)},
        first_dealer=decoded.first_dealer.name,
        dealing=Match.Dealing.RECORDED,
        ruleset=decoded.ruleset.as_json(),
        played_on=None if decoded.played_on is None else dt.date.fromisoformat(decoded.played_on),
    )
