"""Fixtures for the API tests: users in every role, authenticated clients, a server-dealt
match created through the API. A module whose every test starts from those users builds them once
(support.once) and hands out copies::

    built = once_per_module(api_people)


    @pytest.fixture
    def users(built):
        return fresh_users(built)

(``api_dealt`` with the dealt match too, where every test plays in it.)"""

import pytest
from api_helpers import api_people, deal, new_server_match
from support import api_client


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def users(django_user_model):
    """api_helpers.api_people, made for the test (``django_user_model`` brings the database)."""
    return api_people()


@pytest.fixture
def client_for():
    return api_client


@pytest.fixture
def clients(users, client_for):
    return {name: client_for(user) for name, user in users.items()}


@pytest.fixture
def server_match(clients):
    """api_helpers.new_server_match: ala N, bartek E, celina S, darek W, scored by ``scorer``."""
    return new_server_match(clients)


@pytest.fixture
def dealt_match(server_match, clients):
    """``server_match`` with its first deal dealt (E, bartek, to lead)."""
    return deal(clients, server_match)
