"""GET /api/v1/matches/{id}/audit/: who may see it, and tampering caught at the right seq."""

import pytest
from audit_helpers import PROBLEM, db_id, play_next_deal, server_deal_played, url, world_once
from support.event_table import json_param, tamperable
from support.once import fresh, fresh_world

from games.domain.chain import GENESIS, canonical_json, chain_hash, event_body
from games.models import Match, MatchEvent
from games.write import services as games

pytestmark = pytest.mark.django_db

T = MatchEvent.Type
SEQ = 10  # a card_played event inside the first deal (dealt at seq 2)


built = world_once((1, None))  # the world and one finished match, built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built[0])


@pytest.fixture
def finished(built):
    return fresh(built[1][0])


def audit(client, match):
    return client.get(url(match.pk, "audit"))


def _row(match, seq: int) -> MatchEvent:
    return MatchEvent.objects.get(match=match, seq=seq)


# --- who -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["staff", "ari", "ala", "darek"])
def test_staff_the_clubs_arbiter_and_the_seated_players_of_a_finished_match_get_the_audit(finished, clients, who):
    response = audit(clients[who], finished)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ok"] is True
    assert body["chain"] == {"ok": True, "first_bad_seq": None, "reason": None}
    assert body["rules"] == {"ok": True, "first_bad_seq": None, "error": None}
    assert body["commitments"] == {"ok": True, "first_bad_deal": None, "reason": None}
    assert [e["seq"] for e in body["events"]] == list(range(1, finished.version + 1))
    assert set(body["events"][0]) == {"seq", "type", "actor", "created_at", "payload", "hash"}
    assert response["ETag"] == f'"{finished.version}"'


def test_the_events_are_the_stored_log_unredacted_and_their_hashes_recompute(finished, clients):
    body = audit(clients["ari"], finished).json()

    previous = GENESIS
    for event in body["events"]:
        hashed = event_body(
            match_id=finished.pk,
            seq=event["seq"],
            type=event["type"],
            payload=event["payload"],
            actor=event["actor"],
            created_at=_row(finished, event["seq"]).created_at,
        )
        assert chain_hash(previous, hashed) == event["hash"]
        assert hashed["created_at"] == event["created_at"]
        previous = event["hash"]
    assert "hands" in body["events"][1]["payload"]


@pytest.mark.parametrize("who, status", [("sam", 403), ("member", 404), ("rival", 404), ("outsider", 404)])
def test_the_scorer_may_not_audit_and_outsiders_do_not_learn_the_match_exists(finished, clients, who, status):
    response = audit(clients[who], finished)

    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM


def test_players_may_audit_only_once_the_match_has_ended(season_match, clients, world):
    match = season_match(deals=1)
    assert match.status == Match.Status.IN_PROGRESS
    assert audit(clients["ala"], match).status_code == 403
    assert audit(clients["ari"], match).status_code == 200

    games.match_abandon(match_id=match.pk, actor=world.users["ala"], reason="rain")

    assert audit(clients["ala"], match).status_code == 200


def test_a_match_outside_any_season_has_staff_as_its_only_arbiters(world, clients, rng):
    match = games.match_create(
        actor=world.users["sam"],
        seats=dict(zip("NESW", ("ala", "bartek", "celina", "darek"))),
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": {"regular_deals": ["R"]}},
    )
    play_next_deal(match, world.users["sam"], rng, cards=4)

    assert audit(clients["staff"], match).status_code == 200
    assert audit(clients["ari"], match).status_code == 404
    assert audit(clients["bartek"], match).status_code == 403


def test_an_unknown_match_is_404(clients):
    assert clients["staff"].get(url("00000000-0000-4000-8000-000000000000", "audit")).status_code == 404
    assert clients["staff"].get(url("not-a-uuid", "audit")).status_code == 404


# --- tampering, each found at its seq ----------------------------------------------------------------------


