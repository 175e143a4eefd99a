"""Fixtures for the event-store tests: seated users, imported sample matches, a live
server-dealt match."""

import pytest
from store_helpers import SEATED, sample

from games import services
from games.models import Match


@pytest.fixture
def users(django_user_model):
    """Four seated players (each with a player profile), a scorer and a stranger, by name."""
    made = {
        name: django_user_model.objects.create_user(name)  # no password: hashing one is slow
        for name in ("north", "east", "south", "west", "scorer", "stranger")
    }
    for name in ("north", "east", "south", "west"):
        services.player_for_user(made[name])
    return made


@pytest.fixture
def import_sample(users):
    def _import(name: str) -> Match:
        return services.record_import(actor=users["scorer"], record=sample(name))

    return _import


@pytest.fixture
def server_match(users):
    """A server-dealt match with a scorer, its first deal dealt."""
    match = services.match_create(
        actor=users["north"], first_dealer="N", dealing=Match.Dealing.SERVER, scorer="scorer", seats=SEATED
    )
    services.deal_start(match_id=match.pk, actor=users["north"])
    return Match.objects.get(pk=match.pk)
