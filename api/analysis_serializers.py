"""Output shapes of the arbiter's analysis (``games.read.analysis`` decides everything)."""

from __future__ import annotations

from rest_framework import serializers

from .serializers import seat_field


class SeatRangeSerializer(serializers.Serializer):
    worst = serializers.IntegerField(
        help_text="The lowest final points of the deal the seat can end with over every legal continuation."
    )
    best = serializers.IntegerField(help_text="The highest such points.")
    guaranteed = serializers.IntegerField(
        help_text="What the seat secures by its own best play against the other three."
    )


class SeatRanges(serializers.Serializer):
    N = SeatRangeSerializer()
    E = SeatRangeSerializer()
    S = SeatRangeSerializer()
    W = SeatRangeSerializer()


class AnalysisSerializer(serializers.Serializer):
    to_play = seat_field(allow_null=True, help_text="The seat on turn; null at a finished deal.")
    exact = serializers.BooleanField(
        help_text="False when the search ran out of time: the values are then the "
        "proven outer bounds (lowest worst, highest best, least "
        "guaranteed) and `bounds` gives each one's proven range."
    )
    seats = SeatRanges(
        help_text="Final points of this deal as the summary gives them: multipliers, kreski as "
        "0, Max as 0 and -130, the sale's transfer included."
    )
    cards = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Each legal card of the seat on turn: its guaranteed value right after it is played.",
    )
    bounds = serializers.JSONField(
        required=False,
        help_text="Only when not exact: `seats` (per seat, each value's `[low, high]`) and `cards` likewise.",
    )


class MatchAnalysisSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    at = serializers.IntegerField(help_text="The seq of the event after which the position stands.")
    deal = serializers.IntegerField(allow_null=True, help_text="The deal analysed; null before the first deal.")
    kind = serializers.CharField(allow_null=True)
    plays = serializers.IntegerField(allow_null=True, help_text="Cards played in that deal at the position.")
    analysis = AnalysisSerializer(allow_null=True)


class AnalysisPendingSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["pending"], help_text="The analysis is being computed.")
    match = serializers.UUIDField()
    at = serializers.IntegerField(help_text="The seq of the event after which the position stands.")
    deal = serializers.IntegerField(help_text="The deal analysed.")
    kind = serializers.CharField()
    plays = serializers.IntegerField(help_text="Cards played in that deal at the position.")
    poll = serializers.URLField(
        help_text="Ask this URL again (the same as `Location`) after `Retry-After` seconds for the answer."
    )


class DisputeAnalysisSerializer(serializers.Serializer):
    at = serializers.IntegerField(
        allow_null=True, help_text="The seq of the event after which the disputed position stands."
    )
    deal = serializers.IntegerField()
    kind = serializers.CharField()
    plays = serializers.IntegerField(
        help_text="The disputed play's index: the position just before it (0 when the dispute names no play)."
    )
    analysis = AnalysisSerializer()
