"""Input and output serializers of the webhook endpoints: shapes only; whether a URL may be
reached and who may do what is ``webhooks.services``'s to decide."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from webhooks.addresses import MAX_URL_LENGTH
from webhooks.events import EVENT_TYPES
from webhooks.models import Delivery, Endpoint
from webhooks.services import MAX_SECRET, MIN_SECRET

EVENT_TYPE_HELP = "Events to receive: " + ", ".join(f"`{name}`" for name in EVENT_TYPES) + "."


# The inputs' fields, with the limits creating and changing an endpoint share.


def url_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=MAX_URL_LENGTH, **kwargs)


def event_types_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.ChoiceField(choices=EVENT_TYPES), allow_empty=False, **kwargs)


def secret_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(
        min_length=MIN_SECRET, max_length=MAX_SECRET, required=False, trim_whitespace=False, **kwargs
    )


class WebhookInput(serializers.Serializer):
    url = url_field(help_text="An http(s) URL on a public address.")
    event_types = event_types_field(help_text=EVENT_TYPE_HELP)
    secret = secret_field(help_text="The HMAC key of `X-Kierki-Signature`; generated when not given.")
    active = serializers.BooleanField(default=True)


class WebhookUpdateInput(serializers.Serializer):
    url = url_field(required=False)
    event_types = event_types_field(required=False)
    secret = secret_field(help_text="A new HMAC key (it is never shown again).")
    active = serializers.BooleanField(required=False, help_text="false: nothing is sent (pings still are).")


class WebhookSerializer(serializers.ModelSerializer):
    event_types = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_TYPES))
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)

    class Meta:
        model = Endpoint
        fields = ["id", "club", "url", "event_types", "active", "created_by", "created_at"]


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="Shown only in this response: keep it to verify the signatures.")

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class WebhookDeliveryQuery(serializers.Serializer):
    status = serializers.ChoiceField(choices=Delivery.Status.choices, required=False)


class WebhookDeliverySerializer(serializers.ModelSerializer):
    data = serializers.JSONField(source="payload", help_text="The body's `data`.")
    # declared: the model's positive integer fields have bounds that differ between databases
    attempts = serializers.IntegerField(help_text="Attempts so far.")
    last_status_code = serializers.IntegerField(
        allow_null=True, help_text="The last answer's HTTP status (null: none, e.g. a timeout)."
    )
    next_attempt_at = serializers.SerializerMethodField(help_text="When it is sent next (pending only).")

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event_id",
            "event_type",
            "status",
            "attempts",
            "last_status_code",
            "last_error",
            "next_attempt_at",
            "retry_until",
            "created_at",
            "delivered_at",
            "data",
        ]

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_next_attempt_at(self, delivery: Delivery) -> str | None:
        if delivery.status != Delivery.Status.PENDING:
            return None
        return serializers.DateTimeField().to_representation(delivery.next_attempt_at)
