"""Issue 30, finding 8 (part): anyone could seat any users in a match outside a season and record
it for them. A user seated by someone else accepts his seat first: until then nobody — the
match's scorer included — plays, deals or files for it in his place (he may act for it himself:
acting is consenting), so the match cannot be recorded for him, end, or count."""

import pytest
from api_helpers import api_people, create_match, fresh_users, once_per_module, post, sample, seats_accepted, state
from support import api_client

from games.models import MatchEvent
from scoring.models import SeatInvitation

pytestmark = pytest.mark.django_db

built = once_per_module(api_people)


@pytest.fixture
def users(built):
    return fresh_users(built)


HANDS = sample("m1-legal")["deals"][0]["hands"]


def seat_invitations(client) -> list[dict]:
    response = client.get("/api/v1/seat-invitations/")
    assert response.status_code == 200
    return response.json()


def test_a_scorer_records_nothing_for_seats_their_users_have_not_accepted(clients):
    match_id = create_match(clients["scorer"], "recorded").json()["id"]
    invited = seat_invitations(clients["ala"])

    refused = post(clients["scorer"], match_id, "deals", {"hands": HANDS})
    tally = post(clients["scorer"], match_id, "tallies", {"points": {"N": 0, "E": 0, "S": 0, "W": 0}})

    assert [(row["match"], row["seat"], row["status"]) for row in invited] == [(match_id, "N", "pending")]
    assert refused.status_code == tally.status_code == 403
    assert refused.json()["code"] == "not_allowed" and "N" in refused.json()["detail"]
    assert not MatchEvent.objects.filter(match_id=match_id).exclude(type="match_created").exists()


def test_once_every_seated_user_accepts_the_scorer_records_the_match(clients):
    match_id = create_match(clients["scorer"], "recorded").json()["id"]
    for name in ("ala", "bartek", "celina"):
        row = seat_invitations(clients[name])[0]
        accepted = clients[name].post(f"/api/v1/seat-invitations/{row['id']}/accept/")
        assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"

    still = post(clients["scorer"], match_id, "deals", {"hands": HANDS})  # darek has not
    seats_accepted(match_id)
    dealt = post(clients["scorer"], match_id, "deals", {"hands": HANDS})

    assert still.status_code == 403 and "W" in still.json()["detail"]
    assert dealt.status_code == 201
    assert seat_invitations(clients["darek"]) == []


def test_a_seated_player_plays_his_own_cards_without_accepting_but_the_scorer_not_for_him(clients):
    match_id = create_match(clients["scorer"], "server", scorer="scorer").json()["id"]
    assert post(clients["ala"], match_id, "deals").status_code == 201  # the server deals: nobody's cards filed
    card = state(clients["bartek"], match_id)["deal"]["legal_cards"][0]  # E leads

    by_scorer = post(clients["scorer"], match_id, "plays", {"card": card, "seat": "E"})
    by_himself = post(clients["bartek"], match_id, "plays", {"card": card})

    assert by_scorer.status_code == 403
    assert by_himself.status_code == 201


def test_the_creator_seated_himself_consents_by_creating(clients, users):
    body = {"seats": {"N": "ala", "E": "o1", "S": "o2", "W": "o3"}, "first_dealer": "N"}

    created = clients["ala"].post("/api/v1/matches/", body, format="json")

    assert created.status_code == 201
    seats = set(SeatInvitation.objects.filter(match_id=created.json()["id"]).values_list("seat", flat=True))
    assert seats == {"E", "S", "W"}


def test_only_the_seated_user_answers_and_a_declined_seat_stays_his(clients):
    match_id = create_match(clients["scorer"], "recorded").json()["id"]
    row = seat_invitations(clients["ala"])[0]
    path = f"/api/v1/seat-invitations/{row['id']}"

    by_scorer = clients["scorer"].post(f"{path}/accept/")
    declined = clients["ala"].post(f"{path}/decline/")
    again = clients["ala"].post(f"{path}/accept/")
    seats_accepted(match_id)  # the three others
    refused = post(clients["scorer"], match_id, "deals", {"hands": HANDS})

    assert by_scorer.status_code == 404
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert again.status_code == 409 and again.json()["code"] == "invitation_used"
    assert refused.status_code == 403


def test_the_invitations_page_accepts_a_seat(clients, users, client):
    match_id = create_match(clients["scorer"], "recorded").json()["id"]
    invitation = SeatInvitation.objects.get(match_id=match_id, seat="N")
    client.force_login(users["ala"])

    listed = client.get("/invitations/")
    accepted = client.post("/invitations/", {"kind": "seat", "invitation": invitation.pk, "answer": "accept"})

    assert listed.status_code == 200 and match_id in listed.content.decode()
    assert accepted.status_code == 200
    assert SeatInvitation.objects.get(pk=invitation.pk).accepted_at is not None
    assert api_client(users["ala"]).get("/api/v1/seat-invitations/").json() == []