def test_an_edited_payload_is_reported_at_its_seq_by_the_chain_and_the_rules(finished, clients):
    row = _row(finished, SEQ)
    assert row.type == T.CARD_PLAYED
    hands = _row(finished, 2).payload["hands"]
    elsewhere = next(cards for seat, cards in hands.items() if seat != row.payload["seat"])[0]
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "card": elsewhere}).decode(), row.pk],
        )

    body = audit(clients["staff"], finished).json()

    assert body["ok"] is False
    assert (body["chain"]["ok"], body["chain"]["first_bad_seq"]) == (False, SEQ)
    assert body["chain"]["reason"].startswith("hash mismatch")
    assert (body["rules"]["ok"], body["rules"]["first_bad_seq"]) == (False, SEQ)
    assert body["rules"]["error"]["play_index"] == SEQ - 3 and body["rules"]["error"]["deal"] == 1
    assert next(e for e in body["events"] if e["seq"] == SEQ)["payload"]["card"] == elsewhere


def test_a_deleted_event_is_reported_as_missing_at_its_seq(finished, clients):
    with tamperable() as cursor:
        cursor.execute("DELETE FROM games_matchevent WHERE id = %s", [_row(finished, SEQ).pk])

    chain = audit(clients["staff"], finished).json()["chain"]

    assert (chain["ok"], chain["first_bad_seq"]) == (False, SEQ)
    assert chain["reason"].startswith("missing event")


def test_two_events_swapped_are_reported_at_the_first(finished, clients):
    def set_seq(cursor, old, new):
        cursor.execute(
            "UPDATE games_matchevent SET seq = %s WHERE match_id = %s AND seq = %s", [new, db_id(finished), old]
        )

    with tamperable() as cursor:
        set_seq(cursor, SEQ, 1_000_000)
        set_seq(cursor, SEQ + 1, SEQ)
        set_seq(cursor, 1_000_000, SEQ + 1)

    chain = audit(clients["staff"], finished).json()["chain"]

    assert (chain["ok"], chain["first_bad_seq"]) == (False, SEQ)
    assert "out of order" in chain["reason"]


def test_a_forged_hash_is_reported_at_its_seq(finished, clients):
    with tamperable() as cursor:
        cursor.execute("UPDATE games_matchevent SET hash = %s WHERE id = %s", ["0" * 64, _row(finished, SEQ).pk])

    chain = audit(clients["staff"], finished).json()["chain"]

    assert (chain["ok"], chain["first_bad_seq"]) == (False, SEQ)
    assert chain["reason"].startswith("hash mismatch")


# --- commitments of server-dealt deals ----------------------------------------------------------------------


@pytest.fixture
def server_dealt(world):
    """A server-dealt season match scored by ``sam`` (not seated); its first deal played out."""
    match = server_deal_played(world)
    games.deal_start(match_id=match.pk, actor=world.users["sam"])  # deal 2 in play: committed, not revealed
    return Match.objects.get(pk=match.pk)


def test_a_server_dealt_match_passes_the_commitments_check(server_dealt, clients):
    body = audit(clients["ari"], server_dealt).json()

    assert body["commitments"] == {"ok": True, "first_bad_deal": None, "reason": None}
    assert body["ok"] is True
    assert all("hands" not in e["payload"] for e in body["events"] if e["type"] == T.DEAL_STARTED)


def test_revealed_hands_that_do_not_match_the_commitment_are_reported_with_the_deal(server_dealt, clients):
    row = MatchEvent.objects.get(match=server_dealt, type=T.HANDS_REVEALED)
    hands = {seat: list(cards) for seat, cards in row.payload["hands"].items()}
    hands["N"][0], hands["E"][0] = hands["E"][0], hands["N"][0]  # two cards moved between hands
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "hands": hands}).decode(), row.pk],
        )

    body = audit(clients["ari"], server_dealt).json()

    assert body["commitments"]["ok"] is False and body["commitments"]["first_bad_deal"] == 1
    assert "commitment" in body["commitments"]["reason"]
    assert body["chain"]["first_bad_seq"] == row.seq


def test_a_changed_salt_alone_breaks_the_commitment(server_dealt, clients):
    row = MatchEvent.objects.get(match=server_dealt, type=T.HANDS_REVEALED)
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "salt": "00" * 16}).decode(), row.pk],
        )

    commitments = audit(clients["staff"], server_dealt).json()["commitments"]

    assert (commitments["ok"], commitments["first_bad_deal"]) == (False, 1)
