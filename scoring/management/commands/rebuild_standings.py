"""``manage.py rebuild_standings [--season ID]``: rebuild standings and ratings from scratch.

Every open season (or the one named, open or closed), each in its own transaction: its
league's match lines and rating log are rebuilt from the event store the first time the
league comes up, then its standings. The same work as the nightly Celery beat task.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, ngettext
from tqdm import tqdm

from scoring import recompute
from scoring.models import Season


class Command(BaseCommand):
    help = "Rebuild the standings (and their leagues' ratings) of every open season, or of one season."

    def add_arguments(self, parser):
        parser.add_argument("--season", type=int, help="rebuild only this season (its id), open or closed")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, season=None, no_progress=False, **options):
        seasons = (
            Season.objects.filter(status=Season.Status.OPEN) if season is None else Season.objects.filter(pk=season)
        )
        ids = list(seasons.order_by("league_id", "pk").values_list("pk", flat=True))
        if season is not None and not ids:
            raise CommandError(gettext("no season %(id)s") % {"id": season})
        with tqdm(
            total=len(ids), unit="season", desc="rebuild_standings", file=self.stderr, disable=no_progress
        ) as bar:
            count = recompute.standings_rebuild(season_ids=ids, progress=lambda _: bar.update())
        self.stdout.write(
            self.style.SUCCESS(
                ngettext(
                    "rebuilt the standings of %(count)s season(s)",
                    "rebuilt the standings of %(count)s season(s)",
                    count,
                )
                % {"count": count}
            )
        )
