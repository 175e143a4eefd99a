"""``manage.py sweep_outbox [--grace SECONDS]``: what the Celery beat sweep does, by hand.

Dispatches the standings recompute of every season with an outbox request older than the grace
period (``SCORING_OUTBOX_GRACE_SECONDS``; ``--grace 0``: every request) — to the broker, or in
the embedded mode right here. A dispatch that fails is logged and its requests kept.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, ngettext

from scoring import outbox


class Command(BaseCommand):
    help = "Dispatch again the standings recomputes left in the outbox (the broker was down, a worker died)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--grace",
            type=int,
            help="only requests older than this many seconds (default SCORING_OUTBOX_GRACE_SECONDS)",
        )

    def handle(self, *args, grace=None, **options):
        if grace is not None and grace < 0:
            raise CommandError(gettext("--grace must be 0 or more seconds, not %(grace)s") % {"grace": grace})
        seasons = outbox.sweep(grace=grace)
        listed = ", ".join(map(str, seasons)) or "none"
        self.stdout.write(
            self.style.SUCCESS(
                ngettext(
                    "dispatched the recompute of %(count)s season(s): %(listed)s",
                    "dispatched the recompute of %(count)s season(s): %(listed)s",
                    len(seasons),
                )
                % {"count": len(seasons), "listed": listed}
            )
        )
