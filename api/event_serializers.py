"""The match events in the schema: one component per kind, discriminated by ``type``.

``EventSerializer`` (api/serializers.py) renders every event the same way at run time: its
``payload`` is whatever the event stored. In the OpenAPI document ``Event`` is instead the union
of one component per ``MatchEvent.Type`` (``CardPlayedEvent``: ``type`` the constant
``card_played``, ``payload`` a ``CardPlayedPayload``), so that a generated client narrows an
event by its ``type`` and reads its payload without a cast. The payload serializers follow
``games.domain.event_types`` (the keys each event stores); tests/api/test_api_contract.py checks that
every event type has its component and that real payloads validate against them.
Schema only: nothing here renders or parses a request.
"""

from __future__ import annotations

import copy

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.domain.projections import RULING_TYPES
from games.models import Match, MatchEvent

from .audit_serializers import AuditEventSerializer
from .serializers import (
    KINDS,
    EventSerializer,
    RulesetSerializer,
    SaleSerializer,
    SeatHands,
    SeatInts,
    SeatNames,
    SeatPoints,
    Tally,
    card_field,
    per_seat,
    seat_field,
)

T = MatchEvent.Type


def const(value: str, **kwargs) -> serializers.CharField:
    """A field whose schema is the one value it always holds (OpenAPI 3.1 ``const``): what a
    client narrows a union by. (Not an enum: one value is not a choice.) A class per value, as
    DRF rebuilds a field instance from its arguments and would drop an annotation on it."""
    schema = {"type": "string", "const": value}
    if kwargs.get("help_text"):
        schema["description"] = kwargs["help_text"]
    field_class = extend_schema_field(schema)(type("ConstField", (serializers.CharField,), {}))
    return field_class(**kwargs)


# --- the payloads, as games.domain.event_types stores them -------------------------------------------------


class MatchCreatedPayloadSerializer(serializers.Serializer):
    seats = SeatNames()
    first_dealer = seat_field()
    ruleset = RulesetSerializer()
    dealing = serializers.ChoiceField(choices=Match.Dealing.choices)
    scorer = serializers.CharField(allow_null=True)
    played_on = serializers.DateField(required=False, help_text="The date of play, when not the filing's.")


SeenHands = per_seat(
    "SeenHands",
    lambda: serializers.ListField(child=card_field(), required=False),
    "Thirteen cards per seat; while redacted, only the viewer's own seat.",
)


class DealStartedPayloadSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    dealer = seat_field()
    leader = seat_field()
    compensating = serializers.BooleanField()
    commitment = serializers.CharField(
        required=False, help_text="A server-dealt deal: SHA-256 of the hands and a salt, revealed when it ends."
    )
    hands = SeenHands(required=False, help_text="A recorded deal: the hands as dealt.")


class LeadOfferedPayloadSerializer(serializers.Serializer):
    buyer = seat_field()
    price = serializers.IntegerField()


class LeadSoldPayloadSerializer(serializers.Serializer):
    offer_index = serializers.IntegerField(help_text="Which of the standing offers, 0-based.")
    buyer = seat_field()
    price = serializers.IntegerField()


@extend_schema_field({"type": "object", "additionalProperties": False, "description": "Empty."})
class EmptyPayloadField(serializers.JSONField):
    pass


class CardPlayedPayloadSerializer(serializers.Serializer):
    seat = seat_field()
    card = serializers.CharField()


class HandsRevealedPayloadSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    hands = SeatHands()
    salt = serializers.CharField()


class ReasonPayloadSerializer(serializers.Serializer):
    reason = serializers.CharField()


class RulingRecordedPayloadSerializer(serializers.Serializer):
    dispute = serializers.IntegerField()
    ruling = serializers.ChoiceField(choices=list(RULING_TYPES))
    deal = serializers.IntegerField()
    points = SeatInts(allow_null=True, help_text="`score_adjusted`: the points that count, per seat; else null.")
    reason = serializers.CharField()
    arbiter = serializers.CharField()
    override = serializers.CharField(required=False, help_text="Why points outside the analysis were ruled.")


class ResultConfirmedPayloadSerializer(serializers.Serializer):
    seat = seat_field()
    by = serializers.CharField()


