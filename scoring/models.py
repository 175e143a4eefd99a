"""Clubs, leagues and seasons, and the read models built from finished matches: each player's
line per scored match, the league's rating log, and the season standings.

Everything below ``SeasonMatch`` is derived (``recompute.standings_recompute`` writes it) and
can be rebuilt from the event store at any time; nothing there is edited by hand.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from games.models import Match, Player


class Club(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="clubs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")  # plays the club's season matches
        SCORER = "scorer", _("Scorer")  # also files and scores season matches
        ARBITER = "arbiter", _("Arbiter")  # also rules on disputes (reads everything)
        ADMIN = "admin", _("Admin")  # also manages the club's leagues, seasons and memberships

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")]


class ClubPlayer(models.Model):
    """A player profile of the club (``scoring.members``): a member added by display name, whose
    ``Player`` has no user until he claims it through an ``Invitation``. Members with an account
    are club players through their ``Membership``; this row is for the profiles.

    A profile belongs to one club (issue 30): another club adding the same name never links it,
    and only this club's invitation hands it to an account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_links")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="club_links")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__username"]
        constraints = [models.UniqueConstraint(fields=["player"], name="one_club_per_profile")]


class Invitation(models.Model):
    """An invitation to the club, of one of two kinds (``scoring.invitations``):

    - to claim a club's player profile that has no account (``user`` empty): the link carries a
      signed, timestamped token naming this row (``invitations.invitation_token``), and whoever
      holds it chooses a username and a password;
    - to join the club as ``role`` (``user``: the invited account, ``player`` his profile): only
      he answers it, signed in — accepting makes the membership, declining closes it.

    Either kind expires with ``expires_at`` and works once (``claimed_at``: claimed or accepted;
    ``declined_at``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="club_invitations"
    )
    role = models.CharField(max_length=8, choices=Membership.Role.choices, default=Membership.Role.MEMBER)
    declined_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]


class SeatInvitation(models.Model):
    """A user seated by someone else in a match outside a season (issue 30): until he accepts,
    nobody but he acts or files for his seat (``games.domain.roles.seats_awaiting_consent``), so the
    match cannot be played or filed for him, and cannot end and count. Made when the match is
    created through the API or a page (``scoring.invitations.match_create_with_consent``);
    season matches need none — the club membership carries the consent."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_invitations")
    seat = models.CharField(max_length=1)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_invitations")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_invitation_per_seat")]
        indexes = [
            models.Index(fields=["match"], condition=models.Q(accepted_at__isnull=True), name="seatinvitation_awaiting")
        ]


class League(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=100)
    ruleset_options = models.JSONField(default=dict, blank=True)  # games.engine Ruleset.options(): non-defaults
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="one_league_name_per_club")]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")  # matches may join
        CLOSED = "closed", _("Closed")  # no more matches; standings are still recomputed if a result changes

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=100)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN, db_index=True)
    min_matches = models.PositiveIntegerField(default=0)  # fewer finished matches: the unranked tail
    computed_at = models.DateTimeField(null=True, blank=True)  # when the standings were last rebuilt
    recomputes = models.PositiveIntegerField(default=0)  # how many recomputes have run (monitoring, tests)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-start_date", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="one_season_name_per_league")]

    def __str__(self) -> str:
        return self.name


class SeasonStatusChange(models.Model):
    """The log of a season's closings and reopenings: who, when, and (a reopening) why."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="status_changes")
    status = models.CharField(max_length=6, choices=Season.Status.choices)  # the status it changed to
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150)  # kept if the user goes
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "created_at", "id"]


class SeasonMatch(models.Model):
    """A match played in a season. Scoring state: ``scored_version`` is the match version its
    lines were derived at (None: not yet, or to do again), ``finished_at`` its last event's time
    when it finished."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="season_matches")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="season_match")
    scored_version = models.PositiveIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["season", "finished_at", "id"], name="seasonmatch_finish_order"),
            models.Index(
                fields=["season"], condition=models.Q(scored_version__isnull=True), name="seasonmatch_to_score"
            ),
        ]


# --- read models ---------------------------------------------------------------------------
# MatchLine, RatedMatch and RatingChange are rebuilt by the tens of thousands and only ever
# written by recompute.standings_recompute: their relations are kept by the ORM (cascades
# included) without database constraints, whose checks would cost more than the rows.
UNCHECKED = {"db_constraint": False}


