"""Input and output serializers of the member endpoints (club players, invitations) and of a
season's life cycle (closing, reopening, the end-of-season summary): shapes only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.members import INVITATION_STATUSES, SEAT_INVITATION_STATUSES, invitation_status, seat_invitation_status

from .league_serializers import StandingRowSerializer

# --- members --------------------------------------------------------------------------------------


class ClubPlayerInput(serializers.Serializer):
    name = serializers.CharField(
        max_length=150,
        trim_whitespace=True,
        help_text="The member's display name (no account needed): seated and filed by it.",
    )


class InvitationStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=INVITATION_STATUSES)


class ClubPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        allow_null=True, help_text="The player profile's id (null: a member account that has not played yet)."
    )
    name = serializers.CharField(help_text="The name seats and records use.")
    account = serializers.CharField(
        allow_null=True, help_text="The username of the profile's account; null until its invitation is claimed."
    )
    role = serializers.CharField(allow_null=True, help_text="The member's role (members with an account).")
    invitation = InvitationStateSerializer(allow_null=True, help_text="The latest invitation to claim the profile.")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField(source="player.username")
    expires_at = serializers.DateTimeField()
    token = serializers.CharField(help_text="Signed; works once, until expires_at.")
    url = serializers.CharField(help_text="The page where the invited person chooses a username and password.")


class InvitationClaimInput(serializers.Serializer):
    token = serializers.CharField(max_length=500)
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})
    email = serializers.CharField(
        max_length=254, required=False, allow_blank=True, help_text="For password resets by e-mail."
    )


class InvitationClaimSerializer(serializers.Serializer):
    username = serializers.CharField()
    player = serializers.CharField(help_text="The profile now owned by the account.")
    club = serializers.IntegerField()


class JoinInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    club_name = serializers.CharField(source="club.name")
    user = serializers.CharField(source="user.username", help_text="The invited account: only he answers.")
    role = serializers.CharField(help_text="The role he has once he accepts.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    status = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=INVITATION_STATUSES))
    def get_status(self, invitation) -> str:
        return invitation_status(invitation)


class SeatInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.UUIDField(source="match_id")
    seat = serializers.CharField()
    user = serializers.CharField(source="user.username", help_text="The seated account: only he answers.")
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    status = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=SEAT_INVITATION_STATUSES))
    def get_status(self, invitation) -> str:
        return seat_invitation_status(invitation)


# --- a season's life cycle --------------------------------------------------------------------------


class SeasonCloseInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class SeasonReopenInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why the season is reopened (logged).")


class SeasonStatusChangeSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="The status the season changed to.")
    actor = serializers.CharField(source="actor_name")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class LeadersSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()


class MaxDealsSerializer(serializers.Serializer):
    player = serializers.CharField()
    count = serializers.IntegerField()


class BestMatchSerializer(serializers.Serializer):
    player = serializers.CharField()
    total = serializers.IntegerField()
    match = serializers.UUIDField()
    finished_at = serializers.DateTimeField()


class MostImprovedSerializer(serializers.Serializer):
    player = serializers.CharField()
    ordinal_before = serializers.FloatField(help_text="μ − 3σ before his first match of the season.")
    ordinal_after = serializers.FloatField(help_text="μ − 3σ after his last match of the season.")
    gain = serializers.FloatField()


class SeasonSummarySerializer(serializers.Serializer):
    season = serializers.IntegerField(source="season.pk")
    status = serializers.CharField(source="season.status")
    final = serializers.BooleanField(help_text="true once the season is closed (the champion is final).")
    champions = serializers.ListField(
        child=serializers.CharField(), help_text="The ranked players in first place (ties share it)."
    )
    table = StandingRowSerializer(many=True)
    most_kreski = LeadersSerializer(allow_null=True)
    max_deals = MaxDealsSerializer(many=True)
    best_match = BestMatchSerializer(allow_null=True)
    most_improved = MostImprovedSerializer(allow_null=True)
    status_changes = SeasonStatusChangeSerializer(many=True)
