"""The event store: players, matches, their append-only event logs, and the read models
kept in the same transaction as every append (RULES.md governs what an event may be)."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.domain import event_types


def new_public_id() -> str:
    """64 random bits: a stable name for a person in the event log that says nothing of him, nor how
    many came before him (docs/privacy.md)."""
    return "p" + secrets.token_hex(8)


class Player(models.Model):
    """A person at the table. ``user`` is empty for a guest filed from a paper score sheet.

    The event log names him by ``public_id`` only (issue 28); his name lives here, where it can
    be erased: ``accounts.privacy.person_erase`` renames him ``erased player #N`` (``erased_number``)."""

    username = models.CharField(max_length=150, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    public_id = models.CharField(max_length=17, unique=True, default=new_public_id, editable=False)
    erased_number = models.PositiveIntegerField(null=True, blank=True, unique=True, editable=False)

    def __str__(self) -> str:
        return self.username


class Match(models.Model):
    class Dealing(models.TextChoices):
        SERVER = "server", _("Server")  # the server deals with `secrets` and publishes a commitment
        RECORDED = "recorded", _("Recorded")  # a scorer enters the hands of a physical table

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In Progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    north = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    east = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    south = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    west = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer = models.CharField(max_length=1)
    ruleset_name = models.CharField(max_length=64)
    ruleset_version = models.PositiveIntegerField()
    ruleset_options = models.JSONField(default=dict, blank=True)
    dealing = models.CharField(max_length=8, choices=Dealing.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True)
    read_only = models.BooleanField(default=False)  # its season is closed: commands are refused (scoring)
    version = models.PositiveIntegerField(default=0)  # the seq of the last event
    scorer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="scored_matches"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # games.domain.fingerprints.record_fingerprint of what was filed: set by an import, and when a match
    # filed live finishes; a second filing of the same deals by the same players is refused (409).
    fingerprint = models.CharField(max_length=64, null=True, blank=True, db_index=True, editable=False)
    # Results the table signs (games/domain/confirmation.py): kept by the commands, from the log and the filing.
    filed_by_official = models.BooleanField(default=False)  # its filers: officials, none of them seated
    confirmed = models.BooleanField(default=False)  # its result counts (standings, profiles) once finished
    withdrawn = models.BooleanField(default=False)  # withdrawn by an arbiter (match_withdrawn, not reinstated)
    played_on = models.DateField(null=True, blank=True)  # the date of play (a record's played_on); None: the log's

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        # The list's order with the key that makes it unique: v2's cursor reads a page from the index
        # (benchmarks/pagination.py), where without it every page sorted the whole table.
        indexes = [models.Index(fields=["-created_at", "-id"], name="match_list_order")]

    SEAT_FIELDS = ("north", "east", "south", "west")  # R1 order N, E, S, W

    def seat_players(self) -> list[Player]:
        return [getattr(self, name) for name in self.SEAT_FIELDS]

    def seat_player_ids(self) -> list[int]:
        return [getattr(self, f"{name}_id") for name in self.SEAT_FIELDS]

    def __str__(self) -> str:
        return f"match {self.id}"


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("match events are append-only: they are never updated")

    def delete(self):
        raise TypeError("match events are append-only: they are never deleted")


class MatchEvent(models.Model):
    """One immutable event of a match's log; ``hash`` chains it to the one before (see ``games.domain.chain``)."""

    class Type(models.TextChoices):
        MATCH_CREATED = event_types.MatchCreated.TYPE
        DEAL_STARTED = event_types.DealStarted.TYPE
        LEAD_OFFERED = event_types.LeadOffered.TYPE
        LEAD_SOLD = event_types.LeadSold.TYPE
        LEAD_KEPT = event_types.LeadKept.TYPE
        CARD_PLAYED = event_types.CardPlayed.TYPE
        HANDS_REVEALED = event_types.HandsRevealed.TYPE
        MATCH_ABANDONED = event_types.MatchAbandoned.TYPE
        RULING_RECORDED = event_types.RulingRecorded.TYPE  # an arbiter's ruling on a dispute (games/write/disputes.py)
        RESULT_CONFIRMED = event_types.ResultConfirmed.TYPE  # a seated player signs the sheet (games/write/signoffs.py)
        MATCH_WITHDRAWN = event_types.MatchWithdrawn.TYPE  # an arbiter withdraws a match filed by mistake
        MATCH_REINSTATED = event_types.MatchReinstated.TYPE  # ... and a later ruling takes it back
        DEAL_TALLIED = event_types.DealTallied.TYPE  # a deal filed from a paper sheet (R31–R33)
        DEAL_CORRECTED = event_types.DealCorrected.TYPE  # the latest filed deal filed again (issue 23)

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=20, choices=Type.choices)
    payload = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=150, null=True, blank=True)  # as hashed: a rename changes nothing
    created_at = models.DateTimeField()
    hash = models.CharField(max_length=64)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_event_per_seq")]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("match events are append-only: they are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("match events are append-only: they are never deleted")


