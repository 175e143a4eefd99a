"""What a club's receiver gets when its season matches are played: the events, their data, the
signature — and that deliveries commit with the events or not at all."""

import datetime
import hashlib
import hmac

import pytest
from django.db import transaction
from django.utils import timezone
from hooks_helpers import deliveries, fresh_world, hooks_world, play, simulated
from support.once import once_per_module

from games.models import DealScore, Match, Player
from games.write import disputes
from games.write import services as games
from scoring import recompute
from scoring import services as scoring
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


built = once_per_module(hooks_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


def _signed(secret: str, received) -> bool:
    fields = dict(part.split("=", 1) for part in received.headers["X-Kierki-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + received.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"])


def test_a_finished_season_match_is_posted_to_the_receiver_signed(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    endpoint = hook(["match.finished"])
    record = simulated(1)

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, record, world.users["sam"])

    [finished] = receiver.received
    body = finished.json()
    season_match.refresh_from_db()
    assert finished.path == "/hook"
    assert finished.headers["Content-Type"] == "application/json"
    assert finished.headers["X-Kierki-Event"] == "match.finished" == body["type"]
    assert finished.headers["X-Kierki-Delivery"] == body["id"]
    assert _signed(endpoint.secret, finished)
    assert body["data"]["match"] == str(season_match.pk) and body["data"]["season"] == world.season.pk
    assert body["data"]["players"] == {"N": "p1", "E": "p2", "S": "p3", "W": "p4"}
    assert body["data"]["totals"] == season_match.projection.summary["totals"]
    assert body["data"]["winners"] == season_match.projection.summary["winners"]
    assert body["data"]["version"] == season_match.version
    [delivery] = deliveries()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("succeeded", 1, 204)
    assert delivery.delivered_at is not None


def test_each_finished_deal_is_posted_with_its_points_and_the_running_totals(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["deal.finished"])
    record = simulated(2)

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, record, world.users["sam"], deals=2)

    sent = [r.json()["data"] for r in receiver.of_type("deal.finished")]
    assert [d["deal"] for d in sent] == [1, 2]
    for data in sent:
        rows = DealScore.objects.filter(match=season_match, number=data["deal"])
        assert data["points"] == {row.seat: row.points for row in rows}
    first, second = sent
    assert second["totals"] == {seat: first["points"][seat] + second["points"][seat] for seat in "NESW"}
    assert sum(second["totals"].values()) == 0  # R8: every regular deal sums to zero


def test_a_server_dealt_deal_is_announced_when_its_hands_are_revealed(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    hook(["deal.finished"])
    match = scoring.season_match_create(
        actor=world.users["p1"],
        season_id=world.season.pk,
        seats={"N": "p1", "E": "p2", "S": "p3", "W": "p4"},
        first_dealer="N",
    )
    users = {seat: world.users[name] for seat, name in zip("NESW", ("p1", "p2", "p3", "p4"))}
    from games.engine.match import restore

    with django_capture_on_commit_callbacks(execute=True):
        games.deal_start(match_id=match.pk, actor=users["N"])
        for _ in range(52):
            state = restore(Match.objects.get(pk=match.pk).projection.snapshot)
            seat = state.deal.to_play
            games.card_play(match_id=match.pk, actor=users[seat.name], card=str(state.deal.legal_cards(seat)[0]))

    [sent] = receiver.of_type("deal.finished")
    assert sent.json()["data"]["deal"] == 1 and sum(sent.json()["data"]["tricks"].values()) == 13


def test_an_abandoned_match_is_announced_with_the_reason(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["match.abandoned", "match.finished"])

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(3), world.users["sam"], deals=1)
        games.match_abandon(match_id=season_match.pk, actor=world.users["sam"], reason="the hall closed")

    [sent] = receiver.received
    assert sent.headers["X-Kierki-Event"] == "match.abandoned"
    assert sent.json()["data"]["reason"] == "the hall closed" and sent.json()["data"]["deals"] == 1


def test_a_ruling_is_announced_with_the_ruled_points(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["ruling.recorded"])
    play(season_match, simulated(4), world.users["sam"])
    dispute = disputes.dispute_raise(match_id=season_match.pk, actor=world.users["p1"], deal=1, statement="E revoked")
    points = {"N": -20, "E": -40, "S": 0, "W": 0}

    with django_capture_on_commit_callbacks(execute=True):
        disputes.ruling_record(
            dispute_id=dispute.pk,
            actor=world.users["arb"],
            ruling="score_adjusted",
            reason="E revoked at play 5",
            points=points,
        )

    [sent] = receiver.received
    data = sent.json()["data"]
    assert (data["dispute"], data["ruling"], data["deal"], data["points"]) == (dispute.pk, "score_adjusted", 1, points)
    assert data["arbiter"] == Player.objects.get(username="arb").public_id and data["status"] == "finished"


def test_the_standings_recompute_is_announced_once_the_season_match_ends(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["standings.updated"])

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(5), world.users["sam"])

    [sent] = receiver.received
    assert sent.json()["data"] == {
        "season": world.season.pk,
        "name": "2025",
        "league": world.league.pk,
        "club": world.club.pk,
        "standings": f"/api/v1/seasons/{world.season.pk}/standings/",
    }


