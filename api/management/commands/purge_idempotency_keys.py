from django.core.management.base import BaseCommand

from api.idempotency import purge_expired_keys, ttl


class Command(BaseCommand):
    help = "Delete Idempotency-Key rows older than IDEMPOTENCY_KEY_TTL_HOURS (24 h by default)."

    def handle(self, *args, **options):
        deleted = purge_expired_keys()
        self.stdout.write(f"purged {deleted} idempotency key(s) older than {ttl()}")
