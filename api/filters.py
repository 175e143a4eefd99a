"""Query-string filters of the match list."""

import django_filters
from django.db.models import Q

from games.models import Match


class MatchFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, help_text="in_progress, finished or abandoned")
    player = django_filters.CharFilter(method="filter_player", help_text="Matches this username sits in.")

    class Meta:
        model = Match
        fields = ["status", "player"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(Q(north__username=value) | Q(east__username=value)
                               | Q(south__username=value) | Q(west__username=value))
