"""Input and output serializers of the club evening endpoints: shapes only; what a value means
is ``scoring.evening_services``'s to decide."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Match
from scoring.evening_selectors import evening_attendance, evening_seating
from scoring.evening_services import MAX_ROUNDS
from scoring.models import Evening

USERNAMES = serializers.ListField(child=serializers.CharField(max_length=150), max_length=400)


class EveningInput(serializers.Serializer):
    season = serializers.IntegerField()
    date = serializers.DateField()
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, help_text="How many rounds it plays.")
    dealing = serializers.ChoiceField(
        choices=Match.Dealing.choices,
        default=Match.Dealing.RECORDED,
        help_text="recorded: paper sheets at physical tables; server: online tables.",
    )
    swiss = serializers.BooleanField(
        default=False, help_text="Seat round 2 on by the evening's running totals (the top four together)."
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        default=0,
        help_text="The seating's seed: the same seed and attendance, the same seating.",
    )
    players = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=400,
        required=False,
        default=list,
        help_text="Usernames of the club members present.",
    )


class SignInInput(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=150),
        min_length=1,
        max_length=400,
        help_text="Usernames of club members arriving: present from the next round.",
    )


class RoundInput(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The round expected to be next: a round seated already is refused "
        "(409 round_seated), so a retry seats no second round.",
    )
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=150)),
        required=False,
        max_length=100,
        help_text="Seat the round by hand: tables of four usernames in seat order N, E, S, W; the present players "
        "left out sit out. Without it the server seats the round.",
    )
    preview = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Only show the round as it would be seated (200, the pairs who met before, the repeats against "
        "their lower bound); nothing is saved.",
    )


class AttendanceSerializer(serializers.Serializer):
    player = serializers.CharField()
    arrived_round = serializers.IntegerField(help_text="The first round he could be seated in (1: from the start).")
    left_round = serializers.IntegerField(allow_null=True, help_text="Withdrew before this round; null: present.")
    present = serializers.BooleanField()


class SeatsSerializer(serializers.Serializer):
    N = serializers.CharField()
    E = serializers.CharField()
    S = serializers.CharField()
    W = serializers.CharField()


class MetBeforeSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    tonight = serializers.IntegerField(help_text="Times the pair sat at one table in this evening's earlier rounds.")
    earlier = serializers.IntegerField(help_text="Times the pair sat at one table on the season's earlier evenings.")


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    match = serializers.UUIDField(help_text="The table's season match: file its results there.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    dealing = serializers.ChoiceField(choices=Match.Dealing.choices)
    first_dealer = serializers.ChoiceField(choices=["N", "E", "S", "W"])
    seats = SeatsSerializer()
    met_before = MetBeforeSerializer(many=True, help_text="The table's pairs who met before.")


SEATED_BY = (
    "design / greedy / tabu (the search's start and whether the tabu search improved it; '!clock' appended when "
    "the wall-clock safety stop cut it short), plan (the evening's plan followed), swiss, or manual."
)
REPEATS = "Repeat meetings of the evening once this round is seated (a pair meeting k times counts k - 1)."
LOWER_BOUND = "The fewest repeats any seating of these rounds' attendance could have with no pair meeting three times."


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seated_by = serializers.CharField(help_text=SEATED_BY)
    repeats = serializers.IntegerField(help_text=REPEATS)
    lower_bound = serializers.IntegerField(help_text=LOWER_BOUND)
    created_at = serializers.DateTimeField()
    tables = TableSerializer(many=True)
    sitting_out = serializers.ListField(child=serializers.CharField())


class PreviewTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    first_dealer = serializers.ChoiceField(choices=["N", "E", "S", "W"])
    seats = SeatsSerializer()
    met_before = MetBeforeSerializer(many=True, help_text="The table's pairs who met before.")


class RoundPreviewSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seated_by = serializers.CharField(help_text=SEATED_BY)
    repeats = serializers.IntegerField(help_text=REPEATS)
    lower_bound = serializers.IntegerField(help_text=LOWER_BOUND)
    tables = PreviewTableSerializer(many=True)
    sitting_out = serializers.ListField(child=serializers.CharField())


class EveningSerializer(serializers.ModelSerializer):
    league = serializers.IntegerField(source="season.league_id", read_only=True)
    club = serializers.IntegerField(source="season.league.club_id", read_only=True)
    rounds = serializers.IntegerField(read_only=True)
    seed = serializers.IntegerField(read_only=True)

    class Meta:
        model = Evening
        fields = ["id", "season", "league", "club", "date", "rounds", "dealing", "swiss", "seed", "created_at"]


class EveningDetailSerializer(EveningSerializer):
    players = serializers.SerializerMethodField()
    seating = serializers.SerializerMethodField()

    class Meta(EveningSerializer.Meta):
        fields = [*EveningSerializer.Meta.fields, "players", "seating"]

    @extend_schema_field(AttendanceSerializer(many=True))
    def get_players(self, evening: Evening) -> list[dict]:
        return AttendanceSerializer(evening_attendance(evening), many=True).data

    @extend_schema_field(RoundSerializer(many=True))
    def get_seating(self, evening: Evening) -> list[dict]:
        return RoundSerializer(evening_seating(evening), many=True).data
