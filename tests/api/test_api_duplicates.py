"""Issue 13: one sheet filed twice is one match. A record whose players and deals equal a stored
match is refused with 409 ``duplicate_record`` naming it (nothing stored), unless
``?allow_duplicate=true``; the standings count it once."""

import random

import pytest
from api_helpers import PROBLEM, api_people, fresh_users, sample, seats_accepted
from support.once import once_per_module

from games.engine import Ruleset
from games.engine.simulate import simulate_match
from games.models import Match, MatchEvent, Player
from scoring import services as scoring
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


IMPORT = "/api/v1/matches/import/"


def _stored() -> tuple[int, int, int]:
    return Match.objects.count(), MatchEvent.objects.count(), Player.objects.count()


def test_importing_the_same_record_twice_answers_409_naming_the_first_and_stores_nothing(clients):
    first = clients["scorer"].post(IMPORT, sample("m5-legal"), format="json")
    assert first.status_code == 201
    before = _stored()

    again = clients["scorer"].post(IMPORT, sample("m5-legal"), format="json")

    assert again.status_code == 409
    assert again["Content-Type"] == PROBLEM
    body = again.json()
    assert body["code"] == "duplicate_record" and body["type"] == "/api/v1/problems/duplicate_record/"
    assert body["match"] == first.json()["id"]
    assert _stored() == before


def test_the_order_of_cards_within_a_hand_does_not_make_another_match(clients):
    record = sample("m5-legal")
    assert clients["scorer"].post(IMPORT, record, format="json").status_code == 201
    for deal in record["deals"]:
        for seat in deal["hands"]:
            deal["hands"][seat] = list(reversed(deal["hands"][seat]))

    assert clients["scorer"].post(IMPORT, record, format="json").status_code == 409


def test_other_players_or_other_deals_are_another_match(clients):
    record = sample("m5-legal")
    assert clients["scorer"].post(IMPORT, record, format="json").status_code == 201

    renamed = {**record, "players": {**record["players"], "N": "someone else"}}
    shorter = {**record, "deals": record["deals"][:-1]}

    assert clients["scorer"].post(IMPORT, renamed, format="json").status_code == 201
    assert clients["scorer"].post(IMPORT, shorter, format="json").status_code == 201


def test_allow_duplicate_files_it_again_on_purpose(clients):
    assert clients["scorer"].post(IMPORT, sample("m5-legal"), format="json").status_code == 201

    again = clients["scorer"].post(f"{IMPORT}?allow_duplicate=true", sample("m5-legal"), format="json")

    assert again.status_code == 201
    assert Match.objects.filter(fingerprint__isnull=False).count() == 2


def test_allow_duplicate_must_be_a_boolean(clients):
    response = clients["scorer"].post(f"{IMPORT}?allow_duplicate=perhaps", sample("m5-legal"), format="json")

    assert response.status_code == 400
    assert response.json()["field"] == "allow_duplicate"
    assert Match.objects.filter(fingerprint__isnull=False).count() == 0


def test_a_retry_with_the_same_idempotency_key_replays_the_first_answer_not_409(clients):
    first = clients["scorer"].post(IMPORT, sample("m5-legal"), format="json", headers={"Idempotency-Key": "k1"})

    retry = clients["scorer"].post(IMPORT, sample("m5-legal"), format="json", headers={"Idempotency-Key": "k1"})

    assert retry.status_code == 201 and retry.json()["id"] == first.json()["id"]


def test_a_match_filed_card_by_card_is_caught_when_its_record_is_imported_afterwards(clients):
    record = simulate_match(
        random.Random(7),
        players={"N": "ala", "E": "bartek", "S": "celina", "W": "darek"},
        ruleset=Ruleset.from_options({}),
    )
    created = (
        clients["scorer"]
        .post(
            "/api/v1/matches/",
            {"seats": record["players"], "first_dealer": record["first_dealer"], "dealing": "recorded"},
            format="json",
        )
        .json()
    )
    seats_accepted(created["id"])
    for deal in record["deals"]:
        assert (
            clients["scorer"]
            .post(f"/api/v1/matches/{created['id']}/deals/", {"hands": deal["hands"]}, format="json")
            .status_code
            == 201
        )
        if "sale" in deal:
            offer = (
                clients["scorer"]
                .post(
                    f"/api/v1/matches/{created['id']}/lead-offers/",
                    {"price": deal["sale"]["price"], "seat": deal["sale"]["buyer"]},
                    format="json",
                )
                .json()
            )
            clients["scorer"].post(
                f"/api/v1/matches/{created['id']}/lead-decision/", {"offer": offer["events"][0]["seq"]}, format="json"
            )
        for card in deal["plays"]:
            assert (
                clients["scorer"]
                .post(f"/api/v1/matches/{created['id']}/plays/", {"card": card}, format="json")
                .status_code
                == 201
            )
    assert Match.objects.get(pk=created["id"]).status == "finished"

    response = clients["scorer"].post(IMPORT, record, format="json")

    assert response.status_code == 409 and response.json()["match"] == created["id"]


@pytest.fixture
def season(users, django_user_model):
    """A club (admin ``staff``) whose members are the four players of the samples' records."""
    admin = users["staff"]
    club = scoring.club_create(actor=admin, name="Klub", slug="klub")
    record = sample("m5-legal")
    for name in record["players"].values():
        user = django_user_model.objects.get_or_create(username=name)[0]
        scoring.membership_set(actor=admin, club_id=club.pk, username=user.username)
    scoring.membership_set(actor=admin, club_id=club.pk, username="scorer", role="scorer")
    league = scoring.league_create(actor=admin, club_id=club.pk, name="Liga")
    return scoring.season_create(actor=admin, league_id=league.pk, name="2026")


def test_a_season_counts_a_sheet_filed_twice_once(clients, season, django_capture_on_commit_callbacks):
    url = f"{IMPORT}?season={season.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        assert clients["scorer"].post(url, sample("m5-legal"), format="json").status_code == 201
        again = clients["scorer"].post(url, sample("m5-legal"), format="json")

    assert again.status_code == 409
    rows = StandingRow.objects.filter(season=season)
    assert rows.count() == 4 and all(row.matches == 1 for row in rows)
