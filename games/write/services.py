"""Match commands: what each one decides. Each runs through the unit of work (``commands.run``:
one transaction that locks the match row, admits the caller, decides through the rules engine
and appends the resulting events with the next ``seq`` — or stores nothing at all).

Decide, then apply: the ``_decide_*`` functions check through the engine and emit events on
the ``commands.Unit``; ``commands`` writes them (hash chain, read models) in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import secrets as secrets_module
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils.translation import gettext

from games.domain import confirmation
from games.domain.chain import deal_commitment
from games.domain.event_types import (
    CardPlayed,
    DealCorrected,
    DealStarted,
    DealTallied,
    HandsRevealed,
    LeadKept,
    LeadOffered,
    LeadSold,
    MatchAbandoned,
    MatchCreated,
    Sale,
)
from games.domain.exceptions import DuplicateRecord, InvalidInput, MatchClosed, NotAllowed, RuleBroken
from games.domain.fingerprints import record_fingerprint
from games.domain.messages import engine_message
from games.domain.offers import standing_offers_of
from games.domain.projections import apply, deal_score_rows, start_state
from games.domain.roles import Role, is_scorer, require_arbiter, require_consented_seats, seat_of  # noqa: F401 - who sits where: roles decides, commands ask
from games.domain.signals import announce_result
from games.engine import Seat, errors
from games.engine import record as records
from games.engine.cards import BY_NAME, NAMES
from games.engine.errors import RecordFormatError, RulesetError, RuleViolation
from games.engine.match import restore
from games.engine.replay import replay
from games.models import DealScore, DealSecret, Match, MatchProjection, Player
from games.write import claims, commands, people
from games.write.commands import Unit
from games.write.results import CommandResult

User = get_user_model()


# --- players and roles -----------------------------------------------------------------------


def player_for_user(user) -> Player:
    """The user's player profile, created on first use (``games.write.people.player_of``)."""
    return people.player_of(user)


def _acting_seat(unit: Unit, requested: str | None, default: Seat | None, *, files: bool = True) -> Seat:
    """Who may act for which seat: a player for his own seat only; the scorer for any seat whose
    user has accepted it (``files``: the command records something for that seat)."""
    match, actor = unit.match, unit.actor
    if is_scorer(match, actor):
        if requested is None:
            if default is None:
                raise InvalidInput(gettext("a scorer must name the seat"), field="seat")
            seat = default
        else:
            seat = _parse_seat(requested, "seat")
        if files:  # nobody plays for a seat not yet accepted (issue 30)
            require_consented_seats(match, actor, [seat])
        return seat
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
        state = start_state(pinned, dealer.name)
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
        unit = Unit(match, None, state, actor)
        unit.emit(
            MatchCreated(
                seats={s.name: p.public_id for s, p in zip(Seat, players)},  # issue 28: ids, not names
                first_dealer=dealer.name,
                ruleset=state.ruleset.as_json(),
                dealing=dealing,
                scorer=people.person_ref(scorer_user),
                # the date of play is part of the log (left out when None); the filing time is each event's
                played_on=None if played_on is None else played_on.isoformat(),
            )
        )
        commands.append(unit)
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
) -> CommandResult:
    """Deal the next deal due: by the server (secretly, with a published commitment) or as recorded."""

    def decide(unit: Unit) -> None:
        recorded = unit.match.dealing == Match.Dealing.RECORDED
        if recorded and not is_scorer(unit.match, unit.actor):
            raise NotAllowed(gettext("in a recorded match only its scorer enters the hands"))
        if recorded:
            require_consented_seats(unit.match, unit.actor, Seat)  # he files every seat's hand
        if not recorded:
            _acting_seat(unit, None, Seat.N, files=False)  # any seated player or the scorer
            if hands is not None:
                raise InvalidInput(gettext("the server deals this match: send no hands"), field="hands")
        _decide_deal(unit, _parse_hands(hands) if recorded else None)

    return commands.run(
        match_id=match_id, actor=actor, expected_version=expected_version, decide=decide, locate=commands.DEAL
    )


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