class MatchLine(models.Model):
    """One player's result in one finished season match (from its DealScore rows)."""

    # (the unique constraint's index covers season_match, the (season, player) index season)
    season_match = models.ForeignKey(SeasonMatch, models.CASCADE, related_name="lines", **UNCHECKED, db_index=False)
    season = models.ForeignKey(Season, models.CASCADE, related_name="+", **UNCHECKED, db_index=False)
    player = models.ForeignKey(Player, models.PROTECT, related_name="match_lines", **UNCHECKED)
    seat = models.CharField(max_length=1)
    total = models.IntegerField()  # Σ points of the match (R9)
    deals = models.PositiveSmallIntegerField()
    kreski = models.PositiveSmallIntegerField()
    max_deals = models.PositiveSmallIntegerField()  # rozbójniki where he took all 13 tricks (R21)
    zero_odgrywki = models.PositiveSmallIntegerField()  # odgrywki where he took no trick (R22)
    place = models.PositiveSmallIntegerField()  # 1–4; tied totals share the better place
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season_match", "player"], name="one_line_per_player")]
        indexes = [models.Index(fields=["season", "player"], name="matchline_season_player")]


class RatedMatch(models.Model):
    """The league's rating log: its finished season matches in the order they were rated
    (``position`` 0, 1, …, by finish time)."""

    # (the unique constraint's index covers league)
    league = models.ForeignKey(League, models.CASCADE, related_name="+", **UNCHECKED, db_index=False)
    season_match = models.OneToOneField(SeasonMatch, models.CASCADE, related_name="rated", **UNCHECKED)
    position = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "position"], name="one_rated_match_per_position")]


class RatingChange(models.Model):
    """A player's rating after one rated match (the rating history); ``position`` is the
    match's place in the league's log."""

    # (the indexes below cover league, player and season_match: no index of their own)
    league = models.ForeignKey(League, models.CASCADE, related_name="+", **UNCHECKED, db_index=False)
    season = models.ForeignKey(Season, models.CASCADE, related_name="+", **UNCHECKED)
    season_match = models.ForeignKey(
        SeasonMatch, models.CASCADE, related_name="rating_changes", **UNCHECKED, db_index=False
    )
    position = models.PositiveIntegerField()
    player = models.ForeignKey(Player, models.PROTECT, related_name="rating_changes", **UNCHECKED, db_index=False)
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season_match", "player"], name="one_change_per_player")]
        indexes = [
            models.Index(fields=["player", "season", "position"], name="ratingchange_player_season"),
            models.Index(fields=["league", "position"], name="ratingchange_league_position"),
        ]

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class Rating(models.Model):
    """A player's current rating in a league (the last of his RatingChange rows there)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()  # μ − 3σ, the conservative estimate
    provisional = models.BooleanField()  # σ > rating.PROVISIONAL_SIGMA
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["league", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="one_rating_per_league")]


class StandingRow(models.Model):
    """One player's line in a season's standings, in display order (``order``)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    order = models.PositiveIntegerField()
    position = models.PositiveIntegerField(null=True)  # shared by fully tied players; None when unranked
    ranked = models.BooleanField()
    matches = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    second = models.PositiveIntegerField()
    third = models.PositiveIntegerField()
    fourth = models.PositiveIntegerField()
    deals = models.PositiveIntegerField()
    balance = models.IntegerField()
    balance_per_match = models.FloatField()  # rounded to 2 decimals (ranking uses the exact ratio)
    best_match = models.IntegerField()
    worst_match = models.IntegerField()
    kreski = models.PositiveIntegerField()
    max_deals = models.PositiveIntegerField()
    zero_odgrywki = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    provisional = models.BooleanField()
    last_played = models.DateTimeField()

    class Meta:
        ordering = ["season", "order"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_standing_per_player"),
            models.UniqueConstraint(fields=["season", "order"], name="one_standing_per_order"),
        ]


class RecomputeRequest(models.Model):
    """The outbox of standings recomputes (scoring/outbox.py): one row per change a season's
    standings must take in — a season match ended or was ruled on, ``min_matches`` changed —
    written in the transaction that made the change, so that it commits or rolls back with it.
    A recompute deletes its season's rows in its own transaction; the sweep dispatches again
    the seasons whose rows outlived the grace period (the broker was down, a worker died)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(db_default=Now())  # the database's clock, as the sweep's

    class Meta:
        indexes = [models.Index(fields=["created_at"], name="recomputerequest_created")]  # the sweep


from .annotation_models import DealAnnotation  # noqa: E402,F401  (registered here)
from .evening_models import Evening, EveningPlayer, EveningRound, EveningTable  # noqa: E402,F401  (registered here)
