"""Output shapes of the annotated deal (``scoring.annotation_selectors`` decides everything)."""

from __future__ import annotations

from rest_framework import serializers

from .serializers import per_seat, seat_field

GRADES = ["best", "inaccuracy", "mistake", "blunder"]


class Bounds(serializers.ListField):
    """``[low, high]``: a proven range, ``low == high`` when exact."""

    child = serializers.IntegerField()
    min_length = 2
    max_length = 2


class CardNoteSerializer(serializers.Serializer):
    play = serializers.IntegerField(help_text="The card's index in the deal, from 0.")
    seat = seat_field(help_text="Who played it.")
    card = serializers.CharField()
    cost = Bounds(
        help_text="What it cost its player: his guaranteed points before it minus after it, as a proven "
        "`[low, high]` (equal when exact)."
    )
    grade = serializers.ChoiceField(
        choices=GRADES,
        allow_null=True,
        help_text="best (cost 0), inaccuracy (1–9), mistake (10–29), blunder (30 or more); null when the "
        "proven cost spans two grades (the search ran out of time): not graded, not counted in accuracy.",
    )
    best = serializers.CharField(help_text="The card rated best there (the played one when none is better).")
    best_value = Bounds(help_text="The best card's guaranteed value for the player.")
    value = Bounds(help_text="The played card's guaranteed value for the player.")


class CostlyCardSerializer(CardNoteSerializer):
    deal = serializers.IntegerField(required=False)


class SeatRangeAt(serializers.Serializer):
    range = Bounds(help_text="`[worst, best]`: the final points the seat can still end with (proven outer).")
    guaranteed = serializers.IntegerField(help_text="What the seat secures by its own best play (least proven).")


PositionRanges = per_seat("PositionRanges", SeatRangeAt, "Each seat's range at one position.")


class SeatFigures(serializers.Serializer):
    cards = serializers.IntegerField(help_text="Cards the seat played.")
    graded = serializers.IntegerField(help_text="Of them graded (cost known to one grade).")
    clean = serializers.IntegerField(help_text="Of the graded ones, those that cost nothing.")
    lost = serializers.IntegerField(help_text="Points his cards are proven to have lost (least proven costs).")


SeatFiguresBySeat = per_seat("SeatFiguresBySeat", SeatFigures, "Per seat, what accuracy sums.")


class AnnotationSerializer(serializers.Serializer):
    version = serializers.CharField(help_text="The engine version that annotated it.")
    exact = serializers.BooleanField(help_text="Every position was searched to the end within its budget.")
    cards = CardNoteSerializer(many=True, help_text="Every card played, in order.")
    positions = PositionRanges(
        many=True, help_text="After 0, 1, … 52 cards: each seat's range (the viewer shows it after each trick)."
    )
    costliest = CardNoteSerializer(many=True, help_text="The (up to) three cards that cost most.")
    seats = SeatFiguresBySeat()


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="The match's finished played deals annotated so far.")
    to_do = serializers.IntegerField(help_text="All its finished played deals (paper-sheet deals have no cards).")


class DealAnnotationSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["done", "pending"])
    match = serializers.UUIDField()
    deal = serializers.IntegerField()
    kind = serializers.CharField()
    progress = ProgressSerializer()
    annotation = AnnotationSerializer(allow_null=True, help_text="Null while pending.")
