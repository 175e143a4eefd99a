"""League endpoints: clubs (and their members), leagues, seasons with their standings, and
players. Thin views: parse, call ``scoring.services`` or ``scoring.selectors``, serialise.

Reading is open to every authenticated user; writing is for the club's admins (the services
check it and raise ``NotAllowed``, which ``api.problems`` turns into a 403).
"""

from __future__ import annotations

import json

import django_filters
from django.urls import reverse
from django.utils.translation import gettext
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.filters import OrderingFilter
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from config.replica import reads_from_replica
from games.domain.exceptions import NotFound
from games.models import Player
from games.read import record as games_record
from games.read import selectors as games_selectors
from scoring import invitations, members, selectors, services
from scoring.models import Club, League, Membership, Season, SeasonMatch, SeasonStatusChange
from scoring.spreadsheet_tables import season_match_tables
from scoring.summary import season_summary

from . import league_serializers as s
from . import member_serializers as ms
from .exports import (
    XLSX_RESPONSE,
    CSVQuery,
    ProblemsWhenExporting,
    StandingsCSVRenderer,
    StandingsXLSXRenderer,
    XLSXRenderer,
    attachment,
    streamed,
)
from .filters import ID_RANGE
from .pagination import listed
from .problems import problem_responses

error_responses = problem_responses(
    {
        400: "Malformed input (`code: invalid`, `field`, `errors`).",
        401: "Not authenticated.",
        403: "Not an admin of the club.",
        404: "No such resource.",
        409: "The club would lose its last admin (`last_admin`), the season is closed (`season_closed`), or "
        "the invitation was used (`invitation_used`).",
        410: "The invitation expired (`invitation_expired`).",
        429: "Too many attempts from this address; Retry-After says when to try again.",
    }
)


def _reading(serializer_class, *, listed: str, read: str | None = None):
    """The list operation's schema (a filter's bad value → 400; ``?page=`` past the end → 404, as
    DRF's pagination answers) and the retrieve operation's."""
    views = {
        "list": extend_schema(
            summary=listed,
            responses={
                200: serializer_class(many=True),
                **error_responses(400, 401, 404, not_found="No such page (`?page=`)."),
            },
        )
    }
    if read is not None:
        views["retrieve"] = extend_schema(summary=read, responses={200: serializer_class, **error_responses(401, 404)})
    return extend_schema_view(**views)