def _decide_deal(unit: Unit, hands: dict[str, list[str]] | None) -> None:
    spec = unit.state.next_deal
    if spec is None:
        unit.state.start_deal(())  # raises deal_in_play or match_over, as the rules say
    commitment = None
    if hands is None:  # the server deals: the hands stay secret, their commitment is published
        dealt, salt = _shuffle(), secrets_module.token_hex(16)
        unit.secrets.append(DealSecret(match=unit.match, number=spec.number, hands=dealt, salt=salt))
        commitment = deal_commitment(dealt, salt)
    event = DealStarted(
        number=spec.number,
        kind=spec.kind.value,
        dealer=spec.dealer.name,
        leader=spec.leader.name,
        compensating=spec.compensating,
        commitment=commitment,
        hands=hands,
    )
    unit.state = apply(unit.state, event, {spec.number: dealt} if hands is None else None)
    unit.emit(event)


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
    claim: claims.Claim | None = None,
) -> CommandResult:
    """The card played (R10–R16); ``claim``: an ``Idempotency-Key`` stored with it (``commands.run``)."""

    def decide(unit: Unit) -> None:
        deal = unit.state.deal
        acting = _acting_seat(unit, seat, deal.to_play if deal else None)
        _decide_play(unit, acting, card)

    return commands.run(
        match_id=match_id,
        actor=actor,
        expected_version=expected_version,
        decide=decide,
        locate=commands.PLAY,
        fast_path=True,
        claim=claim,
    )


def _decide_play(unit: Unit, seat: Seat, card: Any) -> None:
    if card not in BY_NAME:
        raise InvalidInput(
            gettext("not a card: %(card)s (rank 2-9/T/J/Q/K/A then suit S/H/D/C)") % {"card": repr(card)}, field="card"
        )
    deal, event = unit.state.deal, CardPlayed(seat=seat.name, card=card)
    unit.state = apply(unit.state, event)
    unit.emit(event)
    if deal is not None and unit.state.deal is None and unit.match.dealing == Match.Dealing.SERVER:
        secret = DealSecret.objects.get(match=unit.match, number=deal.spec.number)
        unit.emit(HandsRevealed(number=deal.spec.number, hands=secret.hands, salt=secret.salt))


def lead_offer(
    *,
    match_id,
    actor,
    price: Any,
    seat: str | None = None,
    expected_version: int | None = None,
) -> CommandResult:
    """R26, R28: a player (or the scorer for him) offers to buy the lead right for ``price`` tricks."""

    def decide(unit: Unit) -> None:
        _decide_offer(unit, _acting_seat(unit, seat, None), price)

    return commands.run(
        match_id=match_id, actor=actor, expected_version=expected_version, decide=decide, locate=commands.OFFER
    )


def _decide_offer(unit: Unit, buyer: Seat, price: Any) -> None:
    event = LeadOffered(buyer=buyer.name, price=price)
    unit.state = apply(unit.state, event)
    unit.emit(event)


def lead_decide(
    *,
    match_id,
    actor,
    offer: int | None = None,
    keep: bool = False,
    expected_version: int | None = None,
) -> CommandResult:
    """R28: the lead holder accepts the offer made by event ``offer`` (its seq), or keeps the lead."""
    if keep == (offer is not None):
        raise InvalidInput(gettext('send either {"offer": <event seq>} or {"keep": true}'), field="offer")

    def decide(unit: Unit) -> None:
        deal, due = unit.state.deal, unit.state.next_deal
        if deal is not None or (due is not None and due.lead_for_sale):  # else the engine says why not
            holder = unit.state.lead_holder
            if _acting_seat(unit, None, holder) != holder:
                raise NotAllowed(gettext("only the lead holder (or the scorer) decides on the offers"))
        _decide_lead(unit, None if keep else _offer_index(unit, offer))

    return commands.run(
        match_id=match_id, actor=actor, expected_version=expected_version, decide=decide, locate=commands.DECISION
    )


