"""Input and output serializers: one pair per operation, shapes only (no business logic).

Input serializers check JSON types; what a value means (a seat, a card, a ruleset option, a
legal play) is the services' and the engine's to decide, with their own error codes. Output
serializers render what ``games.read.selectors`` returns and document it in the OpenAPI schema.
Examples use placeholder cards: nobody's real hand.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.engine import Seat
from games.engine.ruleset import Kind
from games.models import Match, MatchEvent

from .versioning import is_v2, zulu

SEATS = [s.name for s in Seat]
KINDS = [k.value for k in Kind]
CARD_PATTERN = r"^[2-9TJQKA][SHDC]$"
CARD_HELP = "A card: rank 2-9/T/J/Q/K/A then suit S/H/D/C, e.g. `QS`, `TH`."


def card_field(**kwargs) -> serializers.RegexField:
    return serializers.RegexField(CARD_PATTERN, max_length=2, help_text=CARD_HELP, **kwargs)


def seat_field(**kwargs) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=SEATS, **kwargs)


def per_seat(name: str, make, doc: str) -> type[serializers.Serializer]:
    """A serializer with one field per seat N, E, S, W."""
    fields = {seat: make() for seat in SEATS}
    fields["__doc__"] = doc
    return type(name, (serializers.Serializer,), fields)


SeatNames = per_seat("SeatNames", lambda: serializers.CharField(max_length=150), "A username per seat.")
SeatInts = per_seat("SeatInts", serializers.IntegerField, "A number per seat.")
SeatHands = per_seat("SeatHands", lambda: serializers.ListField(child=card_field()), "Thirteen cards per seat.")


# --- shared pieces ----------------------------------------------------------------------------


class RulesetSerializer(serializers.Serializer):
    name = serializers.CharField(default="rozbojnik-odgrywka")
    version = serializers.IntegerField(default=1)
    options = serializers.DictField(
        default=dict,
        help_text='Only what differs from RULES.md\'s defaults: `regular_deals` (list of "R"/"O"), '
        '`heart_discard` ("king_first" | "descending"), `last_tricks` (two trick numbers 1-13).',
    )


class _DealHeading(serializers.Serializer):
    # The fields every deal's serializer starts with: which deal, its kind, who deals and leads it,
    # compensating or not. Never a component itself; no docstring, which would describe the
    # serializers below that have none of their own.
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    dealer = seat_field()
    leader = seat_field()
    compensating = serializers.BooleanField()


class NextDealSerializer(_DealHeading):
    pass


class DealSummarySerializer(_DealHeading):
    """One finished deal of the replay summary (RECORD_FORMAT.md, R29)."""

    leader = seat_field(help_text="Who led the first trick (after a sale: the buyer).")  # (in its place above)
    tricks = SeatInts(allow_null=True, help_text="Null for a points-only deal: the sheet does not tell (R33).")
    points = SeatInts()
    kreski = SeatInts()
    multiplier = serializers.IntegerField()
    entry = serializers.ChoiceField(
        choices=["played", "tally", "points"],
        default="played",
        help_text=(
            "How the deal was filed: played card by card, or from a paper sheet by its tally (R31) or only its "
            "points (R33)."
        ),
    )
    voided = serializers.BooleanField(
        required=False, help_text="Present (true) when a ruling voided the deal: it no longer counts."
    )
    adjusted_points = SeatInts(
        required=False,
        help_text="Present when a ruling set the points that count for the deal; `points` stays the played result.",
    )


class SummaryRulingSerializer(serializers.Serializer):
    """An arbiter's ruling as the match summary lists it (a ``ruling_recorded`` event)."""

    seq = serializers.IntegerField()
    time = serializers.CharField()
    dispute = serializers.IntegerField()
    ruling = serializers.ChoiceField(choices=["no_change", "deal_voided", "score_adjusted"])
    deal = serializers.IntegerField()
    points = SeatInts(allow_null=True)
    reason = serializers.CharField()
    arbiter = serializers.CharField()
    superseded_by = serializers.IntegerField(
        allow_null=True, help_text="The seq of a later ruling on the same dispute; null for the ruling in force."
    )


