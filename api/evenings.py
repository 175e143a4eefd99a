"""Club evening endpoints: evenings of a season, the players signed in, and the rounds, each
seated at tables whose season matches are created by the same call. Thin views: parse, call
``scoring.evening_services`` or ``scoring.evening_selectors``, serialise.

The club's members (and staff) read its evenings — 404 for anyone else; its admins (and
staff) run them (the services check it and raise ``NotAllowed``, a 403).
"""

from __future__ import annotations

import django_filters
from django.utils.translation import gettext
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.filters import OrderingFilter
from rest_framework.response import Response

from games.domain.exceptions import NotFound
from scoring import evening_selectors as selectors
from scoring import evening_services as services
from scoring.models import Evening
from scoring.spreadsheet_tables import evening_results_tables

from . import evening_serializers as s
from .exports import XLSX_RESPONSE, ProblemsWhenExporting, XLSXRenderer, attachment
from .filters import ID_RANGE
from .leagues import valid_input
from .pagination import listed
from .parsers import BoundedJSONParser
from .problems import problem_responses

ERRORS = {
    400: "Malformed input, an unknown player or one who is not a club member, a player at two tables "
    "(`code: invalid`, `field`).",
    401: "Not authenticated.",
    403: "Not an admin of the club.",
    404: "No such evening or season, or none you may see (only the club's members and staff).",
    409: "`round_seated` (that round has its tables already), `evening_complete` (all rounds seated), "
    "`too_few_players` (fewer than four present), `round_in_progress` (Swiss seating waits for the "
    "results), `season_closed`.",
}


_errors = problem_responses(ERRORS)


class EveningFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(
        field_name="season__league__club", help_text="Evenings of this club.", **ID_RANGE
    )  # out of a bigint: 400 naming it, not the database's OverflowError (500)

    class Meta:
        model = Evening
        fields = ["season", "club", "date"]


@extend_schema(tags=["evenings"])
@extend_schema_view(
    list=extend_schema(
        summary="List the club evenings you may see",
        responses={200: s.EveningSerializer(many=True), **_errors(400, 401, 404)},
    ),
    retrieve=extend_schema(
        summary="An evening: its players and the seating of each round so far",
        responses={200: s.EveningDetailSerializer, **_errors(401, 404)},
    ),
)
class EveningViewSet(ProblemsWhenExporting, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Club evenings: players sign in, each round is seated at tables of four and its matches
    are created in the season; results are filed against those matches."""

    serializer_class = s.EveningSerializer
    parser_classes = [BoundedJSONParser]  # lists of names: a form could send more fields than Django takes
    filter_backends = [DjangoFilterBackend, OrderingFilter]
    filterset_class = EveningFilter
    ordering_fields = ["date", "created_at"]

    queryset = Evening.objects.none()  # (the schema's model; get_queryset narrows to the caller's)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Evening.objects.none()
        return selectors.evenings_visible(self.request.user).order_by("-date", "-id")

    def get_object(self):
        evening = selectors.evening_visible(self.request.user, self.kwargs["pk"])
        if evening is None:
            raise NotFound(gettext("no evening %(id)s") % {"id": self.kwargs["pk"]})
        return evening

    def retrieve(self, request, pk=None):
        return Response(s.EveningDetailSerializer(self.get_object()).data)

    @extend_schema(
        summary="Create an evening of an open season (club admins)",
        request=s.EveningInput,
        responses={201: s.EveningDetailSerializer, **_errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Thursday",
                request_only=True,
                value={
                    "season": 1,
                    "date": "2026-12-03",
                    "rounds": 4,
                    "dealing": "recorded",
                    "players": ["ala", "bartek", "celina", "darek"],
                },
            )
        ],
    )
    def create(self, request):
        data = valid_input(s.EveningInput, request.data)
        evening = services.evening_create(actor=request.user, season_id=data.pop("season"), **data)
        return Response(s.EveningDetailSerializer(evening).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Sign players in (club admins): present from the next round (late arrivals too)",
        request=s.SignInInput,
        responses={200: s.AttendanceSerializer(many=True), **_errors(400, 401, 403, 404, 409)},
        examples=[OpenApiExample("A late arrival", request_only=True, value={"players": ["ewa"]})],
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def players(self, request, pk=None):
        services.evening_sign_in(actor=request.user, evening_id=pk, **valid_input(s.SignInInput, request.data))
        return Response(s.AttendanceSerializer(selectors.evening_attendance(self.get_object()), many=True).data)

    @extend_schema(
        summary="Withdraw a player (club admins): not seated from the next round on",
        request=None,
        responses={204: None, **_errors(401, 403, 404)},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"players/(?P<username>[^/]+)",
        filter_backends=[],
        pagination_class=None,
    )
    def player(self, request, pk=None, username=None):
        services.evening_withdraw(actor=request.user, evening_id=pk, player=username)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["GET"],
        summary="The seating of every round so far (plain data, e.g. to print)",
        responses={200: s.RoundSerializer(many=True), **_errors(401, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Seat the next round and create its matches (club admins)",
        description="Seats the players present at tables of four — the fewest pairs meeting three times "
        "(none whenever possible), then the fewest repeat meetings, then the fewest against the season's "
        "earlier evenings; sit-outs go round; seats and first dealers even — and creates one "
        "season match per table (the evening's dealing), all in one transaction. File the "
        'results against the matches (`/matches/{id}/…`). With `"preview": true` nothing is saved: '
        "200 shows the round as it would be seated (by hand or by the search), each table's pairs who "
        "met before and the evening's repeats against their lower bound.",
        request=s.RoundInput,
        responses={201: s.RoundSerializer, 200: s.RoundPreviewSerializer, **_errors(400, 401, 403, 404, 409)},
        examples=[OpenApiExample("The next round", request_only=True, value={"round": 2})],
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def rounds(self, request, pk=None):
        if request.method == "GET":
            return listed(request, s.RoundSerializer(selectors.evening_seating(self.get_object()), many=True).data)
        data = valid_input(s.RoundInput, request.data)
        if data.get("preview"):
            preview = services.evening_round_preview(
                actor=request.user, evening_id=pk, number=data.get("round"), tables=data.get("tables")
            )
            return Response(s.RoundPreviewSerializer(preview).data)
        seated = services.evening_round_seat(
            actor=request.user, evening_id=pk, number=data.get("round"), tables=data.get("tables")
        )
        (one,) = selectors.evening_seating(seated.evening, numbers=[seated.number])
        return Response(s.RoundSerializer(one).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="evenings_results_xlsx",
        summary="The evening's results as an XLSX workbook",
        description="Two sheets, as the page `/evenings/{id}/results/` shows them: the evening's ranking (Σ "
        "points over its matches that count) and each round's tables, one row per seat (player, points "
        "so far, status, confirmed, withdrawn). Typed cells, headers in the reader's language, header "
        "rows frozen.",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={
            (200, XLSXRenderer.media_type): XLSX_RESPONSE,
            **_errors(401, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="results/xlsx",
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[XLSXRenderer],
    )
    def results_xlsx(self, request, pk=None, format=None):
        evening = self.get_object()
        tables = evening_results_tables(selectors.evening_results(evening))
        return attachment(Response(tables), f"evening-{evening.pk}-{evening.date.isoformat()}-results.xlsx")
