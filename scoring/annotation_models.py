"""The annotated deals (issue 27): derived data, rebuilt from the log at will (scoring/annotations.py)."""

from __future__ import annotations

from django.db import models

from games.models import Match


class DealAnnotation(models.Model):
    """One played deal of a match annotated by the engine (``games.engine.annotation``) at
    ``version``: each card's cost and grade (``cards``), each seat's range after each card
    (``positions``), and per seat the figures accuracy sums (``seats``: cards, graded, clean,
    lost). A row of another engine version is stale: it is recomputed, never served."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deal_annotations")
    number = models.PositiveIntegerField()
    version = models.CharField(max_length=16)
    kind = models.CharField(max_length=16)
    exact = models.BooleanField()
    cards = models.JSONField()
    positions = models.JSONField()
    seats = models.JSONField()
    computed_in = models.FloatField()  # seconds the search took (the benchmark and the logs read it)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_annotation_per_deal")]
