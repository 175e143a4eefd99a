"""The REST API under ``/api/v1/``: thin views — parse, call a service or a selector, serialise.

Who may read a match, and what of it, is ``games.read.selectors``'s; every command runs through
``games.write.commands.run`` (it admits the caller, decides, and answers with what the command
produced; docs/card-play.md). Errors become problem+json in ``api.problems``; ``If-Match`` and the
ETag are ``api.preconditions``'s; ``Idempotency-Key`` is ``api.idempotency``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers as drf_serializers
from rest_framework import status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, Throttled, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config import signin_counts
from config.replica import reads_from_replica
from games.domain.exceptions import CommandError, NotFound
from games.models import Match
from games.read import selectors
from games.read.record import match_record
from games.write import commands, services, signoffs
from games.write.results import CommandResult
from scoring.invitations import match_create_with_consent
from scoring.services import season_match_create, season_record_import

from . import audit_serializers, audit_views, tokens
from . import serializers as s
from .authentication import BearerTokenAuthentication, PlayerTokenAuthentication
from .filters import MatchFilter
from .idempotency import HEADER as IDEMPOTENCY_HEADER
from .idempotency import REPLAYED_HEADER, idempotent
from .leagues import SEASON_FILING, FilesIntoASeason
from .pagination import limit_of, listed, log_page
from .parsers import BoundedJSONParser
from .permissions import CanImportRecords, TokenHasScope, check_scorer_appointment
from .preconditions import IF_MATCH, expected_version, with_version
from .problems import PROBLEMS, RULES, problem_responses, problem_type
from .throttles import AuthTokenThrottle
from .versioning import is_v2

# --- schema helpers ---------------------------------------------------------------------------

_ERROR_TEXT = {
    400: "Malformed input (`code: invalid`, `field`, `errors`).",
    401: "Not authenticated.",
    403: "Not allowed for your role.",
    404: "No such match, or one you may not see.",
    409: "The match is over (`match_closed`), or this Idempotency-Key's first request is still running "
    "(`idempotency_in_progress`).",
    412: "If-Match is stale; `current_version` says the version now.",
    422: "Illegal under the rules (`code`: the R30 code, `rule`, `error`: the R30 error object), or an "
    "Idempotency-Key reused with another request (`idempotency_key_reused`).",
    429: "Throttled; see Retry-After.",
}


_errors = problem_responses(_ERROR_TEXT)

_ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 201, 412],
    description='The match version, quoted: `"7"`.',
)
_REPLAYED = OpenApiParameter(
    REPLAYED_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=True,
    description="`true` when this response replays an earlier request with the same Idempotency-Key.",
)
_IF_MATCH = OpenApiParameter(
    IF_MATCH,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='Run only if the match is at this version (its ETag, e.g. `"7"`); else 412.',
)
_IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Up to 255 characters, unique per request you mean (kept 24 h per user). A retry with the "
    "same key and body gets the original response; another body → 422; while the first runs → 409.",
)
_PROBLEM_EXAMPLE = OpenApiExample(
    "A rule broken",
    response_only=True,
    status_codes=["422"],
    value={
        "type": "/api/v1/problems/must_follow_suit/",
        "title": "Must follow suit",
        "status": 422,
        "detail": "A player holding the led suit must play a card of it.",
        "code": "must_follow_suit",
        "rule": "R11",
        "error": {"code": "must_follow_suit", "deal": 3, "play_index": 17, "seat": "W", "card": "QS"},
    },
)


_WAIT = OpenApiParameter(
    "wait",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    description="0-30: after the command, wait up to this many seconds for your next move and answer it as "
    "`next_move` (a bot's one request per card; the command itself is not delayed). Only the ASGI server "
    "waits: under WSGI `next_move` is null and the answer says `Long-Poll: unavailable`.",
)


def _command_schema(
    *, operation_id: str, summary: str, description: str, request, examples: list | None = None
) -> Callable:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=["commands"],
        request=request,
        parameters=[_WAIT, _IF_MATCH, _IDEMPOTENCY_KEY, _ETAG, _REPLAYED],
        responses={
            201: OpenApiResponse(s.CommandResultSerializer, description="The events appended; the new version."),
            **_errors(400, 401, 403, 404, 409, 412, 422),
        },
        examples=(examples or []) + [_PROBLEM_EXAMPLE],
        filters=False,
    )


def _valid(serializer_class, data) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ImportQuery(drf_serializers.Serializer):
    allow_duplicate = drf_serializers.BooleanField(
        default=False,
        help_text=(
            "File the record even when a match with the same players and deals is stored already (else 409 "
            "`duplicate_record` naming it)."
        ),
    )


class StateQuery(drf_serializers.Serializer):
    after = drf_serializers.IntegerField(
        min_value=0,
        required=False,
        help_text=("With `wait`: answer once the match's version is past this one (your last known version)."),
    )
    wait = drf_serializers.IntegerField(
        min_value=0,
        max_value=30,
        default=0,
        help_text=(
            "Long-poll: wait up to this many seconds for the match to move past `after`, then answer the state "
            "(0: answer at once). Only the ASGI server waits: under WSGI the state comes at once, with the "
            "header `Long-Poll: unavailable`."
        ),
    )
    until = drf_serializers.ChoiceField(
        choices=["change", "move"],
        default="change",
        help_text=(
            "With `wait`: `change` answers at the match's next change; `move` only once it is your move as a "
            "seated player (your card to play, a lead sale you may still offer in, a deal due, the match over)."
        ),
    )


class EventsQuery(drf_serializers.Serializer):
    after = drf_serializers.IntegerField(min_value=0, default=0, help_text="Only events with seq greater than this.")
    limit = drf_serializers.IntegerField(min_value=1, max_value=1000, default=1000, help_text="At most this many.")
    wait = drf_serializers.IntegerField(
        min_value=0,
        max_value=30,
        default=0,
        help_text=(
            "Long-poll: with no event after `after` yet, wait up to this many seconds for one and answer as "
            "soon as it is stored (0: answer at once). Or follow `stream/` (Server-Sent Events). Only the ASGI "
            "server waits: under WSGI the answer comes at once, with the header `Long-Poll: unavailable`."
        ),
    )


# --- matches -------------------------------------------------------------------------------------


class MatchViewSet(viewsets.GenericViewSet):
    """Matches: create, list and read them; deal, offer, decide and play through the commands."""

    parser_classes = [BoundedJSONParser]
    # the settings', player read too
    authentication_classes = [PlayerTokenAuthentication, BearerTokenAuthentication, SessionAuthentication]
    serializer_class = s.MatchSerializer
    filterset_class = MatchFilter
    queryset = Match.objects.none()

    def get_serializer_class(self):
        """The input of a command (the browsable API's form, OPTIONS), else the match."""
        return _INPUTS.get(self.action, s.MatchSerializer)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        return selectors.match_list(user=self.request.user)

    # --- reading ---
    @extend_schema(
        operation_id="matches_list",
        summary="List the matches you may read",
        tags=["matches"],
        description="Staff see every match; others the matches they sit in or score, and a club's arbiters "
        "and admins its season matches.",
        responses={200: s.MatchSerializer(many=True), **_errors(400, 401, 404, not_found="No such page (`?page=`).")},
    )
    @reads_from_replica()  # a list may lag a second; the writer itself is pinned to the primary
    def list(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        data = s.MatchSerializer([selectors.match_detail(m) for m in page], many=True).data
        return self.get_paginated_response(data)

    @extend_schema(
        operation_id="matches_retrieve",
        summary="A match: seats, status, version and its replay summary",
        tags=["matches"],
        parameters=[_ETAG],
        responses={200: s.MatchSerializer, **_errors(401, 404)},
    )
    def retrieve(self, request, pk=None):
        match, _ = selectors.match_get(match_id=pk, user=request.user)
        return with_version(Response(s.MatchSerializer(selectors.match_detail(match)).data), match.version)

    @extend_schema(
        operation_id="matches_state",
        summary="The deal in play as you may see it",
        tags=["matches"],
        parameters=[StateQuery, _ETAG, audit_views.AT_PARAMETER],
        filters=False,
        description="A player (anyone seated, staff and arbiters included) gets his own `hand` (`hands` is null) "
        "and `legal_cards` when on turn; the scorer and the arbiters (staff, the club's arbiters and "
        "admins) get every hand and the legal cards of the seat on turn. With `?at=`: the state "
        "right after that event (`StateAt`). With `?after=<version>&wait=<seconds>`: a long-poll, "
        "answered as soon as the match moves past `after` (a waiting client's one request per "
        "change; a command's answer already carries the state after it).",
        responses={
            200: PolymorphicProxySerializer(
                component_name="StateOrStateAt",
                resource_type_field_name=None,
                serializers=[s.StateSerializer, audit_serializers.StateAtSerializer],
            ),
            **_errors(400, 401, 403, 404),
        },
        examples=[
            OpenApiExample(
                "A player's view (placeholder cards)",
                response_only=True,
                value={
                    "match": "9b2f6f0e-0000-4000-8000-000000000000",
                    "version": 9,
                    "status": "in_progress",
                    "role": "player",
                    "seat": "S",
                    "complete": False,
                    "totals": {"N": 0, "E": 0, "S": 0, "W": 0},
                    "next_deal": None,
                    "deal": {
                        "number": 1,
                        "kind": "rozbojnik",
                        "dealer": "N",
                        "leader": "E",
                        "compensating": False,
                        "hand": ["2S", "9H", "KD"],
                        "hands": None,
                        "trick": [{"seat": "E", "card": "5C"}],
                        "last_trick": None,
                        "tricks": {"N": 0, "E": 0, "S": 0, "W": 0},
                        "tricks_completed": 0,
                        "plays": 1,
                        "to_play": "S",
                        "legal_cards": ["2S", "9H", "KD"],
                        "lead_sale": {"can_sell": False, "holder": "E", "decided": False, "offers": [], "sale": None},
                    },
                },
            )
        ],
    )
    @action(detail=True, methods=["get"])
    def state(self, request, pk=None):
        if "at" in request.query_params:  # time travel (issue 5): the state after event `at`
            return audit_views.state_at(request, pk)
        match, viewer = selectors.match_get(match_id=pk, user=request.user)
        _valid(StateQuery, request.query_params)  # already waited for, in api.streams.state_long_poll
        data = s.StateSerializer(selectors.match_state(match=match, viewer=viewer)).data
        return with_version(Response(data), match.version)

    @extend_schema(
        operation_id="matches_events",
        summary="The event log, as you may see it",
        tags=["matches"],
        parameters=[EventsQuery, _ETAG],
        filters=False,
        description="Events after `seq` `after`. While a recorded deal is in play a player sees only his own hand "
        "in its `deal_started`, and no hashes from that event on (`redacted: true`). Server-dealt "
        "hands are never in `deal_started` (a commitment is); they come as `hands_revealed` when "
        "the deal ends.",
        responses={200: s.EventsSerializer, **_errors(400, 401, 404)},
    )
    @action(detail=True, methods=["get"])
    def events(self, request, pk=None):
        match, viewer = selectors.match_get(match_id=pk, user=request.user)
        query = _valid(EventsQuery, request.query_params)
        query.pop("wait")  # already waited for, in api.streams.events_long_poll
        if is_v2(request):
            query["limit"] = limit_of(request)  # v2: one limit for every list
        events = selectors.match_events(match=match, viewer=viewer, **query)
        data = s.EventsSerializer(events, context={"request": request}).data
        return with_version(log_page(request, data) if is_v2(request) else Response(data), match.version)

    @extend_schema(
        operation_id="matches_record",
        summary="The kierki-match/1 record",
        tags=["matches"],
        parameters=[_ETAG],
        filters=False,
        description="Every finished deal; the deal in play too for the scorer and the arbiters (never for "
        "anyone seated).",
        responses={200: s.RecordSerializer, **_errors(401, 404)},
    )
    @action(detail=True, methods=["get"])
    def record(self, request, pk=None):
        match, viewer = selectors.match_get(match_id=pk, user=request.user)
        return with_version(Response(match_record(match=match, viewer=viewer)), match.version)

    # --- commands ---
    @extend_schema(
        operation_id="matches_create",
        summary="Create a match",
        tags=["matches"],
        request=s.MatchCreateInput,
        parameters=[_IDEMPOTENCY_KEY, _ETAG, _REPLAYED],
        responses={201: s.MatchSerializer, **_errors(400, 401, 403, 404, 409, 422)},
        examples=[
            OpenApiExample(
                "A server-dealt match",
                request_only=True,
                value={
                    "seats": {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
                    "first_dealer": "N",
                    "dealing": "server",
                    "ruleset": {"options": {}},
                },
            )
        ],
    )
    @idempotent
    def create(self, request):
        body = _valid(s.MatchCreateInput, request.data)
        seats = dict(body["seats"])
        check_scorer_appointment(request.user, scorer=body.get("scorer"), dealing=body["dealing"], seats=seats)
        create = (
            match_create_with_consent  # issue 30: seated users accept their seats
            if body.get("season") is None
            else partial(season_match_create, season_id=body["season"])
        )
        created = create(
            actor=request.user,
            seats=seats,
            first_dealer=body["first_dealer"],
            dealing=body["dealing"],
            ruleset=body.get("ruleset"),
            scorer=body.get("scorer"),
            played_on=body.get("played_on"),
        )
        match = selectors.match_load(created.pk)  # the creator reads it only if seated, scorer or staff
        location = reverse("match-detail", args=[match.pk], request=request)
        response = Response(
            s.MatchSerializer(selectors.match_detail(match)).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )
        return with_version(response, match.version)

    @_command_schema(
        operation_id="matches_deal",
        summary="Start the next deal",
        request=s.DealInput,
        description="Server-dealt matches: any seated player or the scorer; send no hands — the server deals "
        "with `secrets` and publishes a commitment (SHA-256 over the hands and a salt), revealed "
        "with the hands when the deal ends. Recorded matches: the scorer sends the four hands.",
        examples=[
            OpenApiExample("Server-dealt", request_only=True, value={}),
            OpenApiExample(
                "Recorded (placeholder hands, 13 cards each)",
                request_only=True,
                value={"hands": {"N": ["2S", "..."], "E": ["3S", "..."], "S": ["4S", "..."], "W": ["5S", "..."]}},
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def deals(self, request, pk=None):
        return self._command(request, pk, services.deal_start, s.DealInput, lambda body: {"hands": body.get("hands")})

    @_command_schema(
        operation_id="matches_play",
        summary="Play a card",
        request=s.PlayInput,
        description="A player plays for his own seat; the scorer for any (`seat`, default the seat "
        "on turn). A card you do not hold is `card_not_in_hand` wherever it is.",
        examples=[
            OpenApiExample("A player", request_only=True, value={"card": "QS"}),
            OpenApiExample("A scorer", request_only=True, value={"card": "QS", "seat": "W"}),
        ],
    )
    @action(detail=True, methods=["post"])
    @idempotent(claimed=True)
    def plays(self, request, pk=None):
        claim = getattr(request, "idempotency_claim", None)  # an Idempotency-Key stored with the play (api.idempotency)
        return self._command(request, pk, services.card_play, s.PlayInput, lambda body: dict(body, claim=claim))

    @_command_schema(
        operation_id="matches_tally",
        summary="File the next deal from the paper sheet (R31–R33)",
        request=s.TallyInput,
        description="Recorded matches, their scorer or a player seated at the table (who then counts among "
        "the sheet's filers, so two other seated players confirm it): the next deal due, whole, as the "
        "paper sheet has it — "
        "its `tally` (what each player took, R31) or only its `points` (after multipliers, before "
        "the sale transfer, R33) — and, in a compensating odgrywka whose lead was sold, its `sale` "
        "(or sell it first through `lead-offers/` and `lead-decision/`, then send no `sale`). "
        "One `deal_tallied` event. A tally no split of the deck gives, points no tally gives, a "
        "body with both or neither: 422 `bad_tally` (`error.seat`: the first seat whose entry is at "
        "fault, else null); nothing is stored.",
        examples=[
            OpenApiExample(
                "A tallied rozbójnik",
                request_only=True,
                value={
                    "tally": {
                        "N": {
                            "tricks": 3,
                            "hearts": 4,
                            "queens": 1,
                            "kings_jacks": 2,
                            "king_of_hearts": False,
                            "last_tricks": 0,
                        },
                        "E": {
                            "tricks": 0,
                            "hearts": 0,
                            "queens": 0,
                            "kings_jacks": 0,
                            "king_of_hearts": False,
                            "last_tricks": 0,
                        },
                        "S": {
                            "tricks": 6,
                            "hearts": 5,
                            "queens": 2,
                            "kings_jacks": 4,
                            "king_of_hearts": True,
                            "last_tricks": 2,
                        },
                        "W": {
                            "tricks": 4,
                            "hearts": 4,
                            "queens": 1,
                            "kings_jacks": 2,
                            "king_of_hearts": False,
                            "last_tricks": 0,
                        },
                    }
                },
            ),
            OpenApiExample(
                "A tallied odgrywka",
                request_only=True,
                value={"tally": {"N": {"tricks": 5}, "E": {"tricks": 2}, "S": {"tricks": 6}, "W": {"tricks": 0}}},
            ),
            OpenApiExample(
                "Points only, lead sold",
                request_only=True,
                value={"points": {"N": 0, "E": 0, "S": 520, "W": 0}, "sale": {"buyer": "N", "price": 2}},
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def tallies(self, request, pk=None):
        return self._command(
            request,
            pk,
            services.deal_tally,
            s.TallyInput,
            lambda body: {"tally": body.get("tally"), "points": body.get("points"), "sale": body.get("sale")},
        )

    @_command_schema(
        operation_id="matches_correct",
        summary="Correct the latest deal filed from the paper sheet (issue 23)",
        request=s.TallyInput,
        description="The latest deal filed from the paper sheet, filed again in its place with the body of "
        "`tallies/` — before the next deal starts (R7: its compensating deals follow the new entry). Its "
        "scorer while no signature counts for the result; an arbiter of the match (never one seated in it) "
        "at any time, so after the result was confirmed too, which voids the signatures. One "
        "`deal_corrected` event. Anyone else: 403 `not_allowed` (`arbiter_involved` for an arbiter "
        "seated in the match); a played deal, a deal in play or none filed: 422 `ruling_not_allowed`; "
        "a bad entry as for `tallies/` (422 `bad_tally`, ...); nothing is stored.",
        examples=[
            OpenApiExample(
                "Points only",
                request_only=True,
                value={"points": {"N": -20, "E": -60, "S": -100, "W": -80}},
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def corrections(self, request, pk=None):
        return self._command(
            request,
            pk,
            services.deal_correct,
            s.TallyInput,
            lambda body: {"tally": body.get("tally"), "points": body.get("points"), "sale": body.get("sale")},
        )

    @_command_schema(
        operation_id="matches_lead_offer",
        summary="Offer to buy the lead right (R26, R28)",
        request=s.LeadOfferInput,
        description="In a compensating odgrywka, before the holder decides and before the first "
        "card, any player but the holder may offer (the scorer names the buyer's seat); "
        "also before the deal is dealt or filed from a paper sheet.",
        examples=[OpenApiExample("Two tricks", request_only=True, value={"price": 2})],
    )
    @action(detail=True, methods=["post"], url_path="lead-offers")
    @idempotent
    def lead_offers(self, request, pk=None):
        return self._command(request, pk, services.lead_offer, s.LeadOfferInput, lambda body: dict(body))

    @_command_schema(
        operation_id="matches_lead_decision",
        summary="Accept an offer or keep the lead (R28)",
        request=s.LeadDecisionInput,
        description="The lead holder (or the scorer) accepts the offer made by event `offer` (its "
        "seq, as listed in the state's `lead_sale.offers`) or keeps the lead.",
        examples=[
            OpenApiExample("Accept", request_only=True, value={"offer": 12}),
            OpenApiExample("Keep", request_only=True, value={"keep": True}),
        ],
    )
    @action(detail=True, methods=["post"], url_path="lead-decision")
    @idempotent
    def lead_decision(self, request, pk=None):
        return self._command(
            request,
            pk,
            services.lead_decide,
            s.LeadDecisionInput,
            lambda body: {"offer": body.get("offer"), "keep": body.get("keep", False)},
        )

    @extend_schema(
        operation_id="matches_import",
        summary="Import a kierki-match/1 record",
        tags=["matches"],
        request=s.RecordSerializer,
        description="For staff and members of the `scorers` group. The record is replayed under the rules, "
        "all or nothing; an illegal one → 422 with `error`, the R30 error object, and nothing "
        "stored. Unknown player names become guest players. A record whose players and deals "
        "(hands and plays, or tallies or points, in order) equal a match stored already → 409 "
        "`duplicate_record` with `match`, the stored match's id, unless `?allow_duplicate=true`.",
        parameters=[_IDEMPOTENCY_KEY, _ETAG, _REPLAYED, SEASON_FILING, ImportQuery],
        filters=False,
        responses={201: s.ImportResultSerializer, **_errors(400, 401, 403, 404, 409, 422)},
        examples=[_PROBLEM_EXAMPLE],
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        permission_classes=[IsAuthenticated, TokenHasScope, CanImportRecords | FilesIntoASeason],
    )
    @idempotent
    def import_record(self, request):
        season = request.query_params.get("season")
        allow_duplicate = _valid(ImportQuery, request.query_params)["allow_duplicate"]
        match = (
            services.record_import(actor=request.user, record=request.data, allow_duplicate=allow_duplicate)
            if season is None
            else season_record_import(
                actor=request.user, season_id=season, record=request.data, allow_duplicate=allow_duplicate
            )
        )
        location = reverse("match-detail", args=[match.pk], request=request)
        response = Response(
            s.ImportResultSerializer(selectors.import_summary(match)).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )
        return with_version(response, match.version)

    # --- the table signs, arbiters withdraw (games.write.signoffs) ---
    @_command_schema(
        operation_id="matches_confirm",
        summary='Confirm the sheet ("I confirm this sheet")',
        request=None,
        description="A player seated in the finished match who did not file it (its creator, its scorer) confirms "
        "its result: a `result_confirmed` event (payload `seat`, `by`, `result`: the digest of the result "
        "signed). Once two seats have signed the current result, it counts in standings, ratings and "
        "profiles (`confirmation.status: confirmed`); a ruling or filing that changes it voids the "
        "signatures, and the match awaits confirmation again. A player who "
        "disagrees disputes it instead (`disputes/`). 403 `filer_cannot_confirm`, 409 "
        "`already_confirmed`, 409 `match_not_finished`.",
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def confirmations(self, request, pk=None):
        return self._command(request, pk, signoffs.result_confirm, None, lambda body: {})

    @_command_schema(
        operation_id="matches_withdraw",
        summary="Withdraw a match filed by mistake",
        request=s.ReasonInput,
        description="An arbiter of the match (staff, an arbiter or admin of its club) who neither plays in it nor "
        "scores it (else 403 `arbiter_involved`) withdraws it: a `match_withdrawn` event (payload "
        "`reason`, `by`). It then counts for nothing in standings and ratings and shows as withdrawn; "
        "nothing is deleted. Undo with `reinstatement/`. 409 `withdrawal_conflict` if withdrawn already.",
        examples=[OpenApiExample("Filed twice", request_only=True, value={"reason": "Filed twice: see match 7c1e…"})],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def withdrawal(self, request, pk=None):
        return self._command(request, pk, signoffs.match_withdraw, s.ReasonInput, _reason)

    @_command_schema(
        operation_id="matches_reinstate",
        summary="Reinstate a withdrawn match",
        request=s.ReasonInput,
        description="The same arbiters take a withdrawal back: a `match_reinstated` event (payload `reason`, `by`); "
        "the match counts again as before. 409 `withdrawal_conflict` if it is not withdrawn.",
        examples=[OpenApiExample("Withdrawn by mistake", request_only=True, value={"reason": "Not a duplicate."})],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reinstatement(self, request, pk=None):
        return self._command(request, pk, signoffs.match_reinstate, s.ReasonInput, _reason)

    def _command(self, request, pk, run: Callable[..., CommandResult], input_class, arguments: Callable) -> Response:
        """Parse, run, serialise. The command runs through ``games.write.commands.run``, which admits the
        caller (outsiders get 404), locates a broken rule and answers the caller's role with the
        result; a request refused before it ran (bad input, a bad If-Match) is hidden from
        outsiders the same way (``commands.hide_from_outsiders``)."""
        try:
            body = _valid(input_class, request.data) if input_class is not None else {}
            result = run(match_id=pk, actor=request.user, expected_version=expected_version(request), **arguments(body))
        except (CommandError, APIException) as refusal:
            commands.hide_from_outsiders(refusal, match_id=pk, actor=request.user)
            raise
        return self.command_answer(result)

    def command_answer(self, result: CommandResult) -> Response:
        """A command's answer: what it appended, as its caller may see it, with the new version."""
        # Already in its JSON form: ``s.CommandResultSerializer`` documents it (the schema, and a test
        # checks that it would give the same). Running it on every command deep-copies its nested
        # fields, a tenth of a card play's CPU.
        data = selectors.command_events(result, result.role)
        if is_v2(self.request):
            data = {**data, "events": [s.event_in_v2(event) for event in data["events"]]}
        return with_version(Response(data, status=status.HTTP_201_CREATED), result.match.version)


def _reason(body: dict) -> dict:
    return {"reason": body["reason"]}


_INPUTS = {
    "create": s.MatchCreateInput,
    "deals": s.DealInput,
    "plays": s.PlayInput,
    "lead_offers": s.LeadOfferInput,
    "lead_decision": s.LeadDecisionInput,
    "import_record": s.RecordSerializer,
    "tallies": s.TallyInput,
    "corrections": s.TallyInput,
    "withdrawal": s.ReasonInput,
    "reinstatement": s.ReasonInput,
}


# --- auth ----------------------------------------------------------------------------------------


class TokenView(ObtainAuthToken):
    """``POST /api/v1/auth/token/``: a username and password for the user's API token. Deprecated
    (issue 26): OAuth or a personal access token instead; every answer says so (``Deprecation``)."""

    throttle_classes = [AuthTokenThrottle]
    # JSON only, as everywhere (ObtainAuthToken's own list takes forms too), with the depth and NUL limits.
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="auth_token",
        summary="Get your API token (deprecated)",
        description="Deprecated: sign apps in with OAuth 2.0 (code flow with PKCE, /o/authorize/) and scripts "
        "with a personal access token (made on the page /accounts/tokens/). Keys made here still work with full scope "
        "and are listed and revoked on that page; every answer carries `Deprecation`.",
        deprecated=True,
        tags=["auth"],
        request=s.TokenInput,
        auth=[],
        responses={200: s.TokenSerializer, **_errors(400, 429)},
    )
    def post(self, request, *args, **kwargs):
        # The sign-in forms' counts (config.signin_counts): a guess here fills the same ones.
        username = request.data.get("username", "") if isinstance(request.data, dict) else ""
        attempt = signin_counts.signin_attempt(request=request, username=username)
        if not attempt.allowed:
            raise Throttled(wait=attempt.retry_after)
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            if api_settings.NON_FIELD_ERRORS_KEY not in serializer.errors:  # no password was checked
                attempt.give_back()
            raise ValidationError(serializer.errors)
        attempt.give_back()
        token, _ = tokens.token_issue(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Deprecation"] = tokens.DEPRECATION  # RFC 9745
        return response


# --- ping ------------------------------------------------------------------------------------------


class PingView(APIView):
    """``GET /api/v1/ping/``: the cheapest authenticated request (a client's credentials check, and the
    baseline of ``benchmarks/api_plays.py``). No database work beyond authentication."""

    @extend_schema(
        operation_id="ping",
        summary="Check your credentials",
        tags=["auth"],
        description='`{"ok": true}` when the request is authenticated (e.g. a token works); else 401.',
        responses={200: inline_serializer("Ping", {"ok": drf_serializers.BooleanField()}), **_errors(401)},
    )
    def get(self, request):
        return Response({"ok": True})


# --- problem types -----------------------------------------------------------------------------------


def _problem_type(code: str) -> dict[str, Any]:
    status_code, title, description = PROBLEMS[code]
    return {
        "code": code,
        "type": problem_type(code),
        "status": status_code,
        "title": title,
        "rule": RULES.get(code),
        "description": description,
    }


class ProblemTypeListView(APIView):
    """Every problem ``type`` the API returns, with its status and meaning."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="problems_list",
        summary="The problem types",
        tags=["problems"],
        auth=[],
        responses={200: s.ProblemTypeSerializer(many=True)},
    )
    def get(self, request):
        return listed(request, s.ProblemTypeSerializer([_problem_type(c) for c in sorted(PROBLEMS)], many=True).data)


class ProblemTypeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="problems_retrieve",
        summary="One problem type",
        tags=["problems"],
        auth=[],
        responses={200: s.ProblemTypeSerializer, **_errors(404)},
    )
    def get(self, request, code: str):
        if code not in PROBLEMS:
            raise NotFound(gettext("no problem type %(code)s") % {"code": repr(code)})
        return Response(s.ProblemTypeSerializer(_problem_type(code)).data)