class DealSecret(models.Model):
    """Server-dealt hands and their salt, kept off the log until the deal ends (then revealed)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="secrets")
    number = models.PositiveIntegerField()
    hands = models.JSONField()
    salt = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_secret_per_deal")]


class MatchProjection(models.Model):
    """Read model: the engine's snapshot and the replay summary after the last event."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="projection")
    version = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)  # the hash of event `version`, where the chain goes on
    snapshot = models.JSONField()  # games.engine.match.snapshot()
    summary = models.JSONField()  # RECORD_FORMAT.md summary


class DealScore(models.Model):
    """Read model: one row per finished deal per player (what standings are built from)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deal_scores")
    number = models.PositiveIntegerField()
    seat = models.CharField(max_length=1)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="deal_scores")
    kind = models.CharField(max_length=10)
    compensating = models.BooleanField()
    multiplier = models.PositiveSmallIntegerField()
    tricks = models.PositiveSmallIntegerField(null=True)  # None: a points-only deal does not tell (R33)
    points = models.IntegerField()
    kreski = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "number", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "number", "seat"], name="one_score_per_seat")]


class IdempotencyKey(models.Model):
    """A POST's ``Idempotency-Key``: its body's hash and, once done, the response to replay."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)  # None while the first request runs
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_key_per_user")]


class Dispute(models.Model):
    """A deal flagged by a seated player or the scorer, for the club's arbiters to rule on.

    The ruling itself is a ``ruling_recorded`` event in the match's log (never an edit of this
    row's history): ``ruling_seq`` is the seq of the latest one, the one in force."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RULED = "ruled", _("Ruled")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="disputes")
    deal = models.PositiveIntegerField()  # 1-based deal number
    play_index = models.PositiveSmallIntegerField(null=True, blank=True)  # 0-based within the deal's plays
    statement = models.TextField()
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=5, choices=Status.choices, default=Status.OPEN, db_index=True)
    ruling_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["match", "deal"], name="dispute_match_deal")]

    def __str__(self) -> str:
        return f"dispute {self.pk} on deal {self.deal} of {self.match_id}"


class EventSeal(models.Model):
    """A legacy event (payload version 1, naming people by name) redacted when a person it named
    was erased (docs/privacy.md). Its ``hash`` stays as stored, so every later link and every
    signed checkpoint still holds; the link the audit can no longer recompute — the redacted body
    no longer hashes to it — is vouched for by the server's Ed25519 signature, made after the
    original chain was verified, over the event's place, its stored hash, the hash before it and
    the digest of the redacted body (``games.domain.seals``)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="seals")
    seq = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)  # the event's stored hash, unchanged
    previous = models.CharField(max_length=64)  # the hash before it, as verified at the erasure
    digest = models.CharField(max_length=64)  # SHA-256 of the redacted body's canonical JSON
    public_key = models.CharField(max_length=44)
    signature = models.CharField(max_length=88)
    sealed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_seal_per_event")]
