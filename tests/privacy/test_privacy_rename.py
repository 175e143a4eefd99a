"""A wrong display name corrected (GDPR/RODO Art. 16, docs/privacy.md): a club admin renames a
member without an account whom he added by name; the member's results show the new name in every
match, record and standing, the log's hashes stay as they were (it names him by id; an old event
that named him by name is sealed), and the rename is in the privacy log. A name already taken, a
member with an account, anyone but the member's club admin or staff, and a member in a match in
progress are refused, with nothing changed. The page: tests/web/test_web_member_name.py."""

import json
from pathlib import Path

import pytest
from support import api_client
from support.privacy_world import GUEST, club_with_guest, store_legacy_log, traces_in_database

from accounts.erasure import InUnfinishedMatch
from accounts.models import PrivacyRequest
from accounts.rectification import player_rename
from games.domain.exceptions import InvalidInput, NotAllowed, NotFound
from games.domain.roles import Role
from games.models import EventSeal, Match, MatchEvent, Player
from games.read import audit
from games.read.record import match_record
from games.write import services as games
from games.write.checkpointing import checkpoint_take, current_heads
from scoring import services as leagues
from scoring.invitations import invitation_claim, invitation_create
from scoring.printouts import standing_dicts

pytestmark = pytest.mark.django_db

WRONG, RIGHT = GUEST, "Jan Kowalski"


@pytest.fixture
def club(django_user_model, django_capture_on_commit_callbacks):
    return club_with_guest(django_user_model, django_capture_on_commit_callbacks)


def hashes() -> list[str]:
    return list(MatchEvent.objects.order_by("match_id", "seq").values_list("hash", flat=True))


def test_the_admin_corrects_a_name_and_every_result_shows_it(club, django_capture_on_commit_callbacks):
    world, jan = club
    before = hashes()

    with django_capture_on_commit_callbacks(execute=True):
        player_rename(actor=world.users["ada"], player=jan, name=f"  {RIGHT} ")

    jan.refresh_from_db()
    assert jan.username == RIGHT and hashes() == before
    for match in Match.objects.all():
        assert match_record(match=match, viewer=Role(Role.ARBITER))["players"]["N"] == RIGHT
        assert audit.chain_check(match).ok
    assert RIGHT in [row["player"] for row in standing_dicts(world.season)]
    logged = PrivacyRequest.objects.get(kind=PrivacyRequest.Kind.RENAME)
    assert (logged.subject, logged.by, logged.by_role, logged.club_id) == (
        jan.public_id,
        world.users["ada"],
        "admin",
        world.club.pk,
    )
    assert traces_in_database((WRONG.lower(),)) == []


@pytest.mark.parametrize("taken", ["p2", "outsider"])  # another profile's name; an account's username
def test_a_name_that_is_taken_is_refused_and_nothing_changes(club, taken):
    world, jan = club

    with pytest.raises(InvalidInput) as refused:
        player_rename(actor=world.users["ada"], player=jan, name=taken)

    assert refused.value.field == "name"
    jan.refresh_from_db()
    assert jan.username == WRONG and not PrivacyRequest.objects.exists()


def test_a_member_named_by_his_username_keeps_the_name_he_signs_in_with(club):
    world, _ = club

    with pytest.raises(NotAllowed):
        player_rename(actor=world.users["ada"], player=Player.objects.get(username="p2"), name="Piotr")

    assert Player.objects.filter(username="p2").exists()


@pytest.mark.parametrize("who", ["p2", "sam", "outsider"])  # a member, the scorer, someone of no club
def test_only_the_members_club_admin_or_staff_renames(club, who):
    world, jan = club

    with pytest.raises(NotFound):
        player_rename(actor=world.users[who], player=jan, name=RIGHT)

    player_rename(actor=world.users["staff"], player=jan, name=RIGHT)
    jan.refresh_from_db()
    assert jan.username == RIGHT


def test_a_member_in_a_match_in_progress_is_renamed_once_it_ends(club, django_capture_on_commit_callbacks):
    world, jan = club
    seats = dict(zip("NESW", (WRONG, "p2", "p3", "p4")))
    with django_capture_on_commit_callbacks(execute=True):
        match = leagues.season_match_create(
            actor=world.users["sam"], season_id=world.season.pk, seats=seats, first_dealer="N"
        )

    with pytest.raises(InUnfinishedMatch):
        player_rename(actor=world.users["ada"], player=jan, name=RIGHT)
    jan.refresh_from_db()
    assert jan.username == WRONG

    with django_capture_on_commit_callbacks(execute=True):
        games.match_abandon(match_id=match.pk, actor=world.users["staff"], reason="pomyłka")
    player_rename(actor=world.users["ada"], player=jan, name=RIGHT)
    jan.refresh_from_db()
    assert jan.username == RIGHT


