"""Privacy requests (issue 28, docs/privacy.md): a person downloads everything the service holds
about him and erases himself (``me/data/``, ``me/erasure/``); a club admin does the same for a
member of his club, staff for anyone (``players/{id}/data/``, ``players/{id}/erasure/``), and
corrects a member's display name (``players/{id}/name/``). No OAuth scope grants them: an erasure
cannot be undone, an export is everything about a person and a name correction reseals old logs,
so none is left to an app (api/oauth_scopes.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.erasure import erasure_role, person_erase
from accounts.personal_data import person_export
from accounts.rectification import player_rename
from games.domain.exceptions import InvalidInput, NotFound
from games.domain.ids import int_id
from games.models import Player

from .problems import problem_responses

errors = problem_responses(
    {
        400: "`confirm` is not the name asked for (`invalid`).",
        401: "Not authenticated.",
        403: "A Bearer token: no app erases or exports a person (`insufficient_scope`); or the person belongs "
        "to another club too, or is a club admin (`not_allowed`).",
        404: "No such player among your club's members (`not_found`).",
        409: "The person sits in a match still in progress (`person_in_unfinished_match`, with `matches`); or a "
        "match naming him fails its chain audit (`chain_broken`).",
    }
)

EXPORT = OpenApiResponse(
    response=inline_serializer("PersonalData", {"format": serializers.CharField()}),
    description="`kierki-personal-data/1`: `account`, `player`, `clubs`, `tokens` (names and scopes, never a "
    "secret), `matches` (each with its `kierki-match/1` `record`), `standings`, `ratings`, `disputes_raised`, "
    "`privacy_log`. Recorded in the privacy log.",
)
ERASED = inline_serializer(
    "Erasure",
    {
        "status": serializers.CharField(help_text="`erased`"),
        "erased_number": serializers.IntegerField(help_text='The N of "erased player #N", as results show him now.'),
    },
)
CONFIRM = inline_serializer(
    "ErasureRequest", {"confirm": serializers.CharField(help_text="The person's name, as asked.")}
)


def _attachment(document: dict) -> Response:
    response = Response(document)
    response["Content-Disposition"] = 'attachment; filename="kierki-personal-data.json"'
    return response


def _body_field(request, field: str):
    """``field`` of a JSON object body; None when absent or the body is no object."""
    return request.data.get(field) if isinstance(request.data, dict) else None


def _confirmed(request, name: str) -> None:
    if _body_field(request, "confirm") != name:
        raise InvalidInput(_("To erase, send confirm with the name %(name)s.") % {"name": name}, field="confirm")


def _player(pk) -> Player:
    player = Player.objects.filter(pk=int_id(pk), erased_number__isnull=True).select_related("user").first()
    if player is None:
        raise NotFound(_("No such person among your club's members."))
    return player


class MyDataView(APIView):
    @extend_schema(
        operation_id="me_data",
        summary="Download everything the service holds about you",
        tags=["privacy"],
        responses={200: EXPORT, **errors(401, 403)},
    )
    def get(self, request):
        user = request.user
        return _attachment(person_export(actor=user, player=getattr(user, "player", None), user=user))


class MyErasureView(APIView):
    @extend_schema(
        operation_id="me_erasure",
        summary="Erase yourself: your name, e-mail, account and tokens",
        tags=["privacy"],
        description='Your results stay, as "erased player #N"; you are signed out for good. `confirm` is your '
        "username.",
        request=CONFIRM,
        responses={200: ERASED, **errors(400, 401, 403, 409)},
    )
    def post(self, request):
        user = request.user
        _confirmed(request, user.get_username())
        done = person_erase(actor=user, player=getattr(user, "player", None), user=user)
        return Response({"status": "erased", "erased_number": done.erased_number})


class PlayerDataView(APIView):
    @extend_schema(
        operation_id="players_data",
        summary="Download everything the service holds about a member (club admin)",
        tags=["privacy"],
        responses={200: EXPORT, **errors(401, 403, 404)},
    )
    def get(self, request, pk=None):
        player = _player(pk)
        role, club = erasure_role(request.user, player, player.user)
        return _attachment(person_export(actor=request.user, player=player, by_role=role, club_id=club))


class PlayerErasureView(APIView):
    @extend_schema(
        operation_id="players_erasure",
        summary="Erase a member of your club (club admin)",
        tags=["privacy"],
        description='His results stay, as "erased player #N". `confirm` is his name as the club lists it.',
        request=CONFIRM,
        responses={200: ERASED, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, pk=None):
        player = _player(pk)
        erasure_role(request.user, player, player.user)  # 404 before a wrong confirmation says more
        _confirmed(request, player.username)
        done = person_erase(actor=request.user, player=player)
        return Response({"status": "erased", "erased_number": done.erased_number})


NAME = inline_serializer("NewName", {"name": serializers.CharField(help_text="The display name to show from now on.")})
NAMED = inline_serializer(
    "NameCorrection",
    {
        "id": serializers.IntegerField(help_text="The player's id."),
        "name": serializers.CharField(help_text="His display name now, as every result shows it."),
    },
)
rename_errors = problem_responses(
    {
        400: '`name` is empty, too long or unprintable, reads as an erased person ("erased player #N"), or is '
        "another person's name or another account's username (`invalid`, with `field`: `name`).",
        401: "Not authenticated.",
        403: "A Bearer token (`insufficient_scope`); or the member is named by the username he signs in with, "
        "or asks for himself, or belongs to another club too (`not_allowed`).",
        404: "No such player among your club's members (`not_found`).",
        409: "The member sits in a match still in progress (`person_in_unfinished_match`, with `matches`); or a "
        "match naming him by the old name fails its chain audit (`chain_broken`).",
    }
)


class PlayerNameView(APIView):
    @extend_schema(
        operation_id="players_name",
        summary="Correct the display name of a member of your club (club admin)",
        tags=["privacy"],
        description="A member without an account, or one who claimed his profile under a username of his own. "
        "Every result shows the new name, the past ones included; no hashed byte of the log "
        "changes (it names him by his public id; an event stored before that named him by name is redacted "
        "and sealed). Recorded in the privacy log.",
        request=NAME,
        responses={200: NAMED, **rename_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, pk=None):
        player = _player(pk)
        player = player_rename(actor=request.user, player=player, name=_body_field(request, "name"))
        return Response({"id": player.pk, "name": player.username})