class SummarySerializer(serializers.Serializer):
    """The replay summary of RECORD_FORMAT.md, with the next deal due and the match status."""

    complete = serializers.BooleanField()
    deals = DealSummarySerializer(many=True)
    totals = SeatInts()
    winners = serializers.ListField(child=seat_field())
    next_deal = NextDealSerializer(allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    rulings = SummaryRulingSerializer(many=True, default=list)


# --- matches ------------------------------------------------------------------------------------


class MatchCreateInput(serializers.Serializer):
    seats = SeatNames(help_text="The four players by username; each must be a user or a known player.")
    first_dealer = seat_field()
    dealing = serializers.ChoiceField(
        choices=Match.Dealing.choices,
        default=Match.Dealing.SERVER,
        help_text="`server`: the server deals (secretly, with a published "
        "commitment); `recorded`: the scorer enters the hands.",
    )
    ruleset = RulesetSerializer(required=False)
    scorer = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=150,
        help_text="The scorer's username. Default: the creator for a recorded match, nobody for a "
        "server-dealt one. Only staff may appoint someone else; the scorer of a "
        "server-dealt match may not sit at it (he would see every hand).",
    )
    season = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Join this open season: the four players must be members of its club, and the creator its "
        "scorer, arbiter or admin, or a member seated at the table; the league's ruleset is the "
        "default. 404 no such season, 409 closed.",
    )
    played_on = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="The date the match was played (YYYY-MM-DD), when it is filed later, e.g. from a paper "
        "sheet: standings and ratings date the match by it. Default: the time of its events.",
    )


class ConfirmingSeatSerializer(serializers.Serializer):
    seat = seat_field()
    player = serializers.CharField(help_text="The username who confirmed for his seat.")
    seq = serializers.IntegerField(help_text="The seq of his result_confirmed event.")


class ConfirmationSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["awaiting", "confirmed"],
        help_text=(
            "`confirmed`: the result counts (standings, ratings, profiles) once the match is finished; `awaiting`: "
            "two seated players who did not file it must confirm its sheet (or dispute it)."
        ),
    )
    rule = serializers.ChoiceField(
        choices=["filed", "players", "online"],
        allow_null=True,
        help_text=(
            "`filed`: filed by officials (staff, the club's scorers, arbiters, admins) none of whom is seated; "
            "`players`: confirmed by two seated players who did not file it; `online`: dealt by the server, each "
            "seat's cards played by its own user."
        ),
    )
    filed_by = serializers.ListField(child=serializers.CharField(), help_text="Its creator and its scorer.")
    by = ConfirmingSeatSerializer(many=True, help_text="The seats that confirmed the sheet, in log order.")
    needed = serializers.IntegerField(help_text="How many seats must confirm (rule `players`).")


class WithdrawalSerializer(serializers.Serializer):
    reason = serializers.CharField()
    by = serializers.CharField(help_text="The arbiter who withdrew it.")
    seq = serializers.IntegerField(help_text="The seq of its match_withdrawn event.")
    time = serializers.DateTimeField()


class MatchSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    version = serializers.IntegerField(help_text="The seq of the last event; also the ETag.")
    dealing = serializers.ChoiceField(choices=Match.Dealing.choices)
    first_dealer = seat_field()
    season = serializers.IntegerField(allow_null=True, help_text="The season it was filed into (null: none).")
    seats = SeatNames()
    scorer = serializers.CharField(allow_null=True)
    ruleset = RulesetSerializer()
    created_at = serializers.DateTimeField()
    played_on = serializers.DateField(allow_null=True, help_text="The date of play, when given (else null).")
    complete = serializers.BooleanField()
    deals = DealSummarySerializer(many=True)
    totals = SeatInts()
    winners = serializers.ListField(child=seat_field())
    next_deal = NextDealSerializer(allow_null=True, help_text="The deal due next (null while one is in play).")
    rulings = SummaryRulingSerializer(many=True, default=list, help_text="The arbiters' rulings, in log order.")
    confirmation = ConfirmationSerializer(help_text="Whether the table signed its result (games.domain.confirmation).")
    withdrawn = serializers.BooleanField(help_text="Withdrawn by an arbiter: it counts for nothing.")
    withdrawal = WithdrawalSerializer(allow_null=True, help_text="The withdrawal in force, if withdrawn.")


