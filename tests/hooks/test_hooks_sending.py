"""Sending: the backoff, one sender per delivery at a time, and a committed play that never
fails because of a webhook."""

import random

import pytest
from django.utils import timezone
from hooks_helpers import PLAYERS, deliveries, play, simulated
from rest_framework.test import APIClient
from support.locks import row_locked
from support.world import season_match as recorded_match

from webhooks import services, transport
from webhooks.models import Delivery


@pytest.mark.parametrize("attempts, base", [(1, 30), (2, 60), (3, 120), (6, 960), (9, 7680), (10, 14400), (30, 14400)])
def test_the_wait_doubles_after_each_failure_up_to_four_hours_give_or_take_a_fifth(attempts, base):
    rng = random.Random(attempts)
    waits = [services.backoff(attempts, rng).total_seconds() for _ in range(200)]

    assert all(0.8 * base <= wait <= 1.2 * base for wait in waits)
    assert max(waits) - min(waits) > 0.2 * base  # jittered: failures do not retry in step


def test_24_hours_hold_about_a_dozen_attempts():
    elapsed, attempts = 0.0, 0
    while elapsed < 24 * 3600:
        attempts += 1
        elapsed += services.backoff(attempts, random.Random(0)).total_seconds()
    assert 12 <= attempts <= 16


@pytest.mark.django_db
def test_a_delivery_being_sent_is_not_sent_again_by_another_worker(world, hook, receiver, monkeypatch):
    endpoint = hook()
    services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)  # queued on commit: not run here
    [delivery] = deliveries()
    real_post, second = transport.post, []

    def post_while_another_worker_tries(*args):
        second.append(services.delivery_attempt(delivery_id=delivery.pk))  # claimed already: skipped
        second.append(services.deliveries_sweep())
        return real_post(*args)

    monkeypatch.setattr(transport, "post", post_while_another_worker_tries)
    services.delivery_attempt(delivery_id=delivery.pk)

    assert second == [None, 0]
    assert len(receiver.received) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("succeeded", 1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_delivery_locked_by_one_worker_is_skipped_by_another_without_waiting(world, hook, receiver):
    endpoint = hook()
    services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)  # commits and sends it
    [delivery] = deliveries()
    Delivery.objects.filter(pk=delivery.pk).update(status="pending", next_attempt_at=timezone.now())
    with row_locked(Delivery, delivery.pk, seconds=10):  # another worker's
        assert services.delivery_attempt(delivery_id=delivery.pk) is None  # SKIP LOCKED: no wait, no send
        assert services.deliveries_sweep() == 0
    assert len(receiver.received) == 1  # only the first send, at the ping


@pytest.mark.django_db(transaction=True)
def test_a_send_that_breaks_never_fails_the_committed_play(world, hook, receiver, monkeypatch):
    hook(["deal.finished"])
    match = recorded_match(world, PLAYERS)
    record = simulated(31)
    play(match, record, world.users["sam"], deals=1, cards=51)

    def broken(*args):
        raise RuntimeError("a bug in the sending code")

    monkeypatch.setattr(transport, "post", broken)
    api = APIClient()
    api.force_authenticate(world.users["sam"])
    response = api.post(f"/api/v1/matches/{match.pk}/plays/", {"card": record["deals"][0]["plays"][51]}, format="json")

    assert response.status_code == 201, response.content
    [delivery] = deliveries("deal.finished")
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("pending", 1, "internal error: RuntimeError")
    assert receiver.received == []
