"""Fixtures for the API tests: users in every role, authenticated clients, a server-dealt
match created through the API."""

import pytest
from api_helpers import SEATS, post
from django.contrib.auth.models import Group
from support import api_client

from games import services

PLAYERS = ("ala", "bartek", "celina", "darek")  # seats N, E, S, W


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def users(django_user_model):
    """The four players of ``server_match``; ``scorer`` (scorers group), ``staff``; ``outsider``,
    seated in another match only."""
    make = django_user_model.objects.create_user  # no password: hashing one is slow
    made = {name: make(name) for name in (*PLAYERS, "scorer", "outsider", "o1", "o2", "o3")}
    made["staff"] = make("staff", is_staff=True)
    made["scorer"].groups.add(Group.objects.get_or_create(name="scorers")[0])
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
    response = clients["scorer"].post(
        "/api/v1/matches/",
        {
            "seats": dict(zip(SEATS, PLAYERS)),
            "first_dealer": "N",
            "dealing": "server",
            "scorer": "scorer",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


@pytest.fixture
def dealt_match(server_match, clients):
    """``server_match`` with its first deal dealt (E, bartek, to lead)."""
    response = post(clients["ala"], server_match, "deals")
    assert response.status_code == 201, response.content
    return server_match