def _offer_index(unit: Unit, seq: Any) -> int:
    """The place among the standing offers (the deal's, or the next deal's before it is dealt or
    filed) of the lead_offered event ``seq``: they are the latest lead_offered events."""
    offers = [item.seq for item in standing_offers_of(unit.match, len(unit.state.lead_offers))]
    if seq not in offers or isinstance(seq, bool):
        raise InvalidInput(
            gettext("%(seq)s is not the seq of a standing lead offer of this deal") % {"seq": repr(seq)}, field="offer"
        )
    return offers.index(seq)


def _decide_lead(unit: Unit, index: int | None) -> None:
    unit.state = unit.state.decide_lead(index, seat=unit.state.lead_holder)
    if index is None:
        unit.emit(LeadKept())
    else:
        offer = unit.state.lead_offers[index]
        unit.emit(LeadSold(offer_index=index, buyer=offer.buyer.name, price=offer.price))


def deal_tally(
    *,
    match_id,
    actor,
    tally: Any = None,
    points: Any = None,
    sale: Any = None,
    expected_version: int | None = None,
) -> CommandResult:
    """The next deal of a recorded match, filed whole from the paper sheet by its scorer or one of
    its seated players (who then files, and does not confirm, its result): its
    ``tally`` (R31, R32) or only its ``points`` (R33), with the ``sale`` of a compensating
    odgrywka's lead ``{"buyer": seat, "price": tricks}`` when it was sold. One event."""

    def decide(unit: Unit) -> None:
        seated = seat_of(unit.match, unit.actor) is not None  # a table's player files his own table's sheet
        if unit.match.dealing != Match.Dealing.RECORDED or not (seated or is_scorer(unit.match, unit.actor)):
            raise NotAllowed(
                gettext("only the scorer of a recorded match or a player seated in it files deals from a paper sheet")
            )
        require_consented_seats(unit.match, unit.actor, Seat)  # a tally files every seat's result
        if seated and unit.match.filed_by_official:
            # a player's sheet is no officials' filing: two other seated players confirm it (issue 23)
            unit.match.filed_by_official = unit.columns["filed_by_official"] = False
            unit.match.confirmed = unit.columns["confirmed"] = False
        _decide_tally(unit, tally=tally, points=points, sale=sale)

    return commands.run(
        match_id=match_id, actor=actor, expected_version=expected_version, decide=decide, locate=commands.TALLY
    )


def _decide_tally(unit: Unit, *, tally: Any, points: Any, sale: Any, both: bool = False) -> None:
    """R31–R33 through the engine (which checks match_over, bad_tally, sale_not_allowed, bad_sale in
    that order); the error names the deal it was meant to be."""
    number = unit.state.schedule.played + 1
    try:
        unit.state = unit.state.file_deal(tally=tally, points=points, sale=_sale_offer(sale), both=both)
    except RuleViolation as violation:
        raise violation.located(deal=number) from None
    unit.emit(_filed_event(DealTallied, unit, sale))


def _sale_offer(sale: Any) -> tuple[Any, Any] | None:
    """The engine's ``(buyer, price)`` of a sale as the body gives it (R26, R28), or ``bad_sale``."""
    if sale is not None and (
        not isinstance(sale, dict) or set(sale) != {"buyer", "price"} or not isinstance(sale["buyer"], str)
    ):
        raise errors.BadSale(detail=gettext("a sale gives the buyer's seat and the price in tricks"))
    return None if sale is None else (sale["buyer"], sale["price"])


def _filed_event(cls: type[DealTallied], unit: Unit, sale: Any) -> DealTallied:
    """The event of the latest deal as the engine filed it (``deal_tallied`` or ``deal_corrected``)."""
    result = unit.state.results[-1]
    return cls(
        number=result.number,
        kind=result.kind.value,
        entry=result.entry,
        **{result.entry: result.filed},
        # a sale decided through lead_offered/lead_sold events is theirs to tell
        sale=None if sale is None else Sale(buyer=result.sale[0].name, price=result.sale[1]),
    )


