"""The club admin's endpoints: club players and invitations, closing and reopening a season,
its summary, and the PDFs (a match the caller may not read is a 404)."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from pypdf import PdfReader
from scoring_helpers import world_and_three_filed
from support import api_client as client
from support.world import season_match

from games.models import Match, Player
from scoring import invitations, services
from scoring.models import ClubPlayer, Invitation, Membership

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "kiery-i-piki-2025"


def pdf_text(response) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)


@pytest.fixture
def staff(world):
    return world.users["staff"]


# the world once per module, three filed matches once per class (support.once)
built, built_filed, world, filed = world_and_three_filed((51, 52, 53))


# --- members ---------------------------------------------------------------------------------------


def test_an_admin_adds_a_member_by_display_name_and_lists_the_club(world):
    added = client(world.users["ada"]).post(
        f"/api/v1/clubs/{world.club.pk}/players/", {"name": "Łucja Ź."}, format="json"
    )
    listed = client(world.users["sam"]).get(f"/api/v1/clubs/{world.club.pk}/players/")  # an official

    assert added.status_code == 201
    assert added.json() == {
        "player": Player.objects.get(username="Łucja Ź.").pk,
        "name": "Łucja Ź.",
        "account": None,
        "role": None,
        "invitation": None,
    }
    names = [row["name"] for row in listed.json()]
    assert "Łucja Ź." in names and "p1" in names
    assert names.index("Łucja Ź.") < names.index("p1")  # in Polish alphabetical order: Ł after L, before P


@pytest.mark.parametrize("body, field", [({"name": ""}, "name"), ({}, "name"), ({"name": "p1"}, "name")])
def test_a_bad_member_name_is_a_problem_and_nothing_is_stored(world, body, field):
    response = client(world.users["ada"]).post(f"/api/v1/clubs/{world.club.pk}/players/", body, format="json")

    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    assert response.json()["field"] == field
    assert not ClubPlayer.objects.exists()


def test_only_an_admin_adds_profiles(world):
    response = client(world.users["sam"]).post(f"/api/v1/clubs/{world.club.pk}/players/", {"name": "X"}, format="json")
    assert response.status_code == 403 and not Player.objects.filter(username="X").exists()


def players_listed(world) -> list[str]:
    return [row["name"] for row in client(world.users["ada"]).get(f"/api/v1/clubs/{world.club.pk}/players/").json()]


def test_an_existing_user_is_invited_by_username_and_joins_when_he_accepts(world):
    """Issue 30, finding 8: nobody with an account is made a member without his consent."""
    outsider = world.users["outsider"]
    invited = client(world.users["ada"]).post(
        f"/api/v1/clubs/{world.club.pk}/members/", {"user": "outsider", "role": "scorer"}, format="json"
    )
    assert invited.status_code == 202 and invited.json()["status"] == "pending"
    assert invited.json()["user"] == "outsider" and invited.json()["role"] == "scorer"
    assert "outsider" not in players_listed(world)
    mine = client(outsider).get("/api/v1/invitations/")
    assert [row["id"] for row in mine.json()] == [invited.json()["id"]]
    assert client(world.users["p1"]).get("/api/v1/invitations/").json() == []

    accepted = client(outsider).post(f"/api/v1/invitations/{invited.json()['id']}/accept/")

    assert accepted.status_code == 201 and accepted.json()["role"] == "scorer"
    assert Membership.objects.get(club=world.club, user=outsider).role == "scorer"
    assert "outsider" in players_listed(world)
    assert client(outsider).get("/api/v1/invitations/").json() == []
    again = client(outsider).post(f"/api/v1/invitations/{invited.json()['id']}/accept/")
    assert again.status_code == 409 and again.json()["code"] == "invitation_used"


def test_only_the_invited_user_answers_and_declining_changes_nothing_else(world):
    invited = client(world.users["ada"]).post(
        f"/api/v1/clubs/{world.club.pk}/members/", {"user": "outsider"}, format="json"
    )
    path = f"/api/v1/invitations/{invited.json()['id']}"

    by_admin = client(world.users["ada"]).post(f"{path}/accept/")
    by_other = client(world.users["p1"]).post(f"{path}/accept/")
    declined = client(world.users["outsider"]).post(f"{path}/decline/")
    late = client(world.users["outsider"]).post(f"{path}/accept/")

    assert by_admin.status_code == by_other.status_code == 404
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert late.status_code == 409
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()


def test_an_expired_join_invitation_is_a_problem(world):
    invited = client(world.users["ada"]).post(
        f"/api/v1/clubs/{world.club.pk}/members/", {"user": "outsider"}, format="json"
    )
    Invitation.objects.update(expires_at=timezone.now() - datetime.timedelta(minutes=1))

    response = client(world.users["outsider"]).post(f"/api/v1/invitations/{invited.json()['id']}/accept/")

    assert response.status_code == 410 and response.json()["code"] == "invitation_expired"
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()


def test_a_members_role_is_still_changed_at_once(world):
    response = client(world.users["ada"]).post(
        f"/api/v1/clubs/{world.club.pk}/members/", {"user": "p1", "role": "scorer"}, format="json"
    )
    assert response.status_code == 201 and response.json()["role"] == "scorer"


def invite(world, name="Zenon") -> dict:
    player = invitations.club_player_add(actor=world.users["ada"], club_id=world.club.pk, name=name)
    response = client(world.users["ada"]).post(f"/api/v1/clubs/{world.club.pk}/players/{player.pk}/invitation/")
    assert response.status_code == 201
    return response.json()


def test_an_invitation_link_is_claimed_once_through_the_api(world):
    invitation = invite(world)
    assert invitation["url"].endswith(f"/invitations/{invitation['token']}/")
    body = {"token": invitation["token"], "username": "zenek", "password": PASSWORD}

    first = client().post("/api/v1/invitations/claim/", body, format="json")
    again = client().post("/api/v1/invitations/claim/", {**body, "username": "zenek2"}, format="json")

    assert first.status_code == 201 and first.json() == {"username": "zenek", "player": "Zenon", "club": world.club.pk}
    assert again.status_code == 409 and again.json()["code"] == "invitation_used"
    assert again["Content-Type"] == "application/problem+json"
    assert not User.objects.filter(username="zenek2").exists()
    token = client().post("/api/v1/auth/token/", {"username": "zenek", "password": PASSWORD}, format="json")
    assert token.status_code == 200  # he signs in with what he chose


def test_an_expired_or_forged_invitation_is_a_problem_and_changes_nothing(world):
    invitation = invite(world)
    Invitation.objects.update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    body = {"token": invitation["token"], "username": "zenek", "password": PASSWORD}

    expired = client().post("/api/v1/invitations/claim/", body, format="json")
    forged = client().post("/api/v1/invitations/claim/", {**body, "token": invitation["token"] + "0"}, format="json")

    assert expired.status_code == 410 and expired.json()["code"] == "invitation_expired"
    assert forged.status_code == 400 and forged.json()["code"] == "invitation_invalid"
    assert client().get(expired.json()["type"]).status_code == 200  # the problem type is served
    assert not User.objects.filter(username="zenek").exists()
    assert Player.objects.get(username="Zenon").user is None


# --- the season life cycle ------------------------------------------------------------------------


def test_closing_then_a_patch_cannot_reopen_and_staff_reopen_with_a_logged_reason(world, staff):
    url = f"/api/v1/seasons/{world.season.pk}/"

    closed = client(world.users["ada"]).post(url + "close/", {"reason": "koniec"}, format="json")
    patched = client(world.users["ada"]).patch(url, {"status": "open"}, format="json")
    by_admin = client(world.users["ada"]).post(url + "reopen/", {"reason": "please"}, format="json")
    no_reason = client(staff).post(url + "reopen/", {}, format="json")
    reopened = client(staff).post(url + "reopen/", {"reason": "a late sheet"}, format="json")
    history = client(world.users["p1"]).get(url + "history/")

    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert patched.status_code == 409 and patched.json()["code"] == "season_closed"
    assert by_admin.status_code == 403
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    assert [(c["status"], c["actor"], c["reason"]) for c in history.json()] == [
        ("closed", "ada", "koniec"),
        ("open", "staff", "a late sheet"),
    ]


def test_a_closed_seasons_match_refuses_a_command_with_a_problem(world):
    match = season_match(world, ("p1", "p2", "p3", "p4"), dealing="server")
    services.season_close(actor=world.users["ada"], season_id=world.season.pk)

    response = client(world.users["p1"]).post(f"/api/v1/matches/{match.pk}/deals/", {}, format="json")

    assert response.status_code == 409 and response.json()["code"] == "season_closed"
    assert Match.objects.get(pk=match.pk).version == 1


class TestWithThreeFiledMatches:
    """The tests that read three finished matches of the season, filed once for them (once_per_class)."""

    def test_the_summary_endpoint(self, world, filed):
        services.season_close(actor=world.users["ada"], season_id=world.season.pk)

        summary = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/summary/").json()

        assert summary["final"] and summary["status"] == "closed" and len(summary["champions"]) >= 1
        assert summary["champions"][0] == summary["table"][0]["player"]
        assert summary["best_match"]["match"] in {str(m.pk) for m in filed}
        assert summary["most_improved"]["player"] in {row["player"] for row in summary["table"]}
        assert [c["status"] for c in summary["status_changes"]] == ["closed"]

    def test_a_finished_matchs_sheet_is_filled_and_an_outsider_gets_a_404(self, world, filed):
        match = filed[0]
        url = f"/api/v1/matches/{match.pk}/sheet.pdf"

        sheet = client(world.users["p1"]).get(url, HTTP_ACCEPT="application/pdf")
        hidden = client(world.users["outsider"]).get(url, HTTP_ACCEPT="application/pdf")
        missing = client(world.users["p1"]).get("/api/v1/matches/00000000-0000-0000-0000-000000000000/sheet.pdf")

        assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
        text, pages = pdf_text(sheet)
        summary = match.projection.summary
        assert pages >= 1 and "Klub Kierkowy" in text and "Winner" in text
        assert str(summary["totals"]["W"]) in text and "R/O" not in text
        assert hidden.status_code == 404 and hidden["Content-Type"] == "application/problem+json"
        assert missing.status_code == 404

    def test_the_season_pdfs(self, world, filed):
        standings = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/standings.pdf")
        summary = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/summary.pdf")
        missing = client(world.users["p1"]).get("/api/v1/seasons/99999/standings.pdf")
        anonymous = client().get(f"/api/v1/seasons/{world.season.pk}/standings.pdf")

        text, _ = pdf_text(standings)
        assert standings.status_code == 200 and all(f"p{i}" in text for i in range(1, 7))
        assert "Leader" in pdf_text(summary)[0]
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        assert anonymous.status_code == 401
        # found by fuzzing: a format no renderer has is a 404 problem in JSON, not the problem's keys "as PDF"
        unknown = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/standings.pdf?format=nope")
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"


# --- PDFs -------------------------------------------------------------------------------------------------


def test_a_new_matchs_sheet_is_blank(world):
    match = season_match(world, ("p1", "p2", "p3", "p4"), first_dealer="S")

    text, pages = pdf_text(client(world.users["sam"]).get(f"/api/v1/matches/{match.pk}/sheet.pdf"))

    # issue 23, item 4: the table's sheet (the tally's columns, each deal's dealer) and its continuation
    assert pages == 2 and "R/O" in text and "First dealer: S" in text and "continuation sheet" in text
    assert "N: p1" in text and "W: p4" in text and "KW" in text