class ArbiterReasonPayloadSerializer(serializers.Serializer):
    reason = serializers.CharField()
    by = serializers.CharField()


class TallyEntryPayloadSerializer(serializers.Serializer):
    """A deal filed by its tally (R31)."""

    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    entry = const("tally")
    tally = Tally()
    sale = SaleSerializer(required=False)


class PointsEntryPayloadSerializer(serializers.Serializer):
    """A deal filed by its points only (R33)."""

    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    entry = const("points")
    points = SeatPoints()
    sale = SaleSerializer(required=False)


# R31–R33: the payload holds the one form ``entry`` names.
DealTalliedPayload = PolymorphicProxySerializer(
    component_name="DealTalliedPayload",
    serializers={"tally": TallyEntryPayloadSerializer, "points": PointsEntryPayloadSerializer},
    resource_type_field_name="entry",
)


@extend_schema_field(DealTalliedPayload)
class DealTalliedPayloadField(serializers.JSONField):
    pass


# type → (component name stem, payload serializer or field)
PAYLOADS = {
    T.MATCH_CREATED: ("MatchCreated", MatchCreatedPayloadSerializer),
    T.DEAL_STARTED: ("DealStarted", DealStartedPayloadSerializer),
    T.LEAD_OFFERED: ("LeadOffered", LeadOfferedPayloadSerializer),
    T.LEAD_SOLD: ("LeadSold", LeadSoldPayloadSerializer),
    T.LEAD_KEPT: ("LeadKept", EmptyPayloadField),
    T.CARD_PLAYED: ("CardPlayed", CardPlayedPayloadSerializer),
    T.HANDS_REVEALED: ("HandsRevealed", HandsRevealedPayloadSerializer),
    T.MATCH_ABANDONED: ("MatchAbandoned", ReasonPayloadSerializer),
    T.RULING_RECORDED: ("RulingRecorded", RulingRecordedPayloadSerializer),
    T.RESULT_CONFIRMED: ("ResultConfirmed", ResultConfirmedPayloadSerializer),
    T.MATCH_WITHDRAWN: ("MatchWithdrawn", ArbiterReasonPayloadSerializer),
    T.MATCH_REINSTATED: ("MatchReinstated", ArbiterReasonPayloadSerializer),
    T.DEAL_TALLIED: ("DealTallied", DealTalliedPayloadField),
    T.DEAL_CORRECTED: ("DealCorrected", DealTalliedPayloadField),  # the same payload: the entry now in force
}


def event_variant(event_type: str, base: type[serializers.Serializer] = EventSerializer, prefix: str = ""):
    """``<prefix><Kind>Event``: ``base``'s fields with ``type`` the constant and ``payload`` typed."""
    stem, payload = PAYLOADS[event_type]
    fields = {name: copy.deepcopy(field) for name, field in base._declared_fields.items()}
    fields["type"] = const(event_type)
    fields["payload"] = payload(help_text=base._declared_fields["payload"].help_text)
    fields["__doc__"] = f"A `{event_type}` event."
    return type(f"{prefix}{stem}EventSerializer", (serializers.Serializer,), fields)


EVENT_VARIANTS = {event_type: event_variant(event_type) for event_type in T.values}
# The audit's events (the log as stored, nothing redacted): the same payloads.
AUDIT_EVENT_VARIANTS = {event_type: event_variant(event_type, AuditEventSerializer, "Audit") for event_type in T.values}


def union_of(component: str, variants: dict, auto_schema, direction) -> dict:
    proxy = PolymorphicProxySerializer(component_name=component, serializers=variants, resource_type_field_name="type")
    return PolymorphicProxySerializerExtension(proxy).map_serializer(auto_schema, direction)


class EventSchema(OpenApiSerializerExtension):
    """``Event`` in the schema: the union of the kinds, discriminated by ``type``."""

    target_class = EventSerializer

    def map_serializer(self, auto_schema, direction):
        return union_of("Event", EVENT_VARIANTS, auto_schema, direction)


class AuditEventSchema(OpenApiSerializerExtension):
    """``AuditEvent``: the same union, of the audit's events."""

    target_class = AuditEventSerializer

    def map_serializer(self, auto_schema, direction):
        return union_of("AuditEvent", AUDIT_EVENT_VARIANTS, auto_schema, direction)
