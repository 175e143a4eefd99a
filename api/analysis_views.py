"""``GET /matches/{id}/analysis/?at=SEQ``: the arbiter's analysis (``games.analysis``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games import analysis

from .analysis_serializers import MatchAnalysisSerializer
from .problems import problem_responses


class AnalysisQuery(serializers.Serializer):
    at = serializers.IntegerField(required=False, help_text="The seq of an event of the match (default: now).")


class MatchAnalysisView(APIView):
    @extend_schema(
        operation_id="matches_analysis",
        summary="What each seat could still reach (the arbiter's analysis)",
        tags=["audit"],
        parameters=[
            OpenApiParameter(
                "at",
                int,
                OpenApiParameter.QUERY,
                required=False,
                description="The seq of an event (default: the latest): the position "
                "right after it, in the deal in play then (or the deal "
                "finished last, between deals).",
            )
        ],
        responses={
            200: MatchAnalysisSerializer,
            **problem_responses(
                {
                    400: "`at` is not the seq of one of the match's events.",
                    401: "Not authenticated.",
                    403: "A seated player asking about a deal still in play (`not_allowed`).",
                    404: "No such match, or one you may not see.",
                    422: "The deal was filed by its tally or points: no cards (`analysis_unavailable`).",
                }
            )(400, 401, 403, 404, 422),
        },
        description="For each seat, the deal's final points it can still end with at worst and at best over "
        "every legal continuation, and what it guarantees by its own play against the other three; "
        "for the seat on turn, each legal card's guaranteed value. Staff, the arbiters of the "
        "match's club and its scorer: any position. A seated player (whatever else he is): only "
        "positions of deals that have finished. Exact unless the search budget ran out "
        "(`exact: false`, with proven `bounds`).",
    )
    def get(self, request, pk: str):
        query = AnalysisQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = analysis.match_analysis(match_id=pk, user=request.user, at=query.validated_data.get("at"))
        return Response(MatchAnalysisSerializer(data).data)
