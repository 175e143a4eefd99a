"""Input and output serializers of the league endpoints (clubs, leagues, seasons, standings,
players): shapes only; what a value means is ``scoring.services``'s to decide."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import Club, League, Membership, Season
from scoring.services import league_ruleset

from .serializers import RulesetSerializer

MAX_MIN_MATCHES = 10_000  # a season option, far below any database's integer limit

ROLES = Membership.Role.choices


# --- clubs and memberships -----------------------------------------------------------------------


class ClubInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=50)


class ClubUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    slug = serializers.SlugField(max_length=50, required=False)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class MembershipInput(serializers.Serializer):
    user = serializers.CharField(max_length=150, help_text="The member's username.")
    role = serializers.ChoiceField(
        choices=ROLES,
        default=Membership.Role.MEMBER,
        help_text="member: plays season matches; scorer: also files them; arbiter: also "
        "rules on them; admin: also manages the club.",
    )


class MembershipRoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLES)


class MembershipSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["user", "role", "created_at"]


# --- leagues and seasons ---------------------------------------------------------------------------


class LeagueRulesetInput(serializers.Serializer):
    name = serializers.CharField(required=False)
    version = serializers.IntegerField(required=False)
    options = serializers.DictField(required=False, help_text=RulesetSerializer().fields["options"].help_text)


class LeagueInput(serializers.Serializer):
    club = serializers.IntegerField()
    name = serializers.CharField(max_length=100)
    ruleset = LeagueRulesetInput(required=False, help_text="The default ruleset of the league's matches.")


class LeagueUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    ruleset = LeagueRulesetInput(required=False)


class LeagueSerializer(serializers.ModelSerializer):
    ruleset = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = ["id", "club", "name", "ruleset", "created_at"]

    @extend_schema_field(RulesetSerializer)
    def get_ruleset(self, league: League) -> dict:
        return league_ruleset(league)


class SeasonInput(serializers.Serializer):
    league = serializers.IntegerField()
    name = serializers.CharField(max_length=100)
    start_date = serializers.DateField(required=False, allow_null=True)
    end_date = serializers.DateField(required=False, allow_null=True)
    min_matches = serializers.IntegerField(
        min_value=0,
        max_value=MAX_MIN_MATCHES,
        default=0,
        help_text="Players with fewer finished matches are listed unranked.",
    )
    status = serializers.ChoiceField(choices=Season.Status.choices, default=Season.Status.OPEN)


class SeasonUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    start_date = serializers.DateField(required=False, allow_null=True)
    end_date = serializers.DateField(required=False, allow_null=True)
    min_matches = serializers.IntegerField(min_value=0, max_value=MAX_MIN_MATCHES, required=False)
    status = serializers.ChoiceField(
        choices=Season.Status.choices, required=False, help_text="closed: no more matches may join."
    )


class SeasonSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="league.club_id", read_only=True)
    # Declared, not derived: a model integer's bounds differ by database, and the schema must not.
    min_matches = serializers.IntegerField(read_only=True)

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "club",
            "name",
            "start_date",
            "end_date",
            "status",
            "min_matches",
            "computed_at",
            "created_at",
        ]


# --- standings -----------------------------------------------------------------------------------------


class RatingValueSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="μ − 3σ, the conservative estimate.")


class StandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(allow_null=True, help_text="Shared by fully tied players; null when unranked.")
    player = serializers.CharField(source="player.username")
    ranked = serializers.BooleanField(help_text="false: fewer finished matches than the season's min_matches.")
    matches = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="A shared win counts for each winner.")
    placements = serializers.SerializerMethodField(
        help_text="[first, second, third, fourth]; ties share the better place."
    )
    deals = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="Σ points over the season's finished matches.")
    balance_per_match = serializers.FloatField()
    best_match = serializers.IntegerField()
    worst_match = serializers.IntegerField()
    kreski = serializers.IntegerField()
    max_deals = serializers.IntegerField(help_text="Rozbójniki in which he took all 13 tricks (R21).")
    zero_odgrywki = serializers.IntegerField(help_text="Odgrywki in which he took no trick (R22).")
    rating = serializers.SerializerMethodField()
    provisional = serializers.BooleanField()
    last_played = serializers.DateTimeField()

    def get_placements(self, row) -> list[int]:
        return [row.first, row.second, row.third, row.fourth]

    @extend_schema_field(RatingValueSerializer)
    def get_rating(self, row) -> dict:
        return {"mu": round(row.mu, 3), "sigma": round(row.sigma, 3), "ordinal": round(row.ordinal, 3)}


class StandingsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True, help_text="null until the first recompute.")
    rows = StandingRowSerializer(many=True)
    awaiting_confirmation = serializers.ListField(
        child=serializers.UUIDField(),
        help_text=(
            "The season's finished matches that do not count yet: two seated players who did not file them must "
            "confirm their sheet (`POST /matches/{id}/confirmations/`)."
        ),
    )
    withdrawn = serializers.ListField(
        child=serializers.UUIDField(), help_text=("The season's matches an arbiter withdrew: they count for nothing.")
    )


# --- players ---------------------------------------------------------------------------------------------


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    guest = serializers.SerializerMethodField(help_text="A name from a paper score sheet, with no login.")

    def get_guest(self, player) -> bool:
        return player.user_id is None


class PlayerMatchSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    season = serializers.IntegerField(allow_null=True)
    seat = serializers.CharField()
    balance = serializers.IntegerField(help_text="His points over the match's finished deals.")
    place = serializers.IntegerField(allow_null=True, help_text="1–4 once a season match is finished and scored.")
    finished_at = serializers.DateTimeField(allow_null=True)
    confirmed = serializers.BooleanField(help_text="The table confirmed its result (see the match's `confirmation`).")
    withdrawn = serializers.BooleanField(help_text="Withdrawn by an arbiter: it counts for nothing.")


class PlayerSeasonSerializer(serializers.Serializer):
    season = serializers.IntegerField(source="season_id")
    season_name = serializers.CharField(source="season.name")
    league = serializers.IntegerField(source="season.league_id")
    position = serializers.IntegerField(allow_null=True)
    matches = serializers.IntegerField()
    balance = serializers.IntegerField()
    balance_per_match = serializers.FloatField()


class RatingPointSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    finished_at = serializers.DateTimeField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PlayerRatingSerializer(serializers.Serializer):
    league = serializers.IntegerField(source="rating.league_id")
    league_name = serializers.CharField(source="rating.league.name")
    mu = serializers.FloatField(source="rating.mu")
    sigma = serializers.FloatField(source="rating.sigma")
    ordinal = serializers.FloatField(source="rating.ordinal")
    provisional = serializers.BooleanField(source="rating.provisional")
    matches = serializers.IntegerField(source="rating.matches")
    history = RatingPointSerializer(many=True, help_text="After each rated match, oldest first.")


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player.id")
    username = serializers.CharField(source="player.username")
    matches = PlayerMatchSerializer(many=True, help_text="His latest 100 matches, newest first.")
    balances = PlayerSeasonSerializer(many=True, source="seasons", help_text="His line in each season's standings.")
    ratings = PlayerRatingSerializer(many=True, help_text="His rating in each league, with its history.")


class ProfileQuery(serializers.Serializer):
    include_unconfirmed = serializers.BooleanField(
        default=False,
        help_text=(
            "Also the matches whose result the table has not confirmed (and those withdrawn); by default only the "
            "results that count."
        ),
    )
