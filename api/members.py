"""Invitations: ``POST /api/v1/invitations/claim/``, the invited person claims his player profile
with a new account (``scoring.invitations.invitation_claim``; open to anyone holding a valid
link); ``GET /api/v1/invitations/`` and ``POST /api/v1/invitations/{id}/accept|decline/``, a
user answers an invitation to join a club (issue 30: he joins only if he accepts)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import invitations, members

from . import league_serializers as ls
from . import member_serializers as ms
from .leagues import error_responses, valid_input
from .pagination import listed
from .throttles import AuthTokenThrottle


class InvitationClaimView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # a signed-out visitor; no session, so no CSRF check
    throttle_classes = [AuthTokenThrottle]

    @extend_schema(
        operation_id="invitations_claim",
        tags=["clubs"],
        auth=[],
        summary="Claim an invited player profile: choose a username and a password",
        description="The token comes from the invitation link. Invalid (`invitation_invalid`, 400), "
        "expired (`invitation_expired`, 410) or used (`invitation_used`, 409): nothing "
        "changes. On success the new account owns the profile and is a member of the club.",
        request=ms.InvitationClaimInput,
        responses={201: ms.InvitationClaimSerializer, **error_responses(400, 409, 410, 429)},
    )
    def post(self, request):
        data = valid_input(ms.InvitationClaimInput, request.data)
        invitation = invitations.invitation_claim(
            token=data["token"], username=data["username"], password=data["password"], email=data.get("email", "")
        )
        return Response(
            ms.InvitationClaimSerializer(
                {
                    "username": invitation.claimed_by.username,
                    "player": invitation.player.username,
                    "club": invitation.club_id,
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )


class JoinInvitationListView(APIView):
    @extend_schema(
        operation_id="invitations_list",
        tags=["clubs"],
        summary="My open invitations to join a club",
        description="The invitations addressed to the signed-in user that he has not answered and that "
        "have not expired, newest first.",
        responses={200: ms.JoinInvitationSerializer(many=True), **error_responses(401)},
    )
    def get(self, request):
        return listed(request, ms.JoinInvitationSerializer(members.join_invitations_open(request.user), many=True).data)


class JoinInvitationAcceptView(APIView):
    @extend_schema(
        operation_id="invitations_accept",
        tags=["clubs"],
        summary="Accept an invitation to join a club",
        description="Only the invited user: he becomes a member with the invitation's role. Someone "
        "else's invitation is 404; answered `invitation_used` (409); expired "
        "`invitation_expired` (410).",
        request=None,
        responses={201: ls.MembershipSerializer, **error_responses(401, 404, 409, 410)},
    )
    def post(self, request, pk=None):
        membership = invitations.membership_accept(actor=request.user, invitation_id=pk)
        return Response(ls.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class JoinInvitationDeclineView(APIView):
    @extend_schema(
        operation_id="invitations_decline",
        tags=["clubs"],
        summary="Decline an invitation to join a club",
        description="Only the invited user; nothing else changes (the admin may invite him again).",
        request=None,
        responses={200: ms.JoinInvitationSerializer, **error_responses(401, 404, 409, 410)},
    )
    def post(self, request, pk=None):
        invitation = invitations.membership_decline(actor=request.user, invitation_id=pk)
        return Response(ms.JoinInvitationSerializer(invitation).data)


class SeatInvitationListView(APIView):
    @extend_schema(
        operation_id="seat_invitations_list",
        tags=["matches"],
        summary="My seats in other people's matches, not yet answered",
        description="A match outside a season that someone else created seating you: until you accept "
        "your seat, nobody (its scorer included) plays or files for it in your place.",
        responses={200: ms.SeatInvitationSerializer(many=True), **error_responses(401)},
    )
    def get(self, request):
        return listed(request, ms.SeatInvitationSerializer(members.seat_invitations_open(request.user), many=True).data)


class SeatInvitationAnswerView(APIView):
    answer = None  # invitations.seat_accept or invitations.seat_decline

    def post(self, request, pk=None):
        invitation = type(self).answer(actor=request.user, invitation_id=pk)
        return Response(ms.SeatInvitationSerializer(invitation).data)


class SeatInvitationAcceptView(SeatInvitationAnswerView):
    answer = invitations.seat_accept

    @extend_schema(
        operation_id="seat_invitations_accept",
        tags=["matches"],
        summary="Accept my seat in a match",
        description="Only the seated user; from now on the match's scorer may act and file for the seat. "
        "Someone else's invitation is 404; answered `invitation_used` (409).",
        request=None,
        responses={200: ms.SeatInvitationSerializer, **error_responses(401, 404, 409)},
    )
    def post(self, request, pk=None):
        return super().post(request, pk)


class SeatInvitationDeclineView(SeatInvitationAnswerView):
    answer = invitations.seat_decline

    @extend_schema(
        operation_id="seat_invitations_decline",
        tags=["matches"],
        summary="Decline my seat in a match",
        description="Only the seated user; nobody acts or files for the seat in his place (the match's "
        "creator may abandon it).",
        request=None,
        responses={200: ms.SeatInvitationSerializer, **error_responses(401, 404, 409)},
    )
    def post(self, request, pk=None):
        return super().post(request, pk)
