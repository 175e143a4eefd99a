"""Webhook endpoints a club's admins register, and the outbox of deliveries to them.

A ``Delivery`` row is written in the same transaction as the event it announces (the match's
events, a standings recompute), so an event that committed is never lost and a rolled-back one
announces nothing. Celery sends the rows after the commit; a periodic sweep sends whatever is
due (``next_attempt_at``), which also covers a broker that was down.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from scoring.models import Club


class Endpoint(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.CharField(max_length=2000)
    event_types = models.JSONField(default=list)  # names from webhooks.events.EVENT_TYPES
    secret = models.CharField(max_length=200)  # the HMAC key (signing.py); shown once, at creation
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of club {self.club_id}: {self.url}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"  # to be sent at next_attempt_at (again, after a failure)
        SUCCEEDED = "succeeded"  # the receiver answered 2xx
        FAILED = "failed"  # still failing when its retry window closed; redeliver to try again

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_type = models.CharField(max_length=40)
    event_id = models.UUIDField(default=uuid.uuid4)  # X-Kierki-Delivery: the same for every endpoint told
    payload = models.JSONField()  # the body's ``data``
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    retry_until = models.DateTimeField()  # 24 h after creation (or after a manual redelivery)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField()
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(fields=["next_attempt_at"], condition=models.Q(status="pending"), name="delivery_due"),
            models.Index(fields=["endpoint", "-created_at", "-id"], name="delivery_log"),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id} to webhook {self.endpoint_id} ({self.status})"
