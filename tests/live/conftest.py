"""Fixtures for the live-update tests (uvicorn serving the project is tests/support's
``asgi_server``; committed data: the tests run with a transactional database): users with API
tokens, matches made through the services."""

import pytest
from live_helpers import PLAYERS, SEATS, hands, new_recorded_match
from rest_framework.authtoken.models import Token

from games.models import Match
from games.write import services


@pytest.fixture
def people(transactional_db, django_user_model):
    """The four players (ala N, bartek E, celina S, darek W), ``scorer``, ``staff`` and ``outsider``,
    each with a player profile where seated and an API token: ``people[name] = (user, token)``."""
    made = {}
    for name in (*PLAYERS, "scorer", "staff", "outsider"):
        user = django_user_model.objects.create_user(name, is_staff=name == "staff")
        made[name] = (user, Token.objects.create(user=user).key)
    for name in PLAYERS:
        services.player_for_user(made[name][0])
    return made


@pytest.fixture
def user(people):
    return lambda name: people[name][0]


@pytest.fixture
def token(people):
    return lambda name: people[name][1]


@pytest.fixture
def server_match(people, user):
    """A server-dealt match of the four players (first dealer N: E leads deal 1), no deal yet."""

    def _make(options: dict | None = None) -> Match:
        return services.match_create(
            actor=user("ala"),
            first_dealer="N",
            seats=dict(zip(SEATS, PLAYERS)),
            dealing=Match.Dealing.SERVER,
            ruleset={"options": options or {}},
        )

    return _make


@pytest.fixture
def recorded_match(people, user):
    """A recorded match scored by ``scorer``, its first deal (hands of seed 1) in play."""
    match = new_recorded_match(user("scorer"))
    services.deal_start(match_id=match.pk, actor=user("scorer"), hands=hands(1))
    return match
