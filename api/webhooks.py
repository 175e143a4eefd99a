"""Webhook endpoints of a club: register, read, change, remove, ping, and the delivery log
with manual redelivery. Thin views: parse, call ``webhooks.services`` or ``webhooks.selectors``,
serialise.

For the club's admins and staff. Another user gets 403 on a club's list (clubs are public)
and 404 on a webhook's own URLs (``NotAllowed`` / ``NotFound`` from the selectors).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from webhooks import selectors, services
from webhooks.models import Delivery

from . import webhook_serializers as s
from .pagination import PAGE_PARAMETERS, listed
from .parsers import BoundedJSONParser
from .problems import problem_responses

_TEXT = {
    400: "Malformed input, an unknown event type, or a URL that may not be reached (`invalid`, `field`).",
    401: "Not authenticated.",
    403: "Not an admin of the club (`not_allowed`).",
    404: "No such club, webhook or delivery, or a webhook of a club you do not manage.",
}


_errors = problem_responses(_TEXT)


def _valid(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ClubWebhooksView(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="clubs_webhooks_list",
        summary="A club's webhooks",
        tags=["webhooks"],
        responses={200: s.WebhookSerializer(many=True), **_errors(401, 403, 404)},
    )
    def get(self, request, pk: str):
        return listed(
            request, s.WebhookSerializer(selectors.endpoints_of_club(actor=request.user, club_id=pk), many=True).data
        )

    @extend_schema(
        operation_id="clubs_webhooks_create",
        summary="Register a webhook",
        tags=["webhooks"],
        request=s.WebhookInput,
        responses={201: s.WebhookCreatedSerializer, **_errors(400, 401, 403, 404)},
        description="The club's events are POSTed to `url` as JSON, signed with `secret` (generated when not "
        "given; this response is the only one that shows it). The URL must be http(s) and resolve to "
        "public addresses only, unless the server allows private ones.",
        examples=[
            OpenApiExample(
                "Results",
                request_only=True,
                value={
                    "url": "https://club.example.org/kierki-hook",
                    "event_types": ["match.finished", "standings.updated"],
                },
            )
        ],
    )
    def post(self, request, pk: str):
        endpoint = services.endpoint_create(actor=request.user, club_id=pk, **_valid(s.WebhookInput, request.data))
        return Response(s.WebhookCreatedSerializer(endpoint).data, status=status.HTTP_201_CREATED)


class WebhookView(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="A webhook",
        tags=["webhooks"],
        responses={200: s.WebhookSerializer, **_errors(401, 404)},
    )
    def get(self, request, pk: str):
        return Response(s.WebhookSerializer(selectors.endpoint_for_admin(actor=request.user, endpoint_id=pk)).data)

    @extend_schema(
        operation_id="webhooks_partial_update",
        summary="Change a webhook",
        tags=["webhooks"],
        request=s.WebhookUpdateInput,
        responses={200: s.WebhookSerializer, **_errors(400, 401, 404)},
    )
    def patch(self, request, pk: str):
        endpoint = services.endpoint_update(
            actor=request.user, endpoint_id=pk, **_valid(s.WebhookUpdateInput, request.data)
        )
        return Response(s.WebhookSerializer(endpoint).data)

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Remove a webhook and its delivery log",
        tags=["webhooks"],
        request=None,
        responses={204: None, **_errors(401, 404)},
    )
    def delete(self, request, pk: str):
        services.endpoint_delete(actor=request.user, endpoint_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookPingView(APIView):
    @extend_schema(
        operation_id="webhooks_ping",
        summary="Send a test event",
        tags=["webhooks"],
        request=None,
        responses={202: s.WebhookDeliverySerializer, **_errors(401, 404)},
        description="Queues a `ping` delivery (even to a disabled webhook) and answers with it; "
        "follow it in the delivery log.",
    )
    def post(self, request, pk: str):
        delivery = services.endpoint_ping(actor=request.user, endpoint_id=pk)
        return Response(s.WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveriesView(GenericAPIView):
    serializer_class = s.WebhookDeliverySerializer
    queryset = Delivery.objects.none()
    filter_backends: list = []

    @extend_schema(
        operation_id="webhooks_deliveries_list",
        summary="A webhook's delivery log",
        tags=["webhooks"],
        parameters=[s.WebhookDeliveryQuery, *PAGE_PARAMETERS],
        description="Newest first, paginated; `?status=pending|succeeded|failed`.",
        responses={200: s.WebhookDeliverySerializer(many=True), **_errors(400, 401, 404)},
    )
    def get(self, request, pk: str):
        query = _valid(s.WebhookDeliveryQuery, request.query_params)
        page = self.paginate_queryset(
            selectors.deliveries_of(actor=request.user, endpoint_id=pk, status=query.get("status"))
        )
        return self.get_paginated_response(s.WebhookDeliverySerializer(page, many=True).data)


class RedeliverView(APIView):
    @extend_schema(
        operation_id="webhooks_deliveries_redeliver",
        summary="Send a delivery again",
        tags=["webhooks"],
        request=None,
        responses={202: s.WebhookDeliverySerializer, **_errors(401, 404)},
        description="Queues a new attempt now, with the same event id (`X-Kierki-Delivery`); a failed "
        "delivery is pending again, with a new 24 h retry window.",
    )
    def post(self, request, pk: str, delivery_id: str):
        delivery = services.delivery_redeliver(actor=request.user, endpoint_id=pk, delivery_id=delivery_id)
        return Response(s.WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
