"""Issue 30, finding 1: one member alone put an invented result into his club's standings by
founding a club of his own, linking there the account-less profiles of his club, claiming them
with sock accounts and having them confirm a season match he recorded. A profile belongs to one
club now: the first step is refused, and so is each later step on its own (defence in depth)."""

import pytest
from django.contrib.auth import get_user_model
from support import SEATS
from support import api_client as client
from support.world import play_record, simulated

from games.models import Match, Player
from scoring import invitations
from scoring.models import ClubPlayer, Invitation, Membership, SeatInvitation, StandingRow

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "kiery-i-piki-2025"


@pytest.fixture
def club_a(world):
    """Club ``kk`` (the world's) with two profiles without an account, Wiktor and Wanda; ``mal``,
    a plain member of it, is the attacker."""
    world.users["mal"] = User.objects.create_user("mal")
    Membership.objects.create(club=world.club, user=world.users["mal"])
    for name in ("Wiktor", "Wanda"):
        invitations.club_player_add(actor=world.users["ada"], club_id=world.club.pk, name=name)
    return world


def found_club_b(world) -> int:
    response = client(world.users["mal"]).post("/api/v1/clubs/", {"name": "Klub B", "slug": "kb"}, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def claim(token: str, username: str):
    body = {"token": token, "username": username, "password": PASSWORD}
    return client().post("/api/v1/invitations/claim/", body, format="json")


# --- the attack, as it was reported ------------------------------------------------------------------


def test_another_clubs_admin_cannot_take_a_profile_by_adding_its_name(club_a):
    mal, club_b = club_a.users["mal"], found_club_b(club_a)
    wiktor = Player.objects.get(username="Wiktor")

    added = client(mal).post(f"/api/v1/clubs/{club_b}/players/", {"name": "Wiktor"}, format="json")
    invited = client(mal).post(f"/api/v1/clubs/{club_b}/players/{wiktor.pk}/invitation/")

    assert added.status_code == 400 and added.json()["field"] == "name"
    assert club_a.club.name not in added.json()["detail"]  # the admin learns nothing more
    assert invited.status_code == 404
    assert list(ClubPlayer.objects.filter(player=wiktor).values_list("club_id", flat=True)) == [club_a.club.pk]
    # the real Wiktor can still be invited by his club, and claims his profile
    token = invitations.invitation_create(actor=club_a.users["ada"], club_id=club_a.club.pk, player_id=wiktor.pk)[1]
    assert claim(token, "wiktor").status_code == 201
    assert Player.objects.get(pk=wiktor.pk).user.username == "wiktor"


def test_a_name_held_elsewhere_is_refused_alike_whether_a_profile_or_an_account(club_a):
    mal, club_b = club_a.users["mal"], found_club_b(club_a)

    profile = client(mal).post(f"/api/v1/clubs/{club_b}/players/", {"name": "Wanda"}, format="json")
    account = client(mal).post(f"/api/v1/clubs/{club_b}/players/", {"name": "outsider"}, format="json")

    assert profile.status_code == account.status_code == 400
    assert profile.json()["detail"].replace("Wanda", "X") == account.json()["detail"].replace("outsider", "X")


# --- defence in depth: each later step refused on its own ---------------------------------------------


@pytest.fixture
def linked_before_the_fix(club_a):
    """What the hole left behind: club B (mal's) holds an invitation to Wiktor's profile, made
    when B could link it (the migration keeps only A's link; the invitation row stays)."""
    club_b = found_club_b(club_a)
    wiktor = Player.objects.get(username="Wiktor")
    invitation = Invitation.objects.create(
        club_id=club_b, player=wiktor, created_by=club_a.users["mal"], expires_at="2999-01-01T00:00Z"
    )
    return club_b, wiktor, invitations.invitation_token(invitation)


def test_an_invitation_of_another_club_never_hands_over_the_profile(linked_before_the_fix):
    club_b, wiktor, token = linked_before_the_fix

    response = claim(token, "sock1")

    assert response.status_code == 400 and response.json()["code"] == "invitation_invalid"
    assert Player.objects.get(pk=wiktor.pk).user is None
    assert not User.objects.filter(username="sock1").exists()
    assert client().get(f"/invitations/{token}/").status_code == 400  # the page refuses it too


def season_match_seating(world, names, *, by="mal"):
    return client(world.users[by]).post(
        "/api/v1/matches/",
        {
            "seats": dict(zip(SEATS, names)),
            "first_dealer": "N",
            "dealing": "recorded",
            "season": world.season.pk,
        },
        format="json",
    )


def test_a_season_match_cannot_seat_a_profile_claimed_by_someone_who_is_not_a_member(club_a):
    """A profile taken over before the fix (its account is a member of another club only)
    is no longer the club's player: a season match of the club cannot seat it (R-free: club
    membership, scoring.members)."""
    sock = User.objects.create_user("sock1")
    Player.objects.filter(username="Wiktor").update(user=sock)

    response = season_match_seating(club_a, ["mal", "Wiktor", "Wanda", "p1"])

    assert response.status_code == 400 and response.json()["field"] == "seats.E"
    assert not Match.objects.exists()


def test_a_paper_sheet_seating_a_taken_over_profile_is_not_filed_into_the_season(club_a):
    """The same check on the import path (``season_record_import``): the club's scorer files a
    record naming the profile an outsider's account holds."""
    sock = User.objects.create_user("sock1")
    Player.objects.filter(username="Wiktor").update(user=sock)
    sheet = simulated(3, ("p1", "Wiktor", "p2", "p3"), options=None)

    response = client(club_a.users["sam"]).post(
        f"/api/v1/matches/import/?season={club_a.season.pk}", sheet, format="json"
    )

    assert response.status_code == 400 and response.json()["field"] == "players.E"
    assert not Match.objects.exists()


def test_the_account_less_profiles_are_listed_to_the_clubs_officials_only(club_a):
    path = f"/api/v1/clubs/{club_a.club.pk}/players/"

    def names(user):
        response = client(user).get(path)
        assert response.status_code == 200
        return {row["name"] for row in response.json()}

    for official in ("ada", "sam", "arb", "staff"):
        assert {"Wiktor", "Wanda"} <= names(club_a.users[official]), official
    for other in ("mal", "p1", "outsider"):
        seen = names(club_a.users[other])
        assert not seen & {"Wiktor", "Wanda"} and "p1" in seen, other


def test_the_members_page_hides_the_profiles_from_a_plain_member(club_a, client):
    client.force_login(club_a.users["p1"])

    page = client.get(f"/clubs/{club_a.club.pk}/members/")

    assert page.status_code == 200
    assert "Wiktor" not in page.content.decode() and "p2" in page.content.decode()


# --- what the attack did, end to end: the standings of a member who never played ---------------------


def test_socks_cannot_put_an_invented_match_into_a_real_members_standings(club_a, django_capture_on_commit_callbacks):
    """The chain of the report: every step the attacker can still try, then the effect checked."""
    mal, club_b = club_a.users["mal"], found_club_b(club_a)
    socks = []
    for name, sock in (("Wiktor", "sock1"), ("Wanda", "sock2")):
        client(mal).post(f"/api/v1/clubs/{club_b}/players/", {"name": name}, format="json")
        player = Player.objects.get(username=name)
        invited = client(mal).post(f"/api/v1/clubs/{club_b}/players/{player.pk}/invitation/")
        if invited.status_code == 201:
            claim(invited.json()["token"], sock)
        socks.append(User.objects.filter(username=sock).first())
    created = season_match_seating(club_a, ["mal", "Wiktor", "Wanda", "p1"])
    if created.status_code == 201:
        match = Match.objects.get(pk=created.json()["id"])
        with django_capture_on_commit_callbacks(execute=True):
            play_record(match, simulated(7, ("mal", "Wiktor", "Wanda", "p1"), options=None), mal)
            for sock in socks:
                client(sock).post(f"/api/v1/matches/{match.pk}/confirmations/", {}, format="json")

    assert socks == [None, None]
    # a member may still record a match seating the club's profiles: nobody confirms it for them
    assert not Match.objects.filter(confirmed=True).exists()
    assert not StandingRow.objects.filter(player__username__in=["Wiktor", "p1"]).exists()
    wiktor = Player.objects.get(username="Wiktor")
    token = invitations.invitation_create(actor=club_a.users["ada"], club_id=club_a.club.pk, player_id=wiktor.pk)[1]
    assert claim(token, "wiktor").status_code == 201  # not invitation_used: nobody took his profile


# --- finding 8 (part): joining a club needs the person's consent, on the page too --------------------


def test_a_user_invited_on_the_members_page_accepts_on_his_invitations_page(world, client):
    client.force_login(world.users["ada"])
    added = client.post(f"/clubs/{world.club.pk}/members/", {"action": "add_user", "username": "outsider"})
    assert added.status_code == 200
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()

    client.force_login(world.users["outsider"])
    listed = client.get("/invitations/")
    invitation = Invitation.objects.get(user=world.users["outsider"])
    accepted = client.post("/invitations/", {"invitation": invitation.pk, "answer": "accept"})

    assert listed.status_code == 200 and world.club.name in listed.content.decode()
    assert accepted.status_code == 200 and world.club.name in accepted.content.decode()
    assert Membership.objects.get(club=world.club, user=world.users["outsider"]).role == "member"
    someone_elses = client.post("/invitations/", {"invitation": invitation.pk + 1, "answer": "accept"})
    assert someone_elses.status_code == 400


def test_the_player_list_and_profile_hide_a_clubs_account_less_profiles_from_outsiders(club_a):
    wiktor = Player.objects.get(username="Wiktor")

    def listed(user):
        return {row["username"] for row in client(user).get("/api/v1/players/?page_size=100").json()["results"]}

    assert "Wiktor" not in listed(club_a.users["mal"]) and "p1" in listed(club_a.users["mal"])
    assert client(club_a.users["outsider"]).get(f"/api/v1/players/{wiktor.pk}/").status_code == 404
    assert "Wiktor" in listed(club_a.users["sam"])
    assert client(club_a.users["ada"]).get(f"/api/v1/players/{wiktor.pk}/").status_code == 200


def test_an_account_named_like_a_profile_is_not_handed_the_profile_by_an_invitation_to_join(club_a):
    """An account without a player (made by staff) whose username is a profile's name: inviting
    him to a club would have given him that profile (``player_for_user`` claims a guest by name)."""
    User.objects.create_user("Wiktor")
    mal, club_b = club_a.users["mal"], found_club_b(club_a)

    response = client(mal).post(f"/api/v1/clubs/{club_b}/members/", {"user": "Wiktor"}, format="json")

    assert response.status_code == 400 and response.json()["field"] == "user"
    assert Player.objects.get(username="Wiktor").user is None


def test_a_season_match_asks_no_seat_its_club_membership_carries_the_consent(club_a):
    created = season_match_seating(club_a, ["p1", "p2", "p3", "p4"], by="sam")
    match_id = created.json()["id"]

    dealt = client(club_a.users["sam"]).post(
        f"/api/v1/matches/{match_id}/deals/", {"hands": simulated(5, options=None)["deals"][0]["hands"]}, format="json"
    )

    assert created.status_code == 201 and dealt.status_code == 201
    assert not SeatInvitation.objects.filter(match_id=match_id).exists()
