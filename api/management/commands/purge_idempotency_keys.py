from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from api.idempotency import purge_expired_keys, ttl


class Command(BaseCommand):
    help = "Delete Idempotency-Key rows older than IDEMPOTENCY_KEY_TTL_HOURS (24 h by default)."

    def handle(self, *args, **options):
        deleted = purge_expired_keys()
        self.stdout.write(
            ngettext(
                "purged %(count)s idempotency key(s) older than %(hours)s h",
                "purged %(count)s idempotency key(s) older than %(hours)s h",
                deleted,
            )
            % {"count": deleted, "hours": round(ttl().total_seconds() / 3600)}
        )
