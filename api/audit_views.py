"""The arbiters' endpoints: a match's audit, its state at any event (time travel), disputes and
rulings. Thin views: parse, call ``games.read.inspection`` or ``games.write.disputes``, serialise.

Who may do what is decided there (``NotAllowed`` → 403, ``NotFound`` → 404, as problem+json).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.replica import reads_from_replica
from games.models import Dispute
from games.read import analysis, inspection
from games.write import disputes
from scoring import arbiters

from . import audit_serializers as s
from .idempotency import idempotent
from .pagination import PAGE_PARAMETERS, listed
from .parsers import BoundedJSONParser
from .preconditions import IF_MATCH, expected_version, with_version
from .problems import problem_responses

_TEXT = {
    400: "Malformed input (`code: invalid`, `field`, `errors`).",
    401: "Not authenticated.",
    403: "Not allowed for your role (`not_allowed`).",
    404: "No such match or dispute, or one you may not see.",
    409: "The match's season is closed: it takes no ruling until staff reopen it.",
    412: "If-Match is stale; `current_version` says the match's version now.",
    422: "The ruling does not fit the match (`ruling_not_allowed`, with `error`), or a log the engine rejects.",
}


_errors = problem_responses(_TEXT)


def _valid(serializer_class, data) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- the audit and time travel ------------------------------------------------------------------------------


class MatchAuditView(APIView):
    @extend_schema(
        operation_id="matches_audit",
        summary="Verify a match: hash chain, rules, commitments, full log",
        tags=["audit"],
        responses={200: s.AuditSerializer, **_errors(401, 403, 404)},
        description="For staff and the arbiters of the match's club, and for its seated players once it has "
        "ended. `chain`: the hash chain recomputed from the stored rows (the first `seq` where it "
        "breaks and why); `rules`: every event replayed under the pinned ruleset (the first "
        "illegal one with its R30 error object); `commitments`: each server-dealt deal's "
        "commitment against its revealed hands and salt; `events`: the whole log, unredacted.",
    )
    @reads_from_replica()  # an audit reads the whole log: a replica's work
    def get(self, request, pk: str):
        match, who = inspection.match_for_inspection(match_id=pk, user=request.user)
        report = inspection.match_audit(match=match, who=who)
        return with_version(Response(s.AuditSerializer(report, context={"request": request}).data), match.version)


AT_PARAMETER = OpenApiParameter(
    "at",
    int,
    OpenApiParameter.QUERY,
    required=False,
    description="Time travel: the state right after event `at` (its seq), every hand as it stood then "
    "(StateAt). Arbiters, staff and the scorer: any seq; a seated player: only between deals or "
    "inside a deal that has finished since, else 403.",
)


def state_at(request, pk: str) -> Response:
    """``GET /matches/{id}/state/?at=SEQ`` (called by ``MatchViewSet.state``)."""
    match, who = inspection.match_for_inspection(match_id=pk, user=request.user)
    query = _valid(s.TimeTravelQuery, request.query_params)
    state = inspection.match_state_at(match=match, who=who, seq=query["at"])
    data = s.StateAtSerializer(state, context={"request": request}).data
    return with_version(Response(data), match.version)


# --- disputes -----------------------------------------------------------------------------------------------


class MatchDisputesView(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="matches_disputes_list",
        summary="A match's disputes",
        tags=["disputes"],
        description="For its seated players and scorer, and its arbiters.",
        responses={200: s.DisputeSerializer(many=True), **_errors(401, 404)},
    )
    def get(self, request, pk: str):
        match, _ = inspection.match_for_inspection(match_id=pk, user=request.user)  # players, scorer, arbiters
        views = disputes.dispute_views(disputes.disputes_of_match(match=match))
        return listed(request, s.DisputeSerializer(views, many=True).data)

    @extend_schema(
        operation_id="matches_disputes_create",
        summary="Dispute a deal",
        tags=["disputes"],
        request=s.DisputeInput,
        responses={201: s.DisputeSerializer, **_errors(400, 401, 403, 404)},
        description="A seated player or the scorer flags a deal (dealt already, finished or in play), "
        "optionally one play of it, with a statement. Takes `Idempotency-Key`.",
        examples=[
            OpenApiExample(
                "A disputed play",
                request_only=True,
                value={"deal": 3, "play_index": 17, "statement": "W revoked: he held a spade."},
            )
        ],
    )
    @idempotent
    def post(self, request, pk: str):
        match, _ = inspection.match_for_inspection(match_id=pk, user=request.user)
        body = _valid(s.DisputeInput, request.data)
        dispute = disputes.dispute_raise(
            match_id=match.pk,
            actor=request.user,
            deal=body["deal"],
            play_index=body.get("play_index"),
            statement=body["statement"],
        )
        data = s.DisputeSerializer(disputes.dispute_views([dispute])[0]).data
        return Response(data, status=status.HTTP_201_CREATED)


class DisputeListView(GenericAPIView):
    serializer_class = s.DisputeSerializer
    queryset = Dispute.objects.none()
    filter_backends: list = []

    @extend_schema(
        operation_id="disputes_list",
        summary="Disputes to rule on",
        tags=["disputes"],
        parameters=[s.DisputeListQuery, *PAGE_PARAMETERS],
        description="`?club=<id>`: that club's disputes (its arbiters and staff; others 403). "
        "Without it: the disputes of every club you arbitrate (staff: all). "
        "`?status=open|ruled`. Paginated, newest first.",
        responses={200: s.DisputeSerializer(many=True), **_errors(400, 401, 403, 404)},
    )
    def get(self, request):
        query = _valid(s.DisputeListQuery, request.query_params)
        found = arbiters.disputes_for_arbiter(user=request.user, club_id=query.get("club"), status=query.get("status"))
        page = self.paginate_queryset(found)
        return self.get_paginated_response(s.DisputeSerializer(disputes.dispute_views(page), many=True).data)


class DisputeDetailView(APIView):
    @extend_schema(
        operation_id="disputes_retrieve",
        summary="A dispute and its rulings",
        tags=["disputes"],
        description="With the analysis at the disputed position (the ruling form's numbers: see "
        "`GET /matches/{id}/analysis/`).",
        responses={200: s.DisputeDetailSerializer, **_errors(401, 404)},
    )
    def get(self, request, pk: str):
        dispute = disputes.dispute_get(dispute_id=pk, user=request.user)
        view = {
            **disputes.dispute_views([dispute])[0],
            "analysis": analysis.dispute_analysis(dispute=dispute, user=request.user),
        }
        return Response(s.DisputeDetailSerializer(view).data)


class RulingView(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="disputes_ruling",
        summary="Rule on a dispute",
        tags=["disputes"],
        request=s.RulingInput,
        parameters=[
            OpenApiParameter(
                IF_MATCH,
                str,
                OpenApiParameter.HEADER,
                description="Rule only if the match is at this version (its ETag).",
            )
        ],
        responses={201: s.RulingResultSerializer, **_errors(400, 401, 403, 404, 409, 412, 422)},
        description="An arbiter of the match's club (or staff) records a ruling as a `ruling_recorded` event in "
        "the match log: `no_change`; `score_adjusted` with `points` per seat (the played result "
        "stays visible beside them); `deal_voided` (only the latest finished deal while no later "
        "deal has started: a replacement of the same kind, dealer and leader is due next, and a "
        "finished match is re-opened). A later ruling on the same dispute supersedes the earlier "
        "one; rulings only move forward (no `no_change` after an adjustment, nothing after a void). "
        "A `score_adjusted` ruling that gives a changed seat points outside worst..best of the "
        "analysis at the disputed position needs `override` (the reason), else 422 "
        "`ruling_outside_analysis` naming the seats and their range. "
        "Takes `Idempotency-Key`.",
        examples=[
            OpenApiExample(
                "Adjust",
                request_only=True,
                value={
                    "type": "score_adjusted",
                    "points": {"N": -40, "E": -20, "S": 0, "W": 0},
                    "reason": "W revoked at play 17; the tricks after it are given to W.",
                },
            )
        ],
    )
    @idempotent
    def post(self, request, pk: str):
        body = _valid(s.RulingInput, request.data)
        dispute, result = disputes.ruling_record(
            dispute_id=pk,
            actor=request.user,
            ruling=body["type"],
            reason=body["reason"],
            points=dict(body["points"]) if body.get("points") is not None else None,
            override=body.get("override"),
            expected_version=expected_version(request),
        )
        data = s.RulingResultSerializer(
            {
                "dispute": disputes.dispute_views([dispute])[0],
                "version": result.match.version,
                "status": result.match.status,
            }
        ).data
        return with_version(Response(data, status=status.HTTP_201_CREATED), result.match.version)
