"""Fixtures for the generated-client tests (uvicorn serving the project is tests/support's
``asgi_server``): users with passwords."""

import pytest
from clients_helpers import PASSWORD, PLAYERS


@pytest.fixture
def people(transactional_db, django_user_model):
    """``admin`` (founds the club) and the four players, each with ``PASSWORD``."""
    return {name: django_user_model.objects.create_user(name, password=PASSWORD) for name in ("admin", *PLAYERS)}
