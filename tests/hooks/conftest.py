"""Fixtures for the webhook tests: a club with a season, a loopback receiver, endpoints."""

import pytest
from hooks_helpers import PLAYERS, Receiver
from support.world import build_world
from support.world import season_match as recorded_match

from scoring import services as scoring
from webhooks import services


@pytest.fixture
def world(django_user_model):
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p4``), league
    ``Liga`` (the short ruleset) with season ``2025``; club ``other`` (admin ``olga``); ``staff``;
    ``outsider`` (tests/support's world with these names)."""
    world = build_world(django_user_model, players=PLAYERS, arbiter="arb", others=("olga", "outsider"))
    world.other_club = scoring.club_create(actor=world.users["olga"], name="Inny", slug="other")
    return world


@pytest.fixture
def allow_private(settings):
    """The receiver is on loopback: let webhooks reach it."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True


@pytest.fixture
def receiver():
    running = Receiver().start()
    yield running
    running.stop()


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
