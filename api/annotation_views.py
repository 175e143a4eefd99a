"""``GET /matches/{id}/deals/{n}/annotations/``: the annotated deal (``scoring.annotation_selectors``)."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import annotation_selectors
from scoring.annotations import annotated_automatically, annotation_job_queue
from scoring.exceptions import AnnotationNotScheduled

from .annotation_serializers import DealAnnotationSerializer
from .problems import problem_responses

RETRY_AFTER = 30  # seconds: a deal's 53 positions take up to ANNOTATION_BUDGET_NODES nodes each


class DealAnnotationView(APIView):
    @extend_schema(
        operation_id="matches_deal_annotations",
        summary="The annotated deal: each card's cost to its player and its grade",
        tags=["audit"],
        responses={
            200: DealAnnotationSerializer,
            202: OpenApiResponse(
                DealAnnotationSerializer,
                description="Not annotated yet (or annotated by an older engine): a job is computing it; "
                "`progress` counts the match's deals done. Ask again after `Retry-After` seconds.",
            ),
            **problem_responses(
                {
                    401: "Not authenticated.",
                    404: "No such match or one you may not see; or the deal is not over (in play or not "
                    "played): nobody sees an annotation while its deal is in play.",
                    409: "Not annotated, and no job annotates deals on this server (`ANNOTATE_DEALS` off): "
                    "its administrator runs `manage.py annotate_deals`. Asking again will not help.",
                    422: "The deal was filed by its tally or points: no cards.",
                    503: "The database is unavailable.",
                }
            )(401, 404, 409, 422, 503),
        },
        description="For each card played in a finished deal: what it cost the player who played it (his "
        "guaranteed points, by his own best play against the other three, before it minus after it), its "
        "grade, and the card rated best there; each seat's range after every card; the costliest cards; "
        "per seat the figures of accuracy. Computed once by a background job when the deal ends, and "
        "again when the engine changes. Whoever may read the match, once the deal is over.",
    )
    def get(self, request, pk: str, number: int):
        found = annotation_selectors.deal_annotation_get(match_id=pk, number=number, user=request.user)
        if found.annotation is None and not annotated_automatically():
            raise AnnotationNotScheduled(
                gettext(
                    "Deal %(deal)d is not annotated, and no job annotates deals on this server (ANNOTATE_DEALS "
                    "is off): its administrator annotates them with manage.py annotate_deals."
                )
                % {"deal": number}
            )
        if found.annotation is None:
            annotation_job_queue(match_id=str(found.match.pk))  # stale, or its job lost
            found = annotation_selectors.deal_annotation_get(match_id=pk, number=number, user=request.user)
        body = DealAnnotationSerializer(
            {
                "status": "pending" if found.annotation is None else "done",
                "match": found.match.pk,
                "deal": found.number,
                "kind": found.kind,
                "progress": found.progress,
                "annotation": found.annotation,  # computed in this request under an eager Celery
            }
        ).data
        if found.annotation is not None:
            return Response(body)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Retry-After": str(RETRY_AFTER)})