# --- the state ------------------------------------------------------------------------------------


class TrickCardSerializer(serializers.Serializer):
    seat = seat_field()
    card = card_field()


class LastTrickSerializer(serializers.Serializer):
    winner = seat_field()
    cards = TrickCardSerializer(many=True)


class OfferSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The seq of its lead_offered event: what lead-decision takes.")
    buyer = seat_field()
    price = serializers.IntegerField()


class SaleSerializer(serializers.Serializer):
    buyer = seat_field()
    price = serializers.IntegerField()


@extend_schema_field(SaleSerializer)
class SaleField(serializers.JSONField):
    pass


class LeadSaleSerializer(serializers.Serializer):
    can_sell = serializers.BooleanField(help_text="R26/R28: offers and a decision are possible now.")
    holder = seat_field(help_text="Who holds the lead right before any sale.")
    decided = serializers.BooleanField()
    offers = OfferSerializer(many=True)
    sale = SaleSerializer(allow_null=True)


class DealStateSerializer(_DealHeading):
    hand = serializers.ListField(
        child=card_field(), allow_null=True, help_text="The viewer's own cards (null when not seated)."
    )
    hands = SeatHands(allow_null=True, help_text="Every hand: for the scorer and staff only, else null.")
    trick = TrickCardSerializer(many=True, help_text="The cards of the trick in play.")
    last_trick = LastTrickSerializer(allow_null=True)
    tricks = SeatInts(help_text="Tricks taken so far per seat.")
    tricks_completed = serializers.IntegerField()
    plays = serializers.IntegerField(help_text="Cards played so far in this deal.")
    to_play = seat_field(allow_null=True)
    legal_cards = serializers.ListField(
        child=card_field(),
        help_text="A player: his legal cards when on turn (else empty). Scorer/staff: the seat on turn's.",
    )
    lead_sale = LeadSaleSerializer()


class StateSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    role = serializers.ChoiceField(
        choices=["player", "scorer", "arbiter"],
        help_text="What you are to the match: seated → player, whatever else you are.",
    )
    seat = seat_field(allow_null=True)
    complete = serializers.BooleanField()
    totals = SeatInts()
    next_deal = NextDealSerializer(allow_null=True)
    deal = DealStateSerializer(allow_null=True, help_text="The deal in play, null between deals.")


# --- commands and events ------------------------------------------------------------------------------


class DealInput(serializers.Serializer):
    hands = SeatHands(required=False, help_text="Recorded matches only: the four hands as dealt.")


class PlayInput(serializers.Serializer):
    card = card_field()
    seat = seat_field(
        required=False,
        help_text="Who plays: the scorer's choice (default: the seat on turn); a player may only name his own seat.",
    )


class LeadOfferInput(serializers.Serializer):
    price = serializers.IntegerField(help_text="Tricks offered for the lead right, 1-13 (R26).")
    seat = seat_field(required=False, help_text="The buyer: the scorer must name it; a player offers for himself.")


# --- deals filed from a paper sheet (R31–R33): typed for clients, judged by the rules --------------
# The inputs stay JSON fields (the engine, not DRF, says what is wrong: 422 ``bad_tally``); these
# serializers only describe them in the schema, so that a generated client types a tally.


class RozbojnikTakeSerializer(serializers.Serializer):
    """What one player took in a tallied rozbójnik (R31): every key, whole numbers (R32 a)."""

    tricks = serializers.IntegerField(min_value=0, max_value=13)
    hearts = serializers.IntegerField(min_value=0, max_value=13, help_text="Every heart, QH JH KH included.")
    queens = serializers.IntegerField(min_value=0, max_value=4, help_text="All four, QH included.")
    kings_jacks = serializers.IntegerField(
        min_value=0, max_value=8, help_text="Every king and jack, KH and JH included."
    )
    king_of_hearts = serializers.BooleanField(help_text="True for the player who took KH.")
    last_tricks = serializers.IntegerField(min_value=0, max_value=2, help_text="How many of the two last tricks.")


