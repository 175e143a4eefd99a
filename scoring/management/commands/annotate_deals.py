"""``manage.py annotate_deals [--match ID] [--all]``: compute the annotated deals from the log.

By default only what is missing or stale (annotated by another engine version); ``--all``
annotates every played deal again. The same work as the job a deal's end queues.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils.translation import gettext

from scoring.annotations import annotations_rebuild


class Command(BaseCommand):
    help = "Annotate the played deals (each card's cost and grade) that are missing or stale, or all of them."

    def add_arguments(self, parser):
        parser.add_argument("--match", action="append", help="only this match (its id); may be repeated")
        parser.add_argument("--all", action="store_true", help="annotate every played deal again")

    def handle(self, *args, match=None, all=False, **options):
        count = annotations_rebuild(match_ids=match, stale_only=not all)
        self.stdout.write(self.style.SUCCESS(gettext("annotated %(count)s deal(s)") % {"count": count}))
