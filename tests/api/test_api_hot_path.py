"""The card-play hot path (benchmarks/api_plays.py): its query budget, and what the shortcuts
taken for it must keep — the same responses, the same order of refusals. Plus the ping."""

import pytest
from api_helpers import PROBLEM, api_people, fresh_users, post, state, url
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from support.once import once_per_module
from support.world import legal_play

from api.serializers import CommandResultSerializer
from games.models import MatchProjection
from games.read import live
from games.write import states

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


DATA_STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


def _token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_ping_answers_an_authenticated_client_and_no_one_else(users):
    response = _token_client(users["ala"]).get("/api/v1/ping/")
    assert response.status_code == 200 and response.json() == {"ok": True}

    anonymous = APIClient().get("/api/v1/ping/")
    assert anonymous.status_code == 401 and anonymous["Content-Type"] == PROBLEM


def _a_play_with_token_if_match_and_key(dealt_match, clients, users) -> list[str]:
    bartek = _token_client(users["bartek"])  # E leads the first deal
    view = state(clients["bartek"], dealt_match)
    headers = {"If-Match": f'"{view["version"]}"', "Idempotency-Key": "hot-path"}

    with CaptureQueriesContext(connection) as queries:
        response = post(bartek, dealt_match, "plays", {"card": view["deal"]["legal_cards"][0]}, **headers)

    assert response.status_code == 201, response.content
    return [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(DATA_STATEMENTS)]


def test_a_card_play_costs_two_statements_on_postgresql_and_seven_on_sqlite_with_token_if_match_and_key(
    dealt_match, clients, users
):
    data = _a_play_with_token_if_match_and_key(dealt_match, clients, users)
    # On PostgreSQL this process kept the match as its last command (the deal) left it, so the
    # play is decided without the lock and its answer is rendered before anything is written:
    # the token (with the user and his player), then one data-modifying WITH that writes the
    # event, the match's version, the projection, the NOTIFY that wakes the live views of every
    # process and the Idempotency-Key with that answer — only if the match is still at that
    # version and the key is new (games.sql.events_append_unlocked, games.write.claims). It commits by
    # itself: no transaction around it. On SQLite the key is looked up, the match locked, the
    # append is three statements (no data-modifying WITH) and the key is stored, in one
    # transaction. Each statement is a round trip: fewer of them is the cheaper command of issue 16.
    postgresql = connection.vendor == "postgresql"
    assert len(data) == (2 if postgresql else 7), "\n".join(data)
    assert sum("pg_notify" in sql for sql in data) == live.notifying()
    if postgresql:
        append = data[1]
        assert "games_matchevent" in append and 'games_match"' in append and "games_idempotencykey" in append
        assert "FOR UPDATE" not in append
        assert not any("FOR UPDATE" in sql or "advisory" in sql for sql in data)  # no lock taken
    assert sum("games_player" in sql for sql in data) == 1  # read with the token, not on its own


def test_a_card_play_on_a_match_this_process_did_not_keep_locks_it_five_statements_on_postgresql(
    dealt_match, clients, users
):
    states.forget_all()  # as in a process that has not moved the match: the locked line

    data = _a_play_with_token_if_match_and_key(dealt_match, clients, users)

    # the token, the key (under its advisory lock), the match locked with its projection, the
    # append, the key stored: the claim of the optimistic branch was not taken and wrote nothing
    postgresql = connection.vendor == "postgresql"
    assert len(data) == (5 if postgresql else 7), "\n".join(data)
    if postgresql:
        assert sum("FOR UPDATE OF m, p" in sql for sql in data) == 1
        assert sum("games_matchevent" in sql and 'games_match"' in sql and "pg_notify" in sql for sql in data) == 1


def test_a_card_play_without_a_key_is_one_statement_after_the_token_on_postgresql(dealt_match, clients, users):
    bartek = _token_client(users["bartek"])
    view = state(clients["bartek"], dealt_match)

    with CaptureQueriesContext(connection) as queries:
        response = post(bartek, dealt_match, "plays", {"card": view["deal"]["legal_cards"][0]})

    assert response.status_code == 201, response.content
    data = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(DATA_STATEMENTS)]
    # the token, then the optimistic append, which commits by itself (no BEGIN, no COMMIT) outside
    # a test's transaction; SQLite: the token, the lock, the three writes of the append
    assert len(data) == (2 if connection.vendor == "postgresql" else 5), "\n".join(data)


def test_a_play_within_a_deal_keeps_the_stored_summary_and_the_last_card_rewrites_it(dealt_match, clients):
    summary = MatchProjection.objects.get(pk=dealt_match).summary
    seats = {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"}
    for _ in range(51):
        seat, card = legal_play(dealt_match)  # from the read model: no request
        assert post(clients[seats[seat]], dealt_match, "plays", {"card": card}).status_code == 201
        assert MatchProjection.objects.get(pk=dealt_match).summary == summary

    seat, card = legal_play(dealt_match)
    assert post(clients[seats[seat]], dealt_match, "plays", {"card": card}).status_code == 201
    after = MatchProjection.objects.get(pk=dealt_match).summary
    assert len(after["deals"]) == 1 and after["next_deal"]["number"] == 2


def test_command_responses_are_what_their_documented_serializer_gives(server_match, clients):
    dealt = post(clients["ala"], server_match, "deals")
    played = post(
        clients["bartek"],
        server_match,
        "plays",
        {"card": state(clients["bartek"], server_match)["deal"]["legal_cards"][0]},
    )

    for response in (dealt, played):
        assert response.status_code == 201, response.content
        assert response.json() == CommandResultSerializer(response.json()).data


@pytest.mark.parametrize("body, headers", [({"card": "ZZ"}, {}), ({}, {}), ({"card": "2C"}, {"If-Match": "seven"})])
def test_bad_input_from_an_outsider_is_404_and_from_a_player_400(dealt_match, clients, body, headers):
    outsider = post(clients["outsider"], dealt_match, "plays", body, **headers)
    player = post(clients["bartek"], dealt_match, "plays", body, **headers)

    assert outsider.status_code == 404 and outsider.json()["code"] == "not_found"
    assert player.status_code == 400 and player.json()["code"] == "invalid"


def test_a_lead_decision_naming_both_or_neither_is_404_for_an_outsider(dealt_match, clients):
    outsider = post(clients["outsider"], dealt_match, "lead-decision", {"offer": 3, "keep": True})
    player = post(clients["bartek"], dealt_match, "lead-decision", {"offer": 3, "keep": True})

    assert outsider.status_code == 404
    assert player.status_code == 400 and player.json()["field"] == "offer"
    assert clients["bartek"].get(url(dealt_match))["ETag"] == '"2"'  # nothing stored
