"""Query-string filters of the match list."""

import django_filters
from django import forms
from django.db.models import Q

from games.domain.ids import BIGINT_MAX
from games.models import Match

# A number filter on an id keeps its v1 type (number) but refuses what no id can be: a value out of
# a bigint reached the database and answered 500 (SQLite's OverflowError).
ID_RANGE = {"min_value": -BIGINT_MAX - 1, "max_value": BIGINT_MAX}


class IdFilter(django_filters.Filter):
    """A primary key: whole digits within a bigint, else 400 (not a 500 from the database)."""

    field_class = forms.IntegerField


class MatchFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, help_text="in_progress, finished or abandoned")
    player = django_filters.CharFilter(method="filter_player", help_text="Matches this username sits in.")
    season = IdFilter(
        field_name="season_match__season_id",
        min_value=1,
        max_value=BIGINT_MAX,
        help_text="Matches filed into this season (its id).",
    )

    class Meta:
        model = Match
        fields = ["status", "player", "season"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(
            Q(north__username=value) | Q(east__username=value) | Q(south__username=value) | Q(west__username=value)
        )
