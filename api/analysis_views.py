"""``GET /matches/{id}/analysis/?at=SEQ``: the arbiter's analysis (``games.read.analysis``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from games.read import analysis

from .analysis_serializers import AnalysisPendingSerializer, MatchAnalysisSerializer
from .problems import problem_responses

RETRY_AFTER = 2  # seconds: most positions are searched within the budget (ANALYSIS_BUDGET_NODES, about 4 s compiled)


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
            202: OpenApiResponse(
                AnalysisPendingSerializer,
                description="Not computed yet: a job is computing it. Ask the URL in the `Location` header "
                "(and `poll`: the position pinned by `at`) again after `Retry-After` seconds (header).",
            ),
            **problem_responses(
                {
                    400: "`at` is not the seq of one of the match's events.",
                    401: "Not authenticated.",
                    403: "A seated player asking about a deal still in play (`not_allowed`).",
                    404: "No such match, or one you may not see.",
                    422: "The deal was filed by its tally or points: no cards (`analysis_unavailable`).",
                    429: "You have `ANALYSIS_JOBS_PER_USER` analyses being computed already (`throttled`); "
                    "retry after `Retry-After` seconds.",
                    503: "A new position's job could not be queued: the task queue did not answer "
                    "(`analysis_queue_unavailable`); or the database is unavailable (`database_unavailable`).",
                }
            )(400, 401, 403, 404, 422, 429, 503),
        },
        description="For each seat, the deal's final points it can still end with at worst and at best over "
        "every legal continuation, and what it guarantees by its own play against the other three; "
        "for the seat on turn, each legal card's guaranteed value. Staff, the arbiters of the "
        "match's club and its scorer: any position. A seated player (whatever else he is): only "
        "positions of deals that have finished. Exact unless the search budget ran out "
        "(`exact: false`, with proven `bounds`). A position not analysed before is computed by a "
        "background job: `202` with `Location` and `Retry-After` until its answer is ready, then `200` "
        "(cached: every later request gets it at once).",
    )
    def get(self, request, pk: str):
        query = AnalysisQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        lookup = analysis.match_analysis(match_id=pk, user=request.user, at=query.validated_data.get("at"))
        if lookup.job is None:
            return Response(MatchAnalysisSerializer(lookup.answer).data)
        if analysis.analysis_job_queue(job=lookup.job, user=request.user) == analysis.BUSY:
            raise Throttled(RETRY_AFTER, _("You have analyses being computed already; retry shortly."))
        found = analysis.analysis_found(job=lookup.job)
        if found is not None:  # an eager Celery (no broker) computed it in this request
            return Response(MatchAnalysisSerializer({**lookup.answer, "analysis": found}).data)
        poll = reverse("match-analysis", args=[pk], request=request) + f"?at={lookup.job.seq}"
        body = AnalysisPendingSerializer({**lookup.answer, "status": "pending", "poll": poll}).data
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": poll, "Retry-After": str(RETRY_AFTER)}
        )
