"""Issue 28: erasing a member who played ten season matches. His results stay as
"erased player #N": the standings, the ratings and every audit are what they were, the chain of
every match verifies and the signed checkpoint taken before still does — while his name, e-mail
and account are gone from every table, the record export and the API."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase
from rest_framework.authtoken.models import Token
from support import api_client
from support.once import fresh, fresh_world, once_per_module
from support.privacy_world import club_with_zuzanna, traces_in_database
from support.world import ratings_of, standings_of

from accounts.erasure import person_erase
from accounts.models import PrivacyRequest
from games.domain import checkpoints
from games.models import Player
from games.read import audit
from games.write.checkpointing import checkpoint_take, current_heads

# The club and its matches are built once for the module (each test's changes are rolled back).
built = once_per_module(lambda: club_with_zuzanna(get_user_model(), TestCase.captureOnCommitCallbacks))


@pytest.fixture
def club(built):
    world, filed = built
    return fresh_world(world), [fresh(match) for match in filed]


def _audits(filed):
    return {match.pk: audit.audit_report(match) for match in filed}


@pytest.mark.django_db
def test_an_erased_member_leaves_his_results_and_audits_and_nothing_of_himself(club, settings):
    world, filed = club
    zuzanna = world.users["zuzanna"]
    Token.objects.create(user=zuzanna)
    before = {"standings": standings_of(world.season), "ratings": ratings_of(world.league), "audits": _audits(filed)}
    taken = checkpoint_take()
    assert traces_in_database()  # the search finds her before

    logged = person_erase(actor=world.users["ada"], player=Player.objects.get(user=zuzanna))

    assert traces_in_database() == []
    assert standings_of(world.season) == before["standings"]
    assert ratings_of(world.league) == before["ratings"]
    after = _audits(filed)
    assert after == before["audits"] and all(report["ok"] for report in after.values())
    assert current_heads() == taken.heads  # no event was added, removed or rehashed
    assert checkpoints.verify_checkpoint(taken.checkpoint, taken.heads).ok
    for match in filed:
        assert checkpoints.verify_log(str(match.pk), after[match.pk]["events"], taken.heads).ok
    assert (logged.kind, logged.by_role, logged.erased_number, logged.club_id) == ("erasure", "admin", 1, world.club.pk)
    assert PrivacyRequest.objects.get().subject == Player.objects.get(erased_number=1).public_id


@pytest.mark.django_db
def test_the_api_and_the_record_show_an_erased_player_by_his_number(club):
    world, filed = club
    person_erase(actor=world.users["ada"], player=Player.objects.get(user=world.users["zuzanna"]))
    client = api_client(world.users["arb"])  # the club's arbiter reads every match and its audit
    for match in filed:
        for path in ("", "record/", "events/", "audit/", "disputes/"):
            response = client.get(f"/api/v1/matches/{match.pk}/{path}")
            assert response.status_code == 200, (path, response.content)
            assert "zuzanna" not in response.content.decode().lower()
        record = client.get(f"/api/v1/matches/{match.pk}/record/").json()
        assert "erased player #1" in record["players"].values()
    standings = client.get(f"/api/v1/seasons/{world.season.pk}/standings/")
    assert standings.status_code == 200 and "zuzanna" not in json.dumps(standings.json()).lower()


@pytest.mark.django_db
def test_the_erased_account_cannot_sign_in_or_use_a_token(club):
    world, _ = club
    zuzanna = world.users["zuzanna"]
    token = Token.objects.create(user=zuzanna)
    person_erase(actor=zuzanna, player=Player.objects.get(user=zuzanna))
    zuzanna.refresh_from_db()
    assert not zuzanna.is_active and not zuzanna.has_usable_password() and zuzanna.email == ""
    assert not Token.objects.filter(pk=token.pk).exists()
    response = api_client(None).get("/api/v1/matches/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 401
