"""Members without an account: a profile added by display name plays for the club at once
(seated, filed); an invitation lets its person claim it with an account, once, before it expires."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from scoring_helpers import fresh_world, record, scoring_world
from support.once import once_per_module
from support.world import season_match

from games.domain.exceptions import InvalidInput, NotAllowed, NotFound
from games.models import Match, Player
from scoring import invitations, members, services
from scoring.exceptions import InvitationExpired, InvitationInvalid, InvitationUsed
from scoring.models import ClubPlayer, Invitation, Membership

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "kiery-i-piki-2025"


built = once_per_module(scoring_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


def add(world, name, actor="ada"):
    return invitations.club_player_add(actor=world.users[actor], club_id=world.club.pk, name=name)


def test_a_profile_added_by_display_name_plays_for_the_club_at_once(world):
    player = add(world, "  Łucja   Źdźbło ")

    assert player.username == "Łucja Źdźbło" and player.user is None
    assert members.is_club_player(world.club, player)
    assert player in members.club_players(world.club)
    match = season_match(world, ("Łucja Źdźbło", "p1", "p2", "p3"))
    assert match.north == player


def test_a_profile_is_filed_by_name_in_a_season_record(world):
    for name in ("Ala M.", "Bożena", "Ćma"):
        add(world, name)

    match = services.season_record_import(
        actor=world.users["sam"], season_id=world.season.pk, record=record(7, ["Ala M.", "Bożena", "Ćma", "p1"])
    )

    assert [p.username for p in match.seat_players()] == ["Ala M.", "Bożena", "Ćma", "p1"]


def test_club_players_counts_member_accounts_and_profiles_of_this_club_only(world, django_user_model):
    add(world, "Zenon")
    other_admin = django_user_model.objects.create_user("other")
    other = services.club_create(actor=other_admin, name="Inny", slug="inny")
    invitations.club_player_add(actor=other_admin, club_id=other.pk, name="Obcy")

    names = set(members.club_players(world.club).values_list("username", flat=True))

    assert {"ada", "sam", "arb", "p1", "p6", "Zenon"} <= names
    assert "Obcy" not in names and "other" not in names and "outsider" not in names
    assert not members.is_club_player(world.club, Player.objects.get(username="Obcy"))


def test_a_guest_from_a_paper_sheet_becomes_the_clubs_profile(world):
    guest = Player.objects.create(username="Gość")

    assert add(world, "Gość") == guest
    assert members.is_club_player(world.club, guest)


@pytest.mark.parametrize(
    "name, field_message",
    [
        ("", "display name"),
        ("   ", "display name"),
        ("x" * 151, "at most"),
        ("nul\x00here", "printable"),
        (None, "display name"),
        ("erased player #3", "erased person"),  # pages would show "usunięty gracz nr 3"
    ],
)
def test_a_bad_display_name_is_refused_and_nothing_stored(world, name, field_message):
    with pytest.raises(InvalidInput) as refused:
        add(world, name)

    assert refused.value.field == "name" and field_message in refused.value.detail
    assert not ClubPlayer.objects.exists()


def test_a_name_twice_or_an_accounts_name_is_refused(world):
    add(world, "Zenon")
    with pytest.raises(InvalidInput, match="already plays"):
        add(world, "Zenon")
    with pytest.raises(InvalidInput, match="taken"):
        add(world, "outsider")  # a user without a player yet
    with pytest.raises(InvalidInput):
        add(world, "p1")  # a member's account
    assert ClubPlayer.objects.count() == 1


def test_only_the_clubs_admins_add_profiles_and_invite(world):
    with pytest.raises(NotAllowed):
        add(world, "Zenon", actor="sam")
    zenon = add(world, "Zenon")
    with pytest.raises(NotAllowed):
        invitations.invitation_create(actor=world.users["p1"], club_id=world.club.pk, player_id=zenon.pk)
    assert not Invitation.objects.exists()


# --- invitations ------------------------------------------------------------------------------------


def invite(world, name="Zenon"):
    player = add(world, name)
    return invitations.invitation_create(actor=world.users["ada"], club_id=world.club.pk, player_id=player.pk)


def test_the_invited_person_claims_the_profile_with_an_account_and_joins_the_club(world):
    invitation, token = invite(world)

    claimed = invitations.invitation_claim(token=token, username="zenek", password=PASSWORD, email="z@example.org")

    user = User.objects.get(username="zenek")
    assert claimed.claimed_by == user and claimed.claimed_at is not None
    assert user.check_password(PASSWORD) and user.email == "z@example.org"
    assert user.player.username == "Zenon"  # the profile keeps its name: his matches stay his
    assert Membership.objects.get(club=world.club, user=user).role == "member"
    assert members.is_club_player(world.club, user.player)


def test_an_invitation_works_once(world):
    invitation, token = invite(world)
    invitations.invitation_claim(token=token, username="zenek", password=PASSWORD)

    with pytest.raises(InvitationUsed):
        invitations.invitation_claim(token=token, username="zenek2", password=PASSWORD)

    assert not User.objects.filter(username="zenek2").exists()
    assert Player.objects.get(username="Zenon").user.username == "zenek"


def test_an_expired_invitation_changes_nothing(world):
    invitation, token = invite(world)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))

    with pytest.raises(InvitationExpired) as refused:
        invitations.invitation_claim(token=token, username="zenek", password=PASSWORD)

    assert refused.value.status == 410 and "expired" in refused.value.detail
    assert not User.objects.filter(username="zenek").exists()
    assert Player.objects.get(username="Zenon").user is None
    assert Invitation.objects.get(pk=invitation.pk).claimed_at is None


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t + "x",
        lambda t: "1" + t,
        lambda t: t.split(":")[0],
        lambda t: "",
        lambda t: "999:" + t.split(":", 1)[1],
    ],
)
def test_a_token_not_signed_here_is_invalid(world, tamper):
    invitation, token = invite(world)

    with pytest.raises(InvitationInvalid):
        invitations.invitation_claim(token=tamper(token), username="zenek", password=PASSWORD)

    assert not User.objects.filter(username="zenek").exists()


def test_the_expiry_comes_from_the_settings(world, settings):
    settings.INVITATION_TTL_HOURS = 2
    before = timezone.now()

    invitation, _ = invite(world)

    assert before + datetime.timedelta(hours=2) <= invitation.expires_at <= timezone.now() + datetime.timedelta(hours=2)


@pytest.mark.parametrize(
    "username, password, email, field",
    [
        ("p1", PASSWORD, "", "username"),  # taken
        ("bad name!", PASSWORD, "", "username"),
        ("", PASSWORD, "", "username"),
        ("zenek", "123", "", "password"),  # too short, numeric
        ("zenek", "zenekk12", "", "password"),  # too like the username
        ("zenek", PASSWORD, "not-a-mail", "email"),
    ],
)
def test_bad_claim_input_is_refused_and_the_invitation_stays_open(world, username, password, email, field):
    invitation, token = invite(world)

    with pytest.raises(InvalidInput) as refused:
        invitations.invitation_claim(token=token, username=username, password=password, email=email)

    assert refused.value.field == field
    assert User.objects.filter(username=username).count() == (1 if username == "p1" else 0)
    assert Player.objects.get(username="Zenon").user is None
    assert invitations.invitation_check(token=token) == invitation  # still usable


def test_a_profile_with_an_account_gets_no_new_invitation(world):
    invitation, token = invite(world)
    invitations.invitation_claim(token=token, username="zenek", password=PASSWORD)

    with pytest.raises(InvitationUsed):
        invitations.invitation_create(actor=world.users["ada"], club_id=world.club.pk, player_id=invitation.player_id)
    with pytest.raises(NotFound):  # not a profile of this club (a member account)
        invitations.invitation_create(
            actor=world.users["ada"], club_id=world.club.pk, player_id=Player.objects.get(username="p1").pk
        )


def test_the_member_list_shows_profiles_accounts_and_invitations(world):
    invite(world, "Zenon")
    add(world, "Ala M.")

    rows = {row["name"]: row for row in members.member_rows(world.club, viewer=world.users["ada"])}

    assert rows["Zenon"]["account"] is None and rows["Zenon"]["invitation"]["status"] == "pending"
    assert rows["Ala M."]["invitation"] is None and rows["Ala M."]["role"] is None
    assert rows["p1"]["account"] == "p1" and rows["p1"]["role"] == "member"
    assert rows["ada"]["role"] == "admin"
    assert "outsider" not in rows
    assert not Match.objects.exists()