def test_a_nightly_rebuild_that_changes_nothing_announces_nothing(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["standings.updated"])
    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(5), world.users["sam"])

    with django_capture_on_commit_callbacks(execute=True):
        recompute.standings_rebuild(season_ids=[world.season.pk])

    assert len(receiver.received) == 1


def test_a_record_filed_into_the_season_announces_its_deals_and_its_end(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    hook(["deal.finished", "match.finished"])
    record = simulated(6)

    with django_capture_on_commit_callbacks(execute=True):
        match = scoring.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=record)

    types = [r.headers["X-Kierki-Event"] for r in receiver.received]
    assert types == ["deal.finished"] * len(record["deals"]) + ["match.finished"]
    assert receiver.received[-1].json()["data"]["match"] == str(match.pk)


def test_every_endpoint_gets_only_the_types_it_chose_and_one_event_id_per_event(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["match.finished"])
    hook(["match.finished", "deal.finished"])
    hook(["standings.updated"], active=False)

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(7), world.users["sam"])

    finished = receiver.of_type("match.finished")
    assert len(finished) == 2 and len({r.headers["X-Kierki-Delivery"] for r in finished}) == 1
    assert receiver.of_type("standings.updated") == []  # a disabled endpoint gets nothing
    assert len(receiver.of_type("deal.finished")) == len(simulated(7)["deals"])


def test_a_match_outside_any_season_has_no_webhooks(world, hook, receiver, django_capture_on_commit_callbacks):
    hook()
    match = games.match_create(
        actor=world.users["sam"],
        seats=dict(zip("NESW", ("p1", "p2", "p3", "p4"))),
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": {"regular_deals": ["R", "O"]}},
    )

    with django_capture_on_commit_callbacks(execute=True):
        play(match, simulated(8), world.users["sam"])

    assert receiver.received == [] and deliveries() == []


def test_a_rolled_back_command_creates_no_delivery(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    hook(["deal.finished"])
    record = simulated(9)
    play(season_match, record, world.users["sam"], deals=1, cards=51)
    last_card = record["deals"][0]["plays"][51]

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                games.card_play(match_id=season_match.pk, actor=world.users["sam"], card=last_card)
                assert len(deliveries("deal.finished")) == 1  # written with the events…
                raise RuntimeError("the request failed after the command")

    assert deliveries() == [] and callbacks == [] and receiver.received == []  # …and gone with them
    games.card_play(match_id=season_match.pk, actor=world.users["sam"], card=last_card)
    assert len(deliveries("deal.finished")) == 1


def test_a_broker_that_is_down_leaves_the_delivery_for_the_sweep(
    world, hook, receiver, season_match, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    from kombu.exceptions import OperationalError

    from webhooks import tasks

    hook(["match.finished"])

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(tasks.deliver, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(10), world.users["sam"])

    [delivery] = deliveries()
    assert delivery.status == "pending" and delivery.attempts == 0 and receiver.received == []
    assert "the sweep will" in caplog.text

    from django.core.management import call_command

    call_command("deliver_webhooks")
    delivery.refresh_from_db()
    assert delivery.status == "succeeded" and len(receiver.received) == 1


def test_a_receiver_that_fails_is_retried_with_backoff_until_it_answers(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    from django.core.management import call_command

    hook(["match.finished"])
    receiver.fail(2, status=503)
    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(11), world.users["sam"])

    [delivery] = deliveries()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("pending", 1, 503)
    assert delivery.last_error == "HTTP 503: receiver err"
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 30 * 0.8 - 2 <= wait <= 30 * 1.2

    call_command("deliver_webhooks")  # not due yet: nothing is sent
    assert len(receiver.received) == 1

    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    call_command("deliver_webhooks")
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 2)
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 60 * 0.8 - 2 <= wait <= 60 * 1.2  # doubled

    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    call_command("deliver_webhooks")
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code, delivery.last_error) == (
        "succeeded",
        3,
        204,
        "",
    )
    assert len({r.headers["X-Kierki-Delivery"] for r in receiver.received}) == 1  # the same event, three times


def test_a_delivery_still_failing_24_hours_after_it_was_created_fails(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    from django.core.management import call_command

    hook(["match.finished"])
    receiver.fail(10)
    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(12), world.users["sam"])
    [delivery] = deliveries()
    assert delivery.retry_until - delivery.created_at == datetime.timedelta(hours=24)

    now = timezone.now()
    Delivery.objects.filter(pk=delivery.pk).update(
        created_at=now - datetime.timedelta(hours=24),
        retry_until=now + datetime.timedelta(seconds=5),
        next_attempt_at=now,
    )
    call_command("deliver_webhooks")

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 2, 500)
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=now)
    call_command("deliver_webhooks")
    assert len(receiver.received) == 2  # failed for good: the sweep leaves it


def test_an_unreachable_receiver_is_a_failure_with_the_network_error(
    world, hook, receiver, season_match, django_capture_on_commit_callbacks
):
    endpoint = hook(["match.finished"])
    port = receiver.server.server_address[1]
    receiver.stop()
    receiver.start()  # on another port: nothing listens on the registered one
    assert receiver.server.server_address[1] != port

    with django_capture_on_commit_callbacks(execute=True):
        play(season_match, simulated(13), world.users["sam"])

    [delivery] = deliveries()
    assert endpoint.url.endswith(f":{port}/hook")
    assert delivery.status == "pending" and delivery.attempts == 1 and delivery.last_status_code is None
    assert delivery.last_error.startswith("ConnectError")
