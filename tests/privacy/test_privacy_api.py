"""Issue 28: the privacy endpoints — who may erase or export whom, what the export holds, and
the refusals as problem+json with nothing stored."""

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase
from support import api_client
from support.once import fresh, fresh_world, once_per_module
from support.privacy_world import club_with_zuzanna

from accounts.models import PrivacyRequest
from games.models import Match, Player
from scoring import services as leagues

PROBLEM = "application/problem+json"


# The club and its matches are built once for the module (each test's changes are rolled back).
built = once_per_module(lambda: club_with_zuzanna(get_user_model(), TestCase.captureOnCommitCallbacks, matches=3))


@pytest.fixture
def club(built):
    world, filed = built
    return fresh_world(world), [fresh(match) for match in filed]


def _zuzanna(world) -> Player:
    return Player.objects.get(user=world.users["zuzanna"])


def _erase(user, player, confirm):
    return api_client(user).post(f"/api/v1/players/{player.pk}/erasure/", {"confirm": confirm}, format="json")


@pytest.mark.django_db
def test_a_member_cannot_erase_or_export_another_member(club):
    world, _ = club
    for response in (
        _erase(world.users["p2"], _zuzanna(world), "zuzanna"),
        api_client(world.users["p2"]).get(f"/api/v1/players/{_zuzanna(world).pk}/data/"),
    ):
        assert response.status_code == 404 and response["Content-Type"] == PROBLEM
    assert _zuzanna(world).username == "zuzanna" and not PrivacyRequest.objects.exists()


@pytest.mark.django_db
def test_nobody_erases_another_clubs_member(club, django_user_model):
    world, _ = club
    other = django_user_model.objects.create_user("olga")
    leagues.club_create(actor=other, name="Inny Klub", slug="ik")
    response = _erase(other, _zuzanna(world), "zuzanna")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert _zuzanna(world).username == "zuzanna"


@pytest.mark.django_db
def test_a_club_admin_is_not_erased_by_another_admin(club):
    world, _ = club
    leagues.membership_set(actor=world.users["ada"], club_id=world.club.pk, username="p2", role="admin")
    response = _erase(world.users["ada"], Player.objects.get(user=world.users["p2"]), "p2")
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"


@pytest.mark.django_db
def test_the_admin_erases_a_member_after_naming_him(club):
    world, _ = club
    wrong = _erase(world.users["ada"], _zuzanna(world), "Zuzanna K.")
    assert wrong.status_code == 400 and wrong.json()["field"] == "confirm"
    assert not PrivacyRequest.objects.exists()

    response = _erase(world.users["ada"], _zuzanna(world), "zuzanna")

    assert response.status_code == 200 and response.json() == {"status": "erased", "erased_number": 1}
    assert Player.objects.get(erased_number=1).username == "erased player #1"
    logged = PrivacyRequest.objects.get()
    assert (logged.kind, logged.by, logged.by_role) == ("erasure", world.users["ada"], "admin")


@pytest.mark.django_db
def test_a_person_in_an_unfinished_match_is_not_erased(club):
    world, filed = club
    Match.objects.filter(pk=filed[0].pk).update(status=Match.Status.IN_PROGRESS)
    zuzanna = world.users["zuzanna"]
    response = api_client(zuzanna).post("/api/v1/me/erasure/", {"confirm": "zuzanna"}, format="json")
    assert response.status_code == 409 and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "person_in_unfinished_match"
    assert response.json()["matches"] == [str(filed[0].pk)]
    assert _zuzanna(world).username == "zuzanna" and not PrivacyRequest.objects.exists()


@pytest.mark.django_db
def test_a_person_erases_himself_and_is_signed_out_for_good(club, client):
    world, _ = club
    zuzanna = world.users["zuzanna"]
    client.force_login(zuzanna)
    response = client.post("/api/v1/me/erasure/", {"confirm": "zuzanna"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["erased_number"] == 1
    assert client.get("/api/v1/me/data/").status_code in (401, 403)
    assert PrivacyRequest.objects.get().by_role == "self"


@pytest.mark.django_db
def test_the_personal_export_holds_the_account_the_clubs_and_every_match_as_a_record(club):
    world, filed = club
    response = api_client(world.users["zuzanna"]).get("/api/v1/me/data/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = response.json()
    assert data["format"] == "kierki-personal-data/1"
    assert data["account"]["email"] == "zuzanna@example.org" and data["account"]["last_name"] == "Kowalska"
    assert data["player"]["name"] == "zuzanna" and data["player"]["public_id"] == _zuzanna(world).public_id
    assert [c["club"] for c in data["clubs"]] == ["Klub Kierkowy"]
    assert sorted(m["id"] for m in data["matches"]) == sorted(str(m.pk) for m in filed)
    for shown in data["matches"]:
        record = shown["record"]
        assert record["format"] == "kierki-match/1" and record["players"][shown["seat"]] == "zuzanna"
        assert len(record["deals"]) > 0
    assert {row["season"] for row in data["standings"]} == {world.season.name}
    assert data["privacy_log"] == [{"kind": "export", "by_role": "self", "at": data["privacy_log"][0]["at"]}]


@pytest.mark.django_db
def test_the_club_admin_exports_a_members_data(club):
    world, _ = club
    response = api_client(world.users["ada"]).get(f"/api/v1/players/{_zuzanna(world).pk}/data/")
    assert response.status_code == 200 and response.json()["account"]["username"] == "zuzanna"
    logged = PrivacyRequest.objects.get()
    assert (logged.kind, logged.by_role, logged.club_id) == ("export", "admin", world.club.pk)