def deal_correct(
    *,
    match_id,
    actor,
    tally: Any = None,
    points: Any = None,
    sale: Any = None,
    expected_version: int | None = None,
) -> CommandResult:
    """Issue 23, item 3: the latest deal filed from a paper sheet, filed again in its place — one
    ``deal_corrected`` event, replayed by the engine (``correct_last_deal``: only that deal, before
    the next one starts; R31–R33, R7). Its scorer corrects it while no signature counts for the
    result; once one does, only an arbiter of the match (never one who plays in it). A confirmed
    result that changes loses its signatures (``commands._reconfirm``), and the deal's scores and
    the standings follow."""

    reopened: list[bool] = []

    def decide(unit: Unit) -> None:
        _admit_correction(unit)
        number = unit.state.results[-1].number if unit.state.results else 1
        try:
            unit.state = unit.state.correct_last_deal(tally=tally, points=points, sale=_sale_offer(sale))
        except RuleViolation as violation:
            raise violation.located(deal=number) from None
        unit.emit(_filed_event(DealCorrected, unit, sale))
        if unit.match.status == Match.Status.FINISHED and not unit.state.complete:
            unit.match.status = Match.Status.IN_PROGRESS  # the corrected deal calls for a compensating one (R7)
            reopened.append(True)

    with transaction.atomic():
        result = commands.run(
            match_id=match_id,
            actor=actor,
            expected_version=expected_version,
            decide=decide,
            ended_too=True,
            locate=commands.TALLY,
        )
        match, number = result.match, result.events[-1].payload["number"]
        DealScore.objects.filter(match=match, number=number).delete()  # the corrected deal's rows, as it now counts
        DealScore.objects.bulk_create(deal_score_rows(match, result.state, number, number))
        if reopened:  # a finished match the runner announces itself; one re-opened leaves the standings
            announce_result(Match, match_id=match.pk, status=match.status)
    return result


def _admit_correction(unit: Unit) -> None:
    """Who corrects a filed deal: its scorer (not seated) before any signature counts for the
    result, an uninvolved arbiter of the match at any time; an abandoned match is closed."""
    match, actor, role = unit.match, unit.actor, unit.role
    if match.status == Match.Status.ABANDONED:
        raise MatchClosed(
            gettext("the match is %(status)s; nothing more can be recorded")
            % {"status": str(match.get_status_display()).lower()}
        )
    signed = bool(confirmation.signed_now(unit.projection.summary)) if unit.projection else False
    if role.may_rule:
        return
    if not signed:
        if role.kind == Role.SCORER and is_scorer(match, actor):
            return
        raise NotAllowed(
            gettext("only the scorer of the match or its arbiter corrects a deal filed from a paper sheet")
        )
    require_arbiter(match, actor, role, what=gettext("a correction of a signed result"))


def match_abandon(*, match_id, actor, reason: str = "", expected_version: int | None = None) -> CommandResult:
    if not isinstance(reason, str) or len(reason) > 500 or "\x00" in reason:
        raise InvalidInput(gettext("reason must be text of at most 500 characters, without NUL"), field="reason")

    def decide(unit: Unit) -> None:
        if not (is_scorer(unit.match, actor) or actor.is_staff or seat_of(unit.match, actor) is not None):
            raise NotAllowed(gettext("only the seated players, the scorer or staff may abandon a match"))
        unit.emit(MatchAbandoned(reason=reason))
        unit.match.status = Match.Status.ABANDONED

    return commands.run(match_id=match_id, actor=actor, expected_version=expected_version, decide=decide)


def record_import(*, actor, record: Any, allow_duplicate: bool = False) -> Match:
    """A ``kierki-match/1`` record filed as a recorded match, through the same decisions as live
    play, all or nothing. Unknown player names become guest profiles. A record whose players and
    deals equal a match already stored is refused (``DuplicateRecord``) unless ``allow_duplicate``."""
    try:
        decoded = records.decode(record)
    except RecordFormatError as exc:
        raise InvalidInput(engine_message(exc), field=exc.field or None) from None
    if not decoded.deals:  # nothing to file: the match would have no deal event (issue 30, finding 7)
        raise InvalidInput(
            gettext("deals must hold at least one deal: a record without deals files nothing"), field="deals"
        )
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
        unit = Unit(match, projection, restore(projection.snapshot), actor)
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
        commands.append(unit)
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
