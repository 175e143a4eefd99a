"""``manage.py deliver_webhooks``: the sweep by hand (embedded mode has no Celery beat)."""

from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from webhooks import services


class Command(BaseCommand):
    help = "Send the webhook deliveries that are due (retries, and any that no worker sent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--limit", type=int, default=services.SWEEP_BATCH, help="at most this many deliveries (default %(default)s)"
        )

    def handle(self, *args, limit: int, **options):
        attempted = services.deliveries_sweep(limit=limit)
        self.stdout.write(
            ngettext("%(count)s deliveries attempted", "%(count)s deliveries attempted", attempted)
            % {"count": attempted}
        )