def valid_input(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class _ReadMixin(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    filter_backends = [DjangoFilterBackend, OrderingFilter]


# --- seasons on the match endpoints (used by api.views) -----------------------------------------------

SEASON_FILING = OpenApiParameter(
    "season",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    description="File the record into this open season: the club's scorers, arbiters and admins may, and the "
    "record's four players must be club members (no guests). 404 no such season, 409 closed.",
)


class FilesIntoASeason(BasePermission):
    """``?season=<id>``: the club's roles decide (``scoring.services.season_record_import`` checks them)."""

    def has_permission(self, request, view) -> bool:
        return "season" in request.query_params


# --- clubs -------------------------------------------------------------------------------------------


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="Part of the club's name.")
    member = django_filters.CharFilter(field_name="memberships__user__username", help_text="Clubs of this username.")

    class Meta:
        model = Club
        fields = ["slug", "name", "member"]


@extend_schema(tags=["clubs"])
@_reading(s.ClubSerializer, listed="List clubs", read="Read a club")
class ClubViewSet(_ReadMixin):
    """Clubs and their members. Anyone signed in may found a club and becomes its first admin."""

    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer
    filterset_class = ClubFilter
    ordering_fields = ["name", "slug", "created_at"]

    @extend_schema(
        summary="Found a club",
        request=s.ClubInput,
        responses={201: s.ClubSerializer, **error_responses(400, 401)},
        examples=[OpenApiExample("A club", value={"name": "Klub Kierkowy", "slug": "kk"}, request_only=True)],
    )
    def create(self, request):
        club = services.club_create(actor=request.user, **valid_input(s.ClubInput, request.data))
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Rename a club (its admins)",
        request=s.ClubUpdateInput,
        responses={200: s.ClubSerializer, **error_responses(400, 401, 403, 404)},
    )
    def partial_update(self, request, pk=None):
        club = services.club_update(actor=request.user, club_id=pk, **valid_input(s.ClubUpdateInput, request.data))
        return Response(s.ClubSerializer(club).data)

    @extend_schema(
        methods=["GET"],
        summary="List a club's members",
        responses={200: s.MembershipSerializer(many=True), **error_responses(401, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Invite a user to join, or change a member's role (club admins)",
        description="A member gets the role (201, the membership). Anyone else is invited to join with "
        "that role (202, the pending invitation): he becomes a member only when he accepts it "
        "(`POST /invitations/{id}/accept/`, or the page `/invitations/`).",
        request=s.MembershipInput,
        responses={
            201: s.MembershipSerializer,
            202: ms.JoinInvitationSerializer,
            **error_responses(400, 401, 403, 404, 409),
        },
        examples=[OpenApiExample("A scorer", value={"user": "ala", "role": "scorer"}, request_only=True)],
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def members(self, request, pk=None):
        club = self.get_object()
        if request.method == "GET":
            members = Membership.objects.filter(club=club).select_related("user").order_by("user__username")
            return listed(request, s.MembershipSerializer(members, many=True).data)
        data = valid_input(s.MembershipInput, request.data)
        proposed = invitations.membership_propose(
            actor=request.user, club_id=club.pk, username=data["user"], role=data["role"]
        )
        if isinstance(proposed, Membership):
            return Response(s.MembershipSerializer(proposed).data, status=status.HTTP_201_CREATED)
        return Response(ms.JoinInvitationSerializer(proposed).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        methods=["PATCH"],
        summary="Change a member's role (club admins)",
        request=s.MembershipRoleInput,
        responses={200: s.MembershipSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @extend_schema(
        methods=["DELETE"],
        summary="Remove a member (club admins)",
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["patch", "delete"], url_path=r"members/(?P<username>[^/]+)", filter_backends=[])
    def member(self, request, pk=None, username=None):
        club = self.get_object()
        if request.method == "DELETE":
            services.membership_remove(actor=request.user, club_id=club.pk, username=username)
            return Response(status=status.HTTP_204_NO_CONTENT)
        if not Membership.objects.filter(club=club, user__username=username).exists():
            raise NotFound(
                gettext("%(username)s is not a member of %(club_name)s")
                % {"username": repr(username), "club_name": club.name}
            )
        membership = services.membership_set(
            actor=request.user, club_id=club.pk, username=username, **valid_input(s.MembershipRoleInput, request.data)
        )
        return Response(s.MembershipSerializer(membership).data)

    @extend_schema(
        methods=["GET"],
        summary="List the club's players (profiles and member accounts)",
        description="One row per player profile or member account: the name seats and records use, the "
        "account (null until a profile's invitation is claimed), the role, the latest "
        "invitation. Profiles without an account are listed to the club's scorers, arbiters "
        "and admins (and staff) only.",
        responses={200: ms.ClubPlayerSerializer(many=True), **error_responses(401, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Add a member by display name, without an account (club admins)",
        description="A player profile that can be seated and filed at once; invite the person to claim "
        "it (`POST …/players/{player_id}/invitation/`). A profile belongs to one club: a name "
        "held by another club's profile or by an account is refused (400). To add an existing "
        "user, POST `/clubs/{id}/members/` with his username (he accepts).",
        request=ms.ClubPlayerInput,
        responses={201: ms.ClubPlayerSerializer, **error_responses(400, 401, 403, 404)},
        examples=[OpenApiExample("A member", value={"name": "Łucja Źdźbło"}, request_only=True)],
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def players(self, request, pk=None):
        club = self.get_object()
        if request.method == "GET":
            return listed(
                request, ms.ClubPlayerSerializer(members.member_rows(club, viewer=request.user), many=True).data
            )
        player = invitations.club_player_add(
            actor=request.user, club_id=club.pk, name=valid_input(ms.ClubPlayerInput, request.data)["name"]
        )
        row = next(row for row in members.member_rows(club, viewer=request.user) if row["player"] == player.pk)
        return Response(ms.ClubPlayerSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Invite a profile's person to claim it and set a password (club admins)",
        description="Returns a signed link that works once, until `expires_at` "
        "(`INVITATION_TTL_HOURS`); send it to the person. A profile with an account is "
        "`invitation_used` (409).",
        request=None,
        responses={201: ms.InvitationSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path=r"players/(?P<player_id>[^/]+)/invitation", filter_backends=[])
    def invitation(self, request, pk=None, player_id=None):
        club = self.get_object()
        invitation, token = invitations.invitation_create(actor=request.user, club_id=club.pk, player_id=player_id)
        invitation.token = token
        invitation.url = request.build_absolute_uri(reverse("web:invitation", kwargs={"token": token}))
        return Response(ms.InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


# --- leagues ------------------------------------------------------------------------------------------


@extend_schema(tags=["leagues"])
@_reading(s.LeagueSerializer, listed="List leagues", read="Read a league")
class LeagueViewSet(_ReadMixin):
    """Leagues of a club, each with a default ruleset for its matches."""

    queryset = League.objects.all()
    serializer_class = s.LeagueSerializer
    filterset_fields = ["club"]
    ordering_fields = ["name", "created_at"]

    @extend_schema(
        summary="Create a league (club admins)",
        request=s.LeagueInput,
        responses={201: s.LeagueSerializer, **error_responses(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Classic last tricks",
                request_only=True,
                value={"club": 1, "name": "Liga czwartkowa", "ruleset": {"options": {"last_tricks": [7, 13]}}},
            )
        ],
    )
    def create(self, request):
        data = valid_input(s.LeagueInput, request.data)
        league = services.league_create(
            actor=request.user, club_id=data["club"], name=data["name"], ruleset=data.get("ruleset")
        )
        return Response(s.LeagueSerializer(league).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Rename a league or change its default ruleset (club admins)",
        request=s.LeagueUpdateInput,
        responses={200: s.LeagueSerializer, **error_responses(400, 401, 403, 404)},
    )
    def partial_update(self, request, pk=None):
        league = services.league_update(
            actor=request.user, league_id=pk, **valid_input(s.LeagueUpdateInput, request.data)
        )
        return Response(s.LeagueSerializer(league).data)


# --- seasons and standings -----------------------------------------------------------------------------


class SeasonFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(
        field_name="league__club", help_text="Seasons of this club's leagues.", **ID_RANGE
    )  # out of a bigint: 400 naming it, not the database's OverflowError (500)

    class Meta:
        model = Season
        fields = ["league", "club", "status"]


class NDJSONRenderer(JSONRenderer):
    """``Accept: application/x-ndjson`` for the records export (its errors: one JSON line)."""

    media_type = "application/x-ndjson"
    format = "ndjson"


class NDJSONBytesRenderer(NDJSONRenderer):
    """The same lines as ``application/octet-stream``: the type generated clients read as bytes
    (openapi-python-client has no NDJSON)."""

    media_type = "application/octet-stream"
    format = "ndjson-bytes"


@extend_schema(tags=["seasons"])
@_reading(s.SeasonSerializer, listed="List seasons", read="Read a season")
class SeasonViewSet(ProblemsWhenExporting, _ReadMixin):
    """Seasons of a league; matches join an open season (see POST /matches/ and /matches/import/)."""

    queryset = Season.objects.select_related("league")
    serializer_class = s.SeasonSerializer
    filterset_class = SeasonFilter
    ordering_fields = ["name", "start_date", "end_date", "created_at"]

    @extend_schema(
        summary="Create a season (club admins)",
        request=s.SeasonInput,
        responses={201: s.SeasonSerializer, **error_responses(400, 401, 403, 404)},
        examples=[
            OpenApiExample("A season", request_only=True, value={"league": 1, "name": "Wiosna 2025", "min_matches": 5})
        ],
    )
    def create(self, request):
        data = valid_input(s.SeasonInput, request.data)
        season = services.season_create(actor=request.user, league_id=data.pop("league"), **data)
        return Response(s.SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change or close a season (club admins)",
        description="A closed season is read-only (`season_closed`, 409): `status: open` does not "
        "reopen it — staff do, with a reason (`POST /seasons/{id}/reopen/`).",
        request=s.SeasonUpdateInput,
        responses={200: s.SeasonSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def partial_update(self, request, pk=None):
        season = services.season_update(
            actor=request.user, season_id=pk, **valid_input(s.SeasonUpdateInput, request.data)
        )
        return Response(s.SeasonSerializer(season).data)

    @extend_schema(
        summary="Close a season (club admins)",
        description="From now on the season is read-only: no match joins it, its matches take no "
        "command or ruling (`season_closed`, 409), its settings stay. Logged.",
        request=ms.SeasonCloseInput,
        responses={200: s.SeasonSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def close(self, request, pk=None):
        data = valid_input(ms.SeasonCloseInput, request.data)
        season = services.season_close(actor=request.user, season_id=pk, reason=data.get("reason", ""))
        return Response(s.SeasonSerializer(season).data)

    @extend_schema(
        summary="Reopen a closed season (staff, with a reason)",
        description="The reason is logged: `GET /seasons/{id}/history/`.",
        request=ms.SeasonReopenInput,
        responses={200: s.SeasonSerializer, **error_responses(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "A late result", request_only=True, value={"reason": "a paper sheet of the last evening turned up"}
            )
        ],
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def reopen(self, request, pk=None):
        data = valid_input(ms.SeasonReopenInput, request.data)
        season = services.season_reopen(actor=request.user, season_id=pk, reason=data["reason"])
        return Response(s.SeasonSerializer(season).data)

    @extend_schema(
        summary="The season's closings and reopenings: who, when, why",
        responses={200: ms.SeasonStatusChangeSerializer(many=True), **error_responses(401, 404)},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def history(self, request, pk=None):
        season = self.get_object()
        changes = SeasonStatusChange.objects.filter(season=season).order_by("created_at", "id")
        return listed(request, ms.SeasonStatusChangeSerializer(changes, many=True).data)

    @extend_schema(
        summary="The end-of-season summary",
        description="The champion (`final` once the season is closed; until then the leader), the "
        "final table, most kreski, Max deals (R21), the best single match and the most "
        "improved rating (μ − 3σ from before a player's first season match to after his "
        "last).",
        responses={200: ms.SeasonSummarySerializer, **error_responses(401, 404)},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def summary(self, request, pk=None):
        return Response(ms.SeasonSummarySerializer(season_summary(season=self.get_object())).data)

    @extend_schema(
        summary="The season's standings",
        description="Recomputed after every finished or abandoned match of the season (abandoned matches count "
        "for nothing). Ranking: total balance, balance per match, matches won, head-to-head balance "
        "among the tied players; below `min_matches` a player is listed unranked at the end. "
        "As CSV: `GET standings/csv/` (here `?format=csv` or `Accept: text/csv` still answer it, "
        "for clients written before; a generated client calls the CSV operation). "
        f"As an XLSX workbook: `?format=xlsx` or `Accept: {XLSXRenderer.media_type}`, or `GET standings/xlsx/`.",
        parameters=[OpenApiParameter("format", exclude=True), CSVQuery],
        responses={
            (200, "application/json"): s.StandingsSerializer,
            (200, "text/csv"): s.StandingsSerializer,
            (200, XLSXRenderer.media_type): XLSX_RESPONSE,
            **error_responses(400, 401, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[JSONRenderer, BrowsableAPIRenderer, StandingsCSVRenderer, StandingsXLSXRenderer],
    )
    def standings(self, request, pk=None, format=None):
        return self._standings(request, self.get_object())

    @extend_schema(
        operation_id="seasons_standings_csv",
        summary="The season's standings as CSV",
        description="The rows of `GET standings/` as `text/csv`: one header line, then one line per row "
        "(columns as in JSON, with `placements` as `first`…`fourth` and `rating` as `mu`, `sigma`, "
        "`ordinal`). `?dialect=excel-pl`: as a Polish Excel opens it (`;`, a UTF-8 BOM, decimal commas, "
        'Polish headers, "tak"/"nie"). Errors are problem+json, as everywhere.',
        parameters=[OpenApiParameter("format", exclude=True), CSVQuery],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The standings as CSV."),
            **error_responses(400, 401, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="standings/csv",
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[StandingsCSVRenderer],
    )
    def standings_csv(self, request, pk=None, format=None):
        return self._standings(request, self.get_object())

    @extend_schema(
        operation_id="seasons_standings_xlsx",
        summary="The season's standings as an XLSX workbook",
        description="The rows of `GET standings/` as one sheet: typed cells (numbers, booleans, the last "
        "match's time in the server's time zone, named in its header), headers in the reader's language "
        "(Accept-Language), the header row frozen. Errors are problem+json, as everywhere.",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={(200, XLSXRenderer.media_type): XLSX_RESPONSE, **error_responses(401, 404)},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="standings/xlsx",
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[StandingsXLSXRenderer],
    )
    def standings_xlsx(self, request, pk=None, format=None):
        return self._standings(request, self.get_object())

    @reads_from_replica()
    def _standings(self, request, season: Season) -> Response:
        valid_input(CSVQuery, request.query_params)  # ?dialect= checked whatever the format: 400 naming it
        data = s.StandingsSerializer(
            {
                "season": season.pk,
                "computed_at": season.computed_at,
                "rows": selectors.standing_rows(season.pk),
                **selectors.season_uncounted(season.pk),
            }
        ).data
        response = Response(data)
        kind = getattr(request.accepted_renderer, "format", None)
        if kind in ("csv", "xlsx"):
            attachment(response, f"season-{season.pk}-standings.{kind}")
        return response

    @extend_schema(
        operation_id="seasons_matches_xlsx",
        summary="The season's matches and deals as an XLSX workbook",
        description="Two sheets: the matches in the order they were filed (date of play, evening, round and "
        "table, status, players and points by seat, finished deals, confirmed, withdrawn) and their "
        "finished deals, one row per deal and seat (kind, player, tricks, points, kreski). Typed cells, "
        "headers in the reader's language, header rows frozen. For the members of the season's club and "
        "staff (as `records/`); 404 for anyone else.",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={(200, XLSXRenderer.media_type): XLSX_RESPONSE, **error_responses(401, 404)},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="matches/xlsx",
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[XLSXRenderer],
    )
    def matches_xlsx(self, request, pk=None, format=None):
        season = self.club_season(request, pk)
        with reads_from_replica():
            tables = season_match_tables(season.pk)
        return attachment(Response(tables), f"season-{season.pk}-matches.xlsx")

    def club_season(self, request, pk) -> Season:
        """The season, for the members of its club and staff; 404 for anyone else."""
        season = self.get_object()
        if not (request.user.is_staff or selectors.club_role(request.user, season.league.club_id)):
            raise NotFound(gettext("no season %(id)s") % {"id": pk})
        return season

    @extend_schema(
        summary="Export the season's matches as kierki-match/1 records (NDJSON)",
        description="Streams every match of the season, in the order they were filed, as `application/x-ndjson`: "
        "one `kierki-match/1` record (as `GET /matches/{id}/record/` gives a player: finished deals "
        "only) per line, with `match`, the match's id, as an extra key (importers ignore it); a "
        'match an arbiter withdrew carries `"withdrawn": true`. '
        "For the members of the season's club and staff; 404 for anyone else.",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                OpenApiTypes.BINARY, description="One kierki-match/1 JSON record per line."
            ),
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="The same lines, typed as bytes (`Accept: "
                "application/octet-stream`), for generated clients.",
            ),
            **error_responses(401, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[JSONRenderer, NDJSONRenderer, NDJSONBytesRenderer],
    )
    def records(self, request, pk=None):
        season = self.club_season(request, pk)
        viewer = games_selectors.Viewer(games_selectors.Viewer.PLAYER)  # finished deals only

        def lines():  # runs as the response streams, after the view returned: it asks for the replica itself
            with reads_from_replica():
                yield from _lines()

        def _lines():
            filed = SeasonMatch.objects.filter(season=season).select_related("match").order_by("pk")
            for season_match in filed.iterator(chunk_size=100):
                record = {
                    "match": str(season_match.match_id),
                    **games_record.match_record(match=season_match.match, viewer=viewer),
                }
                if season_match.match.withdrawn:  # kept in the export, marked: it counts for nothing
                    record["withdrawn"] = True
                yield json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"

        bytes_asked = getattr(request.accepted_renderer, "format", None) == "ndjson-bytes"
        response = streamed(request, lines(), "application/octet-stream" if bytes_asked else "application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="season-{season.pk}-records.ndjson"'
        return response


# --- players -----------------------------------------------------------------------------------------


@extend_schema(tags=["players"])
@_reading(s.PlayerSerializer, listed="List players")
class PlayerViewSet(_ReadMixin):
    """Players (users who play, and guests filed from paper score sheets). A club's profiles
    without an account are for its officials only (``scoring.members.players_visible``)."""

    queryset = Player.objects.order_by("username")
    serializer_class = s.PlayerSerializer
    filterset_fields = ["username"]
    ordering_fields = ["username"]

    def get_queryset(self):
        return members.players_visible(self.request.user).order_by("username")

    @extend_schema(
        summary="A player: latest matches, season balances, ratings with their history",
        parameters=[s.ProfileQuery],
        filters=False,
        responses={200: s.PlayerDetailSerializer, **error_responses(400, 401, 404)},
    )
    def retrieve(self, request, pk=None):
        query = valid_input(s.ProfileQuery, request.query_params)
        profile = selectors.player_profile(self.get_object(), include_unconfirmed=query["include_unconfirmed"])
        return Response(s.PlayerDetailSerializer(profile).data)
