"""Webhooks for what happens to a finished sheet (issue 29, item 2): a seated player's
confirmation (``result.confirmed``, naming the result digest it signs) and an arbiter's
withdrawal and reinstatement (``match.withdrawn`` / ``match.reinstated``)."""

import pytest
from hooks_helpers import PLAYERS, hooks_world, simulated
from support.world import file_by_points, season_match

from games.domain import confirmation
from games.models import Match, Player
from games.write import signoffs


@pytest.fixture
def world(django_user_model):
    return hooks_world()


def filed_match(world):
    """A season match filed deal by deal from its paper sheet (R33) by the scorer ``sam``."""
    match = season_match(world, PLAYERS)
    file_by_points(match, simulated(3), world.users["sam"])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_confirmation_is_announced_with_the_result_it_signs(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    hook(["result.confirmed"])
    match = filed_match(world)

    with django_capture_on_commit_callbacks(execute=True):
        signoffs.result_confirm(match_id=match.pk, actor=world.users["p2"])

    [received] = receiver.received
    body = received.json()
    assert received.headers["X-Kierki-Event"] == body["type"] == "result.confirmed"
    assert body["data"]["seat"] == "E"
    assert body["data"]["by"] == Player.objects.get(username="p2").public_id  # webhooks send no names
    assert body["data"]["match"] == str(match.pk)
    assert body["data"]["result"] == confirmation.result_of(match.projection.summary)


def test_a_withdrawal_and_its_reinstatement_are_announced_with_the_reason(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    hook(["match.withdrawn", "match.reinstated"])
    match = filed_match(world)

    with django_capture_on_commit_callbacks(execute=True):
        signoffs.match_withdraw(match_id=match.pk, actor=world.users["arb"], reason="Zły arkusz")
        signoffs.match_reinstate(match_id=match.pk, actor=world.users["arb"], reason="Jednak dobry")

    bodies = [r.json() for r in receiver.received]
    arb = Player.objects.get(username="arb").public_id  # webhooks send no names (issue 28)
    assert [b["type"] for b in bodies] == ["match.withdrawn", "match.reinstated"]
    assert [(b["data"]["reason"], b["data"]["by"]) for b in bodies] == [("Zły arkusz", arb), ("Jednak dobry", arb)]
    assert bodies[0]["data"]["totals"] == match.projection.summary["totals"]


def test_an_endpoint_not_subscribed_hears_nothing_of_them(world, hook, receiver, django_capture_on_commit_callbacks):
    hook(["match.finished"])
    match = filed_match(world)

    with django_capture_on_commit_callbacks(execute=True):
        signoffs.result_confirm(match_id=match.pk, actor=world.users["p2"])
        signoffs.match_withdraw(match_id=match.pk, actor=world.users["arb"], reason="Zły arkusz")

    assert receiver.received == []