LOG = json.loads((Path(__file__).resolve().parents[1] / "data" / "event_log_v1.json").read_text())
FINISHED = next(m for m in LOG["matches"] if m["status"] == "finished")
SOUTH = "p800005-S"  # seated South in a log written before people were named by id; no account


def test_an_old_log_that_named_him_by_name_is_sealed_and_every_hash_and_checkpoint_stays(django_user_model):
    match = store_legacy_log(FINISHED)
    staff = django_user_model.objects.create_user("sekretarz", is_staff=True)
    taken = checkpoint_take()
    before = hashes()

    player_rename(actor=staff, player=Player.objects.get(username=SOUTH), name="Stanisław")

    assert hashes() == before and current_heads() == taken.heads
    assert audit.audit_report(match)["ok"]
    naming = [e["seq"] for e in FINISHED["events"] if SOUTH in json.dumps(e["payload"]) or e["actor"] == SOUTH]
    assert sorted(EventSeal.objects.filter(match=match).values_list("seq", flat=True)) == naming
    record = match_record(match=Match.objects.get(pk=match.pk), viewer=Role(Role.ARBITER))
    assert record["players"]["S"] == "Stanisław"
    assert traces_in_database((SOUTH.lower(),)) == []


PROBLEM = "application/problem+json"


def rename_api(user, player, name):
    return api_client(user).post(f"/api/v1/players/{player.pk}/name/", {"name": name}, format="json")


def test_the_api_corrects_the_name_and_answers_it(club):
    world, jan = club

    response = rename_api(world.users["ada"], jan, RIGHT)

    assert response.status_code == 200 and response.json() == {"id": jan.pk, "name": RIGHT}
    assert api_client(world.users["ada"]).get(f"/api/v1/players/{jan.pk}/").json()["username"] == RIGHT


@pytest.mark.parametrize(
    ("who", "name", "status", "code"),
    [
        ("ada", "p2", 400, "invalid"),  # taken
        ("ada", "", 400, "invalid"),
        ("ada", None, 400, "invalid"),
        ("ada", "erased player #1", 400, "invalid"),  # it would read as an erased person
        ("p2", RIGHT, 404, "not_found"),  # a member is not the admin
    ],
)
def test_the_api_refuses_as_problem_json_and_changes_nothing(club, who, name, status, code):
    world, jan = club

    response = rename_api(world.users[who], jan, name)

    assert response.status_code == status and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == code and response.json().get("field") == ("name" if status == 400 else None)
    jan.refresh_from_db()
    assert jan.username == WRONG and not PrivacyRequest.objects.exists()


def claimed(world, jan):
    """``jan`` claims his profile through an invitation, under the username ``jkowal``."""
    _, token = invitation_create(actor=world.users["ada"], club_id=world.club.pk, player_id=jan.pk)
    return invitation_claim(token=token, username="jkowal", password="a-long-pass-phrase-2026").claimed_by


def test_the_display_name_of_a_member_who_claimed_his_profile_is_corrected_by_the_admin_not_by_himself(club):
    world, jan = club
    jkowal = claimed(world, jan)

    assert rename_api(jkowal, jan, "Jan K.").status_code == 403  # his own: the club's admin corrects it
    response = rename_api(world.users["ada"], jan, RIGHT)

    assert response.status_code == 200 and response.json()["name"] == RIGHT
    jan.refresh_from_db()
    jkowal.refresh_from_db()
    assert (jan.username, jan.user, jkowal.username) == (RIGHT, jkowal, "jkowal")
    assert rename_api(world.users["ada"], jan, "jkowal").status_code == 200  # his own username is his to take


def test_the_admin_renames_with_his_sign_in_token_as_the_readme_shows(club):
    """(No app token reaches it: tests/api/test_api_oauth_scopes.py, NO_SCOPE_ON_PURPOSE.)"""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    world, jan = club
    signed_in = APIClient()
    signed_in.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=world.users['ada']).key}")

    answered = signed_in.post(f"/api/v1/players/{jan.pk}/name/", {"name": RIGHT}, format="json")

    assert answered.status_code == 200 and answered.json() == {"id": jan.pk, "name": RIGHT}
