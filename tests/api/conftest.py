"""Fixtures for the API tests: users in every role, authenticated clients, a server-dealt
match created through the API. A module whose every test starts from those users builds them once
(support.once) and hands out copies::

    built = once_per_module(api_people)


    @pytest.fixture
    def users(built):
        return fresh_users(built)
"""

import pytest
from api_helpers import api_people, create_match, post
from support import api_client


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def users():
    """api_helpers.api_people, made for the test."""
    return api_people()


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
