"""The club admin's pages: club → leagues → seasons → standings → score sheets; the member list
(adding by display name, invitation links), claiming an invitation, resetting a password by
e-mail, the season summary and closing a season."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from games.models import Match, Player
from scoring import invitations
from scoring.models import ClubPlayer, Invitation, Season

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "kiery-i-piki-2025"


def signed_in(client, user):
    client.force_login(user)
    return client


def test_the_navigation_leads_from_the_club_to_a_score_sheet(client, users, club):
    signed_in(client, users["ala"])
    match = Match.objects.get(season_match__season=club.season)

    clubs = client.get("/clubs/").content.decode()
    detail = client.get(f"/clubs/{club.pk}/").content.decode()
    season = client.get(f"/seasons/{club.season.pk}/").content.decode()
    sheet = client.get(f"/matches/{match.pk}/").content.decode()

    assert f'href="/clubs/{club.pk}/"' in clubs
    assert "Liga" in detail and f'href="/seasons/{club.season.pk}/"' in detail
    assert f'href="/seasons/{club.season.pk}/summary/"' in detail
    assert f'href="/matches/{match.pk}/"' in season and f"/api/v1/seasons/{club.season.pk}/standings.pdf" in season
    assert f'href="/clubs/{club.pk}/"' in season  # and back up
    assert f"/api/v1/matches/{match.pk}/sheet.pdf" in sheet and f'href="/seasons/{club.season.pk}/"' in sheet
    assert client.get(f"/api/v1/matches/{match.pk}/sheet.pdf").status_code == 200  # the session is enough


def test_a_non_member_sees_no_club(client, users, club):
    signed_in(client, users["outsider"])
    assert "Klub Kierkowy" not in client.get("/clubs/").content.decode()
    assert client.get(f"/clubs/{club.pk}/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/members/").status_code == 404


def test_an_admin_adds_a_member_by_name_and_gets_an_invitation_link(client, club):
    signed_in(client, club.ada)

    added = client.post(f"/clubs/{club.pk}/members/", {"action": "add_profile", "name": "Łucja Ź."})
    player = Player.objects.get(username="Łucja Ź.")
    invited = client.post(f"/clubs/{club.pk}/members/", {"action": "invite", "player": player.pk})

    assert added.status_code == 200 and "Łucja Ź." in added.content.decode()
    assert ClubPlayer.objects.filter(club=club, player=player).exists()
    link = re.search(r'value="(http://testserver/invitations/[^"]+/)"', invited.content.decode()).group(1)
    assert Invitation.objects.get(player=player).claimed_at is None
    client.logout()
    claim = client.get(link)
    assert claim.status_code == 200 and "Łucja Ź." in claim.content.decode()


def test_a_bad_name_on_the_member_page_is_an_error_and_nothing_is_stored(client, club):
    signed_in(client, club.ada)
    response = client.post(f"/clubs/{club.pk}/members/", {"action": "add_profile", "name": "ala"})
    assert response.status_code == 400 and "already plays for" in response.content.decode()
    assert not ClubPlayer.objects.exists()


def test_a_member_sees_the_list_without_the_admins_forms(client, users, club):
    response = signed_in(client, users["ala"]).get(f"/clubs/{club.pk}/members/").content.decode()
    assert "bartek" in response and 'name="action"' not in response
    refused = client.post(f"/clubs/{club.pk}/members/", {"action": "add_profile", "name": "X"})
    assert refused.status_code == 400 and not Player.objects.filter(username="X").exists()


def invitation_link(club, name="Zenon") -> str:
    player = invitations.club_player_add(actor=club.ada, club_id=club.pk, name=name)
    _, token = invitations.invitation_create(actor=club.ada, club_id=club.pk, player_id=player.pk)
    return f"/invitations/{token}/"


def test_the_invited_person_claims_the_profile_and_is_signed_in(client, club):
    link = invitation_link(club)

    response = client.post(link, {"username": "zenek", "password": PASSWORD, "email": "z@example.org"})

    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.pk}/"
    assert client.get(f"/clubs/{club.pk}/").status_code == 200  # signed in, a member
    assert User.objects.get(username="zenek").player.username == "Zenon"


def test_a_used_expired_or_forged_invitation_is_an_error_page_and_changes_nothing(client, club):
    used = invitation_link(club, "Zenon")
    client.post(used, {"username": "zenek", "password": PASSWORD})
    client.logout()
    expired = invitation_link(club, "Ewa")
    Invitation.objects.filter(player__username="Ewa").update(expires_at=timezone.now() - datetime.timedelta(hours=1))

    for link, status, words in (
        (used, 409, "used already"),
        (expired, 410, "expired"),
        (expired[:-2] + "x/", 400, "not valid"),
    ):
        page = client.get(link)
        posted = client.post(link, {"username": "other", "password": PASSWORD})
        assert page.status_code == posted.status_code == status
        assert words in page.content.decode()
    assert not User.objects.filter(username="other").exists()
    assert Player.objects.get(username="Ewa").user is None


def test_a_bad_password_keeps_the_invitation_open(client, club):
    link = invitation_link(club)
    response = client.post(link, {"username": "zenek", "password": "123"})
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert not User.objects.filter(username="zenek").exists()
    assert client.get(link).status_code == 200


def test_a_password_is_reset_by_e_mail(client, django_user_model):
    django_user_model.objects.create_user("zenek", email="z@example.org", password="old-password-1")

    client.post("/accounts/password_reset/", {"email": "z@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    done = client.post(form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD})

    assert len(mail.outbox) == 1 and "zenek" in mail.outbox[0].body
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert User.objects.get(username="zenek").check_password(PASSWORD)
    assert "Forgot your password?" in client.get("/accounts/login/").content.decode()


def test_the_summary_page_and_closing_a_season(client, users, club):
    signed_in(client, users["ala"])
    assert client.post(f"/seasons/{club.season.pk}/close/").status_code == 403
    assert "Close the season" not in client.get(f"/seasons/{club.season.pk}/").content.decode()

    signed_in(client, club.ada)
    assert "Close the season" in client.get(f"/seasons/{club.season.pk}/").content.decode()
    one_click = client.post(f"/seasons/{club.season.pk}/close/")  # issue 23: a reason and a confirmation first
    assert one_click.status_code == 400 and Season.objects.get(pk=club.season.pk).status == "open"
    closed = client.post(f"/seasons/{club.season.pk}/close/", {"reason": "end of the season", "confirm": "yes"})
    summary = client.get(f"/seasons/{club.season.pk}/summary/").content.decode()

    assert closed.status_code == 302 and Season.objects.get(pk=club.season.pk).status == "closed"
    assert "Champion" in summary and "Best single match" in summary and "Most improved rating" in summary
    assert "closed — ada" in summary.replace("Closed", "closed")
    assert client.get(f"/seasons/{club.season.pk}/summary/").status_code == 200
    signed_in(client, users["outsider"])
    assert client.get(f"/seasons/{club.season.pk}/summary/").status_code == 404
