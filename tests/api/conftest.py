"""Fixtures for the API tests: users in every role, authenticated clients, a server-dealt
match created through the API."""

import pytest
from api_helpers import create_match, post
from support import PLAYERS, api_client
from support.world import people

from games import services


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def users(django_user_model):
    """The four players of ``server_match``; ``scorer`` (scorers group), ``staff``; ``outsider``,
    seated in another match only."""
    made = people(django_user_model, (*PLAYERS, "scorer", "outsider", "o1", "o2", "o3"))
    services.match_create(
        actor=made["outsider"], first_dealer="N", seats={"N": "outsider", "E": "o1", "S": "o2", "W": "o3"}
    )
    return made


@pytest.fixture
def client_for():
    return api_client


@pytest.fixture
def clients(users, client_for):
    return {name: client_for(user) for name, user in users.items()}


@pytest.fixture
def server_match(clients):
    """A server-dealt match (ala N, bartek E, celina S, darek W; first dealer N, so E leads)
    created by the scorer, who scores it without sitting at it. No deal yet."""
    response = create_match(clients["scorer"], "server", scorer="scorer")
    assert response.status_code == 201, response.content
    return response.json()["id"]


@pytest.fixture
def dealt_match(server_match, clients):
    """``server_match`` with its first deal dealt (E, bartek, to lead)."""
    response = post(clients["ala"], server_match, "deals")
    assert response.status_code == 201, response.content
    return server_match