class OdgrywkaTakeSerializer(serializers.Serializer):
    """What one player took in a tallied odgrywka (R31): his tricks only."""

    tricks = serializers.IntegerField(min_value=0, max_value=13)


# The two forms of a seat's entry; api/schema_hooks.py closes both (no other key: R32 a), so that
# a rozbójnik entry is not also an odgrywka one.
TAKE_FORMS = ("RozbojnikTake", "OdgrywkaTake")


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="SeatTake",
        serializers=[RozbojnikTakeSerializer, OdgrywkaTakeSerializer],
        resource_type_field_name=None,
    )
)
class SeatTakeField(serializers.JSONField):
    pass


Tally = per_seat(
    "Tally",
    SeatTakeField,
    "Per seat N, E, S, W what the player took (R31): in a rozbójnik `tricks`, `hearts`, `queens`, "
    "`kings_jacks`, `king_of_hearts`, `last_tricks`; in an odgrywka only `tricks`.",
)
SeatPoints = per_seat(
    "SeatPoints",
    serializers.IntegerField,
    "Per seat N, E, S, W the points written on the sheet (after multipliers, before the sale transfer: R33).",
)


@extend_schema_field(Tally)
class TallyField(serializers.JSONField):
    pass


@extend_schema_field(SeatPoints)
class PointsField(serializers.JSONField):
    pass


class TallyInput(serializers.Serializer):
    """A deal filed from a paper sheet. The rules (R32, R33) judge ``tally`` and ``points``, not this
    serializer: anything wrong in them is 422 ``bad_tally``."""

    tally = TallyField(required=False, help_text="What each player took (R31).")
    points = PointsField(required=False, help_text="Only the points written on the sheet (R33).")
    sale = SaleField(
        required=False,
        help_text=('The lead right of a compensating odgrywka sold (R26): `{"buyer": "S", "price": 2}`.'),
    )


class LeadDecisionInput(serializers.Serializer):
    offer = serializers.IntegerField(required=False, help_text="Accept the offer with this event seq.")
    keep = serializers.BooleanField(required=False, help_text="Keep the lead (send `true` instead of `offer`).")


@extend_schema_field(OpenApiTypes.OBJECT)
class PayloadField(serializers.JSONField):
    pass


class EventTimeField(serializers.CharField):
    """An event's time as stored and hashed (``…+00:00``) in v1; its ``Z`` form in v2, from which a
    client re-derives the hashed text by turning the final ``Z`` back into ``+00:00``."""

    def to_representation(self, value):
        text = super().to_representation(value)
        return zulu(text) if is_v2(self.context.get("request")) else text


def event_in_v2(event: dict) -> dict:
    """An event already in its JSON form (a command's answer), with its time in v2's form."""
    return {**event, "created_at": zulu(event["created_at"])}


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=MatchEvent.Type.choices)
    payload = PayloadField(help_text="As stored, except redacted parts (see `redacted`).")
    actor = serializers.CharField(
        allow_null=True,
        help_text="The acting person's public id, as hashed (a username in events stored before issue 28).",
    )
    created_at = EventTimeField(
        help_text="ISO 8601 in UTC with microseconds, exactly as hashed, e.g. `2025-05-01T18:02:03.123456+00:00`."
    )
    hash = serializers.CharField(
        allow_null=True,
        help_text="SHA-256 over the previous event's hash and this "
        "event's canonical JSON (docs/audit.md); null while redacted.",
    )
    redacted = serializers.BooleanField(
        help_text="True while a recorded deal is in play and the viewer is a player: the deal_started "
        "hands show only his own seat, and hashes (which cover the hidden hands) are withheld."
    )


class EventsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    after = serializers.IntegerField()
    events = EventSerializer(many=True)


