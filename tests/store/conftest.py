"""Fixtures for the event-store tests: seated users, imported sample matches, a live
server-dealt match."""

import pytest
from store_helpers import new_server_match, sample, store_people

from games.models import Match
from games.write import services


@pytest.fixture
def users(django_user_model):
    """store_helpers.store_people: four seated players, a scorer and a stranger, by name
    (``django_user_model`` brings the database)."""
    return store_people()


@pytest.fixture
def import_sample(users):
    def _import(name: str) -> Match:
        return services.record_import(actor=users["scorer"], record=sample(name))

    return _import


@pytest.fixture
def server_match(users):
    """store_helpers.new_server_match: server-dealt, with a scorer, its first deal dealt."""
    return new_server_match(users)
