"""The bodies the server POSTs to a club's webhook receivers, typed for the OpenAPI 3.1
``webhooks`` section (``WEBHOOKS``, added by ``api.schema_generator``) and as one union,
``WebhookBody``, discriminated by ``type`` (api/schema_hooks.py ``add_webhook_union``): a
receiver verifies ``X-Kierki-Signature`` over the raw body, parses it, and narrows it by
``type`` (docs/webhooks.md). The shapes follow ``webhooks.signing.body`` (the envelope) and
``webhooks.events`` / ``webhooks.services`` (each type's ``data``). Schema only."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework import serializers

from games.domain.projections import RULING_TYPES
from games.models import Match
from webhooks import events

from .event_serializers import const
from .serializers import KINDS, SeatInts, SeatNames, seat_field


class MatchDataSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    season = serializers.IntegerField(allow_null=True, help_text="The season the match is filed in (null: none).")
    version = serializers.IntegerField(help_text="The match's version when it was announced.")
    players = SeatNames()


class DealFinishedDataSerializer(MatchDataSerializer):
    deal = serializers.IntegerField(help_text="The deal's number, 1-based.")
    kind = serializers.ChoiceField(choices=KINDS)
    compensating = serializers.BooleanField()
    multiplier = serializers.IntegerField()
    tricks = SeatInts(allow_null=True, help_text="Null for a deal filed by its points only (R33).")
    points = SeatInts(help_text="As they count: 0 when voided, the arbiter's when adjusted.")
    kreski = SeatInts()
    totals = SeatInts(help_text="The match totals after this deal.")


class MatchFinishedDataSerializer(MatchDataSerializer):
    deals = serializers.IntegerField(help_text="The deals that count (not voided).")
    totals = SeatInts()
    winners = serializers.ListField(child=seat_field())


class MatchAbandonedDataSerializer(MatchFinishedDataSerializer):
    reason = serializers.CharField()


class RulingRecordedDataSerializer(MatchDataSerializer):
    dispute = serializers.IntegerField()
    ruling = serializers.ChoiceField(choices=list(RULING_TYPES))
    deal = serializers.IntegerField()
    points = SeatInts(allow_null=True, help_text="`score_adjusted`: the points that count, per seat; else null.")
    reason = serializers.CharField()
    arbiter = serializers.CharField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    totals = SeatInts()


class WithdrawalDataSerializer(MatchDataSerializer):
    reason = serializers.CharField(help_text="The arbiter's reason, as given.")
    by = serializers.CharField(help_text="The arbiter's username.")
    totals = SeatInts(help_text="The match totals (a withdrawn match counts for nothing in the standings).")


class ResultConfirmedDataSerializer(MatchDataSerializer):
    seat = seat_field()
    by = serializers.CharField(help_text="The username of the player who signed.")
    result = serializers.CharField(
        allow_null=True, help_text="The digest of the result signed (`confirmation.result_digest` in the match)."
    )


class StandingsUpdatedDataSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    name = serializers.CharField(help_text="The season's name.")
    league = serializers.IntegerField()
    club = serializers.IntegerField()
    standings = serializers.CharField(
        help_text="The path of the season's standings: `/api/v1/seasons/{id}/standings/`."
    )


class PingDataSerializer(serializers.Serializer):
    webhook = serializers.IntegerField()
    club = serializers.IntegerField()
    url = serializers.CharField()


# webhook event type → (component name stem, its data, what it announces)
BODIES = {
    events.DEAL_FINISHED: (
        "DealFinished",
        DealFinishedDataSerializer,
        "A deal ended: its last card was played, or it was filed from a paper sheet.",
    ),
    events.MATCH_FINISHED: ("MatchFinished", MatchFinishedDataSerializer, "A match ended (R7)."),
    events.MATCH_ABANDONED: ("MatchAbandoned", MatchAbandonedDataSerializer, "A match was abandoned."),
    events.RULING_RECORDED: ("RulingRecorded", RulingRecordedDataSerializer, "An arbiter ruled on a dispute."),
    events.STANDINGS_UPDATED: (
        "StandingsUpdated",
        StandingsUpdatedDataSerializer,
        "A season's standings were recomputed.",
    ),
    events.MATCH_WITHDRAWN: (
        "MatchWithdrawn",
        WithdrawalDataSerializer,
        "An arbiter withdrew the match (filed by mistake): it counts for nothing.",
    ),
    events.MATCH_REINSTATED: (
        "MatchReinstated",
        WithdrawalDataSerializer,
        "An arbiter took a withdrawal back: the match counts again.",
    ),
    events.RESULT_CONFIRMED: (
        "ResultConfirmed",
        ResultConfirmedDataSerializer,
        "A seated player confirmed (signed) the finished sheet.",
    ),
    events.PING: ("Ping", PingDataSerializer, "Sent on request (`POST /webhooks/{id}/ping/`)."),
}


def webhook_body(event_type: str) -> type[serializers.Serializer]:
    """``<Type>Webhook``: the envelope of ``webhooks.signing.body`` with ``type`` the constant."""
    stem, data, text = BODIES[event_type]
    fields = {
        "id": serializers.UUIDField(help_text="The delivery's id (`X-Kierki-Delivery`): the same on every retry."),
        "type": const(event_type),
        "created_at": serializers.DateTimeField(help_text="When it happened, UTC (`Z`)."),
        "data": data(),
        "__doc__": f"The body of a `{event_type}` webhook. {text}",
    }
    return type(f"{stem}WebhookSerializer", (serializers.Serializer,), fields)


WEBHOOK_BODIES = {event_type: webhook_body(event_type) for event_type in BODIES}

# The headers of every delivery (webhooks.services): drf-spectacular leaves a webhook's parameters
# out, so api/schema_hooks.py ``add_webhook_union`` adds these.
HEADERS = [
    {
        "in": "header",
        "name": "X-Kierki-Signature",
        "required": True,
        "schema": {"type": "string", "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"},
        "description": '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + raw body)>`: check it over the raw '
        "bytes before parsing, and refuse an old `t`.",
    },
    {
        "in": "header",
        "name": "X-Kierki-Event",
        "required": True,
        "schema": {"type": "string"},
        "description": "The body's `type`.",
    },
    {
        "in": "header",
        "name": "X-Kierki-Delivery",
        "required": True,
        "schema": {"type": "string", "format": "uuid"},
        "description": "The body's `id`.",
    },
]

WEBHOOKS = [
    OpenApiWebhook(
        name=event_type,
        decorator=extend_schema(
            summary=BODIES[event_type][2],
            description=(
                "POSTed to the webhook asked to ping, whatever it subscribed to."
                if event_type == events.PING
                else f"POSTed to each active webhook of the club subscribed to `{event_type}`."
            )
            + " Any 2xx answer is a delivery; anything else is retried.",
            request=body,
            responses={200: OpenApiResponse(description="Received (any 2xx).")},
        ),
    )
    for event_type, body in WEBHOOK_BODIES.items()
]
