"""Club evenings: an evening of a season, the players present, and its rounds, each seated at
tables whose matches are season matches (``scoring.services.evening_round_seat`` writes them).

Kept apart from ``scoring/models.py`` (which imports them, so Django registers them): the
evening is a planning layer over the season's matches, nothing standings read.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Match, Player


class Evening(models.Model):
    """A club evening of a season: its date, how many rounds it plays, and how its matches are dealt."""

    season = models.ForeignKey("scoring.Season", on_delete=models.PROTECT, related_name="evenings")
    date = models.DateField()
    rounds = models.PositiveSmallIntegerField()  # planned; the seating plans the rounds still to come
    dealing = models.CharField(max_length=8, choices=Match.Dealing.choices, default=Match.Dealing.RECORDED)
    swiss = models.BooleanField(default=False)  # round 2 on: seated by the evening's running totals
    seed = models.PositiveIntegerField(default=0)  # the seating's seed (same seed, same seating)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]


class EveningPlayer(models.Model):
    """A player signed in to an evening: present from round ``arrived_round`` (1: from the start;
    later: a late arrival), until he withdraws before round ``left_round``."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendance")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    arrived_round = models.PositiveSmallIntegerField(default=1)
    left_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "player__username"]
        constraints = [models.UniqueConstraint(fields=["evening", "player"], name="one_sign_in_per_evening")]

    @property
    def present(self) -> bool:
        return self.left_round is None


class EveningRound(models.Model):
    """A seated round: its tables (each a season match) and who sat it out."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()  # 1, 2, …
    sitting_out = models.ManyToManyField(Player, related_name="+", blank=True)
    repeats = models.PositiveSmallIntegerField(default=0)  # repeat meetings of the evening once seated
    seated_by = models.CharField(max_length=16)  # the seating's step ("OPTIMAL", "TABU", "swiss", "manual", …)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [models.UniqueConstraint(fields=["evening", "number"], name="one_round_per_number")]


class EveningTable(models.Model):
    """Table ``number`` of a round: a season match with the seated players (seats and first
    dealer are the match's)."""

    round = models.ForeignKey(EveningRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()  # 1, 2, …
    season_match = models.OneToOneField("scoring.SeasonMatch", on_delete=models.PROTECT, related_name="evening_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]
