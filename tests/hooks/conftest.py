"""Fixtures for the webhook tests: a club with a season, a loopback receiver, endpoints. A module
whose every test starts from that world builds it once (support.once) and hands out copies::

    built = once_per_module(hooks_world)


    @pytest.fixture
    def world(built):
        return fresh_world(built)
"""

import pytest
from hooks_helpers import PLAYERS, Receiver, hooks_world
from support.world import season_match as recorded_match

from webhooks import services


@pytest.fixture
def world(django_user_model):
    """hooks_helpers.hooks_world, built for the test (``django_user_model`` brings the database)."""
    return hooks_world()


@pytest.fixture
def allow_private(settings):
    """The receiver is on loopback: let webhooks reach it."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True


@pytest.fixture(scope="module")
def running_receiver():
    """One receiver per module: stopping one waits for its loop to notice."""
    running = Receiver().start()
    yield running
    running.stop()


@pytest.fixture
def receiver(running_receiver):
    """The module's receiver, as a new one: nothing received, no failures to come."""
    running_receiver.received.clear()
    running_receiver.fail(0)
    return running_receiver


@pytest.fixture
def hook(world, receiver, allow_private):
    """An endpoint of club ``kk`` for every event type, posting to the receiver."""

    def make(
        event_types=("match.finished", "match.abandoned", "deal.finished", "ruling.recorded", "standings.updated"),
        **fields,
    ):
        return services.endpoint_create(
            actor=world.users["ada"], club_id=world.club.pk, url=receiver.url, event_types=list(event_types), **fields
        )

    return make


@pytest.fixture
def season_match(world):
    """A recorded match of the season, scored by ``sam``, players p1–p4 in N, E, S, W."""
    return recorded_match(world, PLAYERS)