class CommandResultSerializer(serializers.Serializer):
    """A command's answer: what it appended, and what the client needs next without another read."""

    version = serializers.IntegerField(help_text="The match version after the command; also the ETag.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    events = EventSerializer(many=True, help_text="The events the command appended.")
    trick_completed = LastTrickSerializer(
        allow_null=True,
        help_text="The trick this command's card completed, with its winner (who leads next); "
        "null when no trick was completed.",
    )
    deal_ended = DealSummarySerializer(
        allow_null=True, help_text="The deal this command's card ended (R29: tricks, points, kreski); else null."
    )
    state = StateSerializer(
        help_text="The match right after the command as the actor may see it, exactly as "
        "`GET state/` would answer: whose turn (`deal.to_play`), the trick so far, "
        "the actor's `legal_cards` when he is on turn again, `next_deal` when a deal "
        "is due, the match `status`."
    )
    next_move = StateSerializer(
        allow_null=True,
        help_text="With `?wait=<seconds>` (at most 30): the actor's state once it is his move again "
        "(as `GET state/?until=move` would answer), waited for after the command; null "
        "without `wait`, when `state` already is his move, or when nothing came in time.",
    )


# --- records ------------------------------------------------------------------------------------


class RecordRulesetSerializer(serializers.Serializer):
    name = serializers.CharField(default="rozbojnik-odgrywka")
    options = serializers.DictField(default=dict)


class RecordDealSerializer(serializers.Serializer):
    """A played deal (``hands`` and ``plays``) or, RECORD_FORMAT.md 1.1, one filed from a paper sheet
    (``tally`` or ``points``): exactly one of the three forms."""

    hands = SeatHands(required=False)
    sale = SaleSerializer(required=False, help_text="R26: the lead right sold in a compensating odgrywka.")
    plays = serializers.ListField(
        child=card_field(), required=False, help_text="Cards in the order played; 52 when finished."
    )
    tally = TallyField(required=False, help_text="What each player took (R31).")
    points = PointsField(required=False, help_text="Only the points written on the sheet (R33).")


class RecordSerializer(serializers.Serializer):
    """A ``kierki-match/1`` record (RECORD_FORMAT.md)."""

    format = serializers.ChoiceField(choices=["kierki-match/1"])
    ruleset = RecordRulesetSerializer()
    players = SeatNames(help_text="Names (usernames) per seat; an unknown name becomes a guest player.")
    first_dealer = seat_field()
    played_on = serializers.DateField(required=False, help_text="The date of play, YYYY-MM-DD (version 1.1).")
    deals = RecordDealSerializer(many=True)


class ImportResultSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    summary = SummarySerializer()


# --- auth and errors --------------------------------------------------------------------------------


class TokenInput(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")


class RuleErrorSerializer(serializers.Serializer):
    """The R30 error object of RECORD_FORMAT.md."""

    code = serializers.CharField()
    deal = serializers.IntegerField(allow_null=True, help_text="1-based.")
    play_index = serializers.IntegerField(allow_null=True, help_text="0-based within the deal's plays.")
    seat = seat_field(allow_null=True)
    card = serializers.CharField(allow_null=True)


class ProblemSerializer(serializers.Serializer):
    """An error, as ``application/problem+json`` (RFC 9457)."""

    type = serializers.CharField(help_text="`/api/v1/problems/<code>/` (GET it for a description).")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(
        help_text="An R30 code (e.g. `must_follow_suit`) or a request-level one "
        "(`invalid`, `not_allowed`, `version_mismatch`, ...)."
    )
    rule = serializers.CharField(required=False, help_text="The rule id broken (e.g. `R11`).")
    error = RuleErrorSerializer(required=False)
    field = serializers.CharField(required=False, help_text="The offending input, e.g. `card`, `deals[2].plays[17]`.")
    errors = serializers.DictField(required=False, help_text="Field → messages, for bad input.")
    current_version = serializers.IntegerField(required=False, help_text="On 412: the match's version now.")


class ProblemTypeSerializer(serializers.Serializer):
    code = serializers.CharField()
    type = serializers.CharField()
    status = serializers.IntegerField()
    title = serializers.CharField()
    rule = serializers.CharField(allow_null=True)
    description = serializers.CharField()


class ReasonInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why (kept in the match log).")
