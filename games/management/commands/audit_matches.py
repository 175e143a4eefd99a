"""``manage.py audit_matches [--match UUID]``: verify every match's log, for a scheduled check.

For each match: the hash chain recomputed from the stored rows, every event replayed under the
pinned ruleset, and every server-dealt deal's commitment against its revealed hands
(``games.read.audit``). Prints one line per failing match; exits 1 if any fails, 0 otherwise. The
same work as the nightly Celery beat task ``games.tasks.audit_matches``.
"""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, ngettext
from tqdm import tqdm

from games.models import Match
from games.read.audit import audit_matches


class Command(BaseCommand):
    help = "Verify every match's hash chain, rules and deal commitments; exit 1 if any fails."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=uuid.UUID, help="audit only this match (its UUID)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, match=None, no_progress=False, **options):
        matches = Match.objects.all() if match is None else Match.objects.filter(pk=match)
        total = matches.count()
        if match is not None and not total:
            raise CommandError(gettext("no match %(id)s") % {"id": match})
        with tqdm(total=total, unit="match", desc="audit_matches", file=self.stderr, disable=no_progress) as bar:
            failing = audit_matches(match_ids=None if match is None else [match], progress=lambda _: bar.update())
        for match_id, failures in failing.items():
            for failure in failures:
                self.stdout.write(gettext("match %(id)s: %(failure)s") % {"id": match_id, "failure": failure})
        if failing:
            raise CommandError(
                ngettext(
                    "%(failing)s of %(total)s match(es) failed the audit",
                    "%(failing)s of %(total)s match(es) failed the audit",
                    len(failing),
                )
                % {"failing": len(failing), "total": total},
                returncode=1,
            )
        self.stdout.write(
            self.style.SUCCESS(
                ngettext("audited %(total)s match(es): all pass", "audited %(total)s match(es): all pass", total)
                % {"total": total}
            )
        )
