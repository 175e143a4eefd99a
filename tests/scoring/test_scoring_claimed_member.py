"""A member who claimed an invitation (issue 23, item 5): her profile keeps its display name,
her account has a username of its own, and she starts her own season match named either way."""

import pytest
from support.world import SHORT, build_world

from games.domain.exceptions import InvalidInput, NotAllowed
from games.models import Match
from scoring import invitations
from scoring.services import season_match_create

pytestmark = pytest.mark.django_db

NAME = "Łucja Żak"


@pytest.fixture
def world(django_user_model):
    """Club ``kk`` with members p1–p3 and the profile ``Łucja Żak``, claimed as the account ``lucja``."""
    world = build_world(
        django_user_model, players=("p1", "p2", "p3"), scorer=None, arbiter=None, staff=None, options=SHORT
    )
    ada = world.users["ada"]
    profile = invitations.club_player_add(actor=ada, club_id=world.club.pk, name=NAME)
    _, token = invitations.invitation_create(actor=ada, club_id=world.club.pk, player_id=profile.pk)
    invitations.invitation_claim(token=token, username="lucja", password="a-long-pass-phrase-42")
    world.users["lucja"] = django_user_model.objects.get(username="lucja")
    return world


@pytest.mark.parametrize("her_seat", ["lucja", NAME])
def test_a_claimed_member_starts_her_own_season_match_by_username_or_display_name(world, her_seat):
    lucja = world.users["lucja"]
    match = season_match_create(
        actor=lucja,
        season_id=world.season.pk,
        seats={"N": her_seat, "E": "p1", "S": "p2", "W": "p3"},
        first_dealer="N",
        dealing="recorded",
    )
    assert match.north == lucja.player and match.north.username == NAME  # her profile, by its display name
    assert Match.objects.count() == 1


def test_she_still_cannot_start_a_match_she_does_not_sit_at(world):
    with pytest.raises(NotAllowed):
        season_match_create(
            actor=world.users["lucja"],
            season_id=world.season.pk,
            seats={"N": "ada", "E": "p1", "S": "p2", "W": "p3"},
            first_dealer="N",
            dealing="recorded",
        )


def test_an_outsiders_username_is_still_not_a_member(world, django_user_model):
    django_user_model.objects.create_user("obcy")
    with pytest.raises(InvalidInput):
        season_match_create(
            actor=world.users["ada"],
            season_id=world.season.pk,
            seats={"N": "obcy", "E": "p1", "S": "p2", "W": "p3"},
            first_dealer="N",
            dealing="recorded",
        )
