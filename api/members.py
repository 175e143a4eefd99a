"""``POST /api/v1/invitations/claim/``: the invited person claims his player profile with a new
account (``scoring.invitations.invitation_claim``). Open to anyone holding a valid link."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import invitations

from . import member_serializers as ms
from .leagues import error_responses, valid_input
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
