"""Input and output serializers of the audit, time-travel, dispute and ruling endpoints (shapes
only: ``games.read.inspection`` and ``games.write.disputes`` decide everything)."""

from __future__ import annotations

from rest_framework import serializers

from games.domain.ids import BIGINT_MAX
from games.domain.projections import RULING_TYPES
from games.models import Dispute, Match, MatchEvent

from .analysis_serializers import DisputeAnalysisSerializer
from .serializers import (
    DealSummarySerializer,
    EventTimeField,
    LastTrickSerializer,
    NextDealSerializer,
    PayloadField,
    RuleErrorSerializer,
    SaleSerializer,
    SeatHands,
    SeatInts,
    TrickCardSerializer,
    card_field,
    seat_field,
)

# --- the audit ------------------------------------------------------------------------------------------


class ChainCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    first_bad_seq = serializers.IntegerField(allow_null=True, help_text="Where the chain first breaks.")
    reason = serializers.CharField(
        allow_null=True,
        help_text="Why: an edited event or forged hash (hash mismatch), a missing, reordered, inserted or extra event.",
    )


class RulesCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    first_bad_seq = serializers.IntegerField(allow_null=True, help_text="The first event the engine rejects.")
    error = RuleErrorSerializer(allow_null=True, help_text="Its R30 error object.")


class CommitmentsCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    first_bad_deal = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


class SealSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="`kierki-seal/1`")
    match = serializers.CharField()
    seq = serializers.IntegerField()
    hash = serializers.CharField(help_text="The event's stored hash, unchanged.")
    previous = serializers.CharField(help_text="The hash before it.")
    digest = serializers.CharField(help_text="SHA-256 of the redacted event's canonical body.")
    public_key = serializers.CharField()
    signature = serializers.CharField(help_text="Ed25519, base64, over the canonical JSON of the fields above.")


class AuditEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=MatchEvent.Type.choices)
    actor = serializers.CharField(
        allow_null=True,
        help_text="The acting person's public id, as hashed (a username in events stored before issue 28).",
    )
    created_at = EventTimeField(help_text="The event's time, ISO 8601 UTC with microseconds, as hashed.")
    payload = PayloadField(help_text="As stored: nothing is redacted.")
    hash = serializers.CharField()
    seal = SealSerializer(
        required=False,
        help_text="Only on a legacy event redacted at an erasure (docs/privacy.md): the server's signature "
        "vouching for its link, which the redacted body no longer hashes to.",
    )


class AuditDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    entry = serializers.ChoiceField(
        choices=["played", "tally", "points"],
        help_text=("Played card by card, or filed from a paper sheet by its tally (R31) or only its points (R33)."),
    )
    seq = serializers.IntegerField(help_text="The event that began the deal (deal_started or deal_tallied).")


class AuditSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    version = serializers.IntegerField()
    ok = serializers.BooleanField(help_text="All three checks pass.")
    chain = ChainCheckSerializer()
    rules = RulesCheckSerializer()
    commitments = CommitmentsCheckSerializer()
    deals = AuditDealSerializer(many=True, help_text="How each deal was filed, in log order.")
    events = AuditEventSerializer(many=True, help_text="The full log as stored, by seq.")


# --- time travel ------------------------------------------------------------------------------------------


class TimeTravelQuery(serializers.Serializer):
    at = serializers.IntegerField(min_value=1, help_text="The seq of the event after which to show the state.")


class OfferAtSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    buyer = seat_field()
    price = serializers.IntegerField()


class LeadSaleAtSerializer(serializers.Serializer):
    can_sell = serializers.BooleanField()
    holder = seat_field()
    decided = serializers.BooleanField()
    offers = OfferAtSerializer(many=True)
    sale = SaleSerializer(allow_null=True)


class DealAtSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    dealer = seat_field()
    leader = seat_field()
    compensating = serializers.BooleanField()
    hands = SeatHands(help_text="Every hand as it stood then (cards not yet played).")
    dealt = SeatHands(help_text="Every hand as dealt.")
    trick = TrickCardSerializer(many=True)
    last_trick = LastTrickSerializer(allow_null=True)
    tricks = SeatInts()
    tricks_completed = serializers.IntegerField()
    plays = serializers.IntegerField()
    to_play = seat_field(allow_null=True)
    legal_cards = serializers.ListField(child=card_field(), help_text="The seat on turn's legal cards then.")
    lead_sale = LeadSaleAtSerializer()


class StateAtSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    at = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The match's version now.")
    role = serializers.ChoiceField(choices=["player", "scorer", "arbiter"])
    seat = seat_field(allow_null=True)
    event = AuditEventSerializer(help_text="Event `at` itself.")
    complete = serializers.BooleanField()
    totals = SeatInts()
    deals = DealSummarySerializer(many=True, help_text="The deals finished by then, rulings included.")
    next_deal = NextDealSerializer(allow_null=True)
    deal = DealAtSerializer(allow_null=True, help_text="The deal in play then; null between deals.")


# --- disputes and rulings ------------------------------------------------------------------------------------


class DisputeInput(serializers.Serializer):
    deal = serializers.IntegerField(min_value=1, help_text="The deal's number (1-based), dealt already.")
    play_index = serializers.IntegerField(
        min_value=0, required=False, allow_null=True, help_text="The disputed play (0-based within the deal), if one."
    )
    statement = serializers.CharField(max_length=5000, help_text="What is disputed, in the raiser's words.")


class RulingInput(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(RULING_TYPES))
    points = SeatInts(
        required=False, allow_null=True, help_text="score_adjusted only: the points that count for the deal, per seat."
    )
    reason = serializers.CharField(max_length=2000, help_text="Why (required).")
    override = serializers.CharField(
        max_length=2000,
        required=False,
        allow_null=True,
        help_text="score_adjusted only: why points outside worst..best of the "
        "analysis at the disputed position are ruled anyway (without it, "
        "such a ruling is refused: `ruling_outside_analysis`).",
    )


class RulingSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The seq of its ruling_recorded event in the match log.")
    type = serializers.ChoiceField(choices=list(RULING_TYPES))
    deal = serializers.IntegerField()
    points = SeatInts(allow_null=True)
    reason = serializers.CharField()
    arbiter = serializers.CharField()
    time = serializers.DateTimeField()
    override = serializers.CharField(allow_null=True, help_text="Why points outside the analysis were ruled.")


class DisputeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.UUIDField()
    deal = serializers.IntegerField()
    play_index = serializers.IntegerField(allow_null=True)
    statement = serializers.CharField()
    raised_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=Dispute.Status.choices)
    ruling_seq = serializers.IntegerField(allow_null=True, help_text="The seq of the ruling in force.")
    ruling = RulingSerializer(allow_null=True, help_text="The ruling in force (the latest).")
    rulings = RulingSerializer(many=True, help_text="Every ruling on it, oldest first; each supersedes the one before.")


class DisputeDetailSerializer(DisputeSerializer):
    analysis = DisputeAnalysisSerializer(
        allow_null=True,
        help_text="The analysis at the disputed position, for "
        "whoever may see it (null for a player while "
        "the deal is in play, or a deal without "
        "cards; null too while a job computes it: ask again after a few seconds).",
    )


class DisputeListQuery(serializers.Serializer):
    club = serializers.IntegerField(  # out of a bigint: 400 naming it, like every id filter (issue 29)
        required=False,
        min_value=-BIGINT_MAX - 1,
        max_value=BIGINT_MAX,
        help_text="Only this club's disputes (its arbiters, staff).",
    )
    status = serializers.ChoiceField(choices=Dispute.Status.choices, required=False)


class RulingResultSerializer(serializers.Serializer):
    dispute = DisputeSerializer()
    version = serializers.IntegerField(help_text="The match version after the ruling; also the ETag.")
    status = serializers.ChoiceField(
        choices=Match.Status.choices, help_text="in_progress again when a void re-opened a finished match."
    )
