"""Celery tasks for webhooks: thin wrappers over the services."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_id: int) -> None:
    """Send one delivery now (queued after the commit that wrote it, or by a redelivery)."""
    services.delivery_attempt(delivery_id=delivery_id)


@shared_task(acks_late=True)
def sweep() -> int:
    """Celery beat, every minute: send the due deliveries (retries, and any the broker missed)."""
    return services.deliveries_sweep()
