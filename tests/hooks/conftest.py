"""Fixtures for the webhook tests: a club with a season, a loopback receiver, endpoints."""

import pytest
from hooks_helpers import PLAYERS, SHORT, Receiver, World

from scoring import services as scoring
from webhooks import services


@pytest.fixture
def world(django_user_model):
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p4``), league
    ``Liga`` (the short ruleset) with season ``2025``; club ``other`` (admin ``olga``); ``staff``;
    ``outsider``."""
    users = {
        name: django_user_model.objects.create_user(name)
        for name in ("ada", "sam", "arb", *PLAYERS, "olga", "outsider")
    }
    users["staff"] = django_user_model.objects.create_user("staff", is_staff=True)
    club = scoring.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name, role in (("sam", "scorer"), ("arb", "arbiter"), *((p, "member") for p in PLAYERS)):
        scoring.membership_set(actor=users["ada"], club_id=club.pk, username=name, role=role)
    other = scoring.club_create(actor=users["olga"], name="Inny", slug="other")
    league = scoring.league_create(actor=users["ada"], club_id=club.pk, name="Liga", ruleset={"options": SHORT})
    season = scoring.season_create(actor=users["ada"], league_id=league.pk, name="2025")
    return World(users, club, other, league, season)


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
    return scoring.season_match_create(
        actor=world.users["sam"],
        season_id=world.season.pk,
        seats=dict(zip("NESW", PLAYERS)),
        first_dealer="N",
        dealing="recorded",
    )
