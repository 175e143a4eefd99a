"""GET /api/v1/matches/{id}/events/?after=N&wait=S: the long-poll fallback of the streams."""

import time

import pytest
from django.test import Client
from live_helpers import Background, get, wait_until
from support.world import state_of

from api import streams
from games.models import Match
from games.write import services


def events_url(server, match, query: str) -> str:
    return f"{server.url}/api/v1/matches/{match.pk}/events/?{query}"


# A loaded machine makes everything slower: the tests wait on conditions (the server's long poll
# subscribed, a thread's answer), and bound times only against the 20-30 s a poll would wait.
ANSWERED_AT_ONCE = 10  # seconds: well under the wait asked for


def answer_once_dealt(match, url: str, token: str, dealer) -> tuple:
    """The answer of a long poll of ``url`` (after version 1) sent, seen waiting by the server, then
    woken by the first deal: it must come at once, not when its wait runs out."""
    poll = Background(lambda: get(url, token))
    wait_until(lambda: 1 in streams.waiting_versions(match.pk), what="the long poll waiting")
    assert not poll.done

    services.deal_start(match_id=match.pk, actor=dealer)
    appended = time.monotonic()
    answer = poll.result()
    assert time.monotonic() - appended < ANSWERED_AT_ONCE
    return answer


def test_a_long_poll_returns_as_soon_as_an_event_is_appended(asgi_server, server_match, user, token):
    match = server_match()

    status, headers, body = answer_once_dealt(
        match, events_url(asgi_server, match, "after=1&wait=30"), token("bartek"), user("ala")
    )

    assert status == 200
    assert [e["type"] for e in body["events"]] == ["deal_started"]
    assert body["version"] == 2 and headers["ETag"] == '"2"'


def test_with_nothing_new_it_answers_empty_after_wait_seconds(asgi_server, server_match, token):
    match = server_match()

    started = time.monotonic()
    status, headers, body = get(events_url(asgi_server, match, "after=1&wait=1"), token("ala"))
    elapsed = time.monotonic() - started

    assert status == 200 and body["events"] == [] and headers["ETag"] == '"1"'
    assert 0.9 < elapsed < ANSWERED_AT_ONCE


def test_it_does_not_wait_when_newer_events_exist_or_the_match_is_over(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))

    started = time.monotonic()
    behind = get(events_url(asgi_server, match, "after=0&wait=20"), token("ala"))
    services.match_abandon(match_id=match.pk, actor=user("ala"))
    over = get(events_url(asgi_server, match, "after=3&wait=20"), token("ala"))
    elapsed = time.monotonic() - started

    assert [e["seq"] for e in behind[2]["events"]] == [1, 2]
    assert over[0] == 200 and over[2]["events"] == []
    assert elapsed < ANSWERED_AT_ONCE


def test_errors_come_at_once_and_as_the_events_action_words_them(asgi_server, server_match, token):
    match = server_match()

    started = time.monotonic()
    too_long = get(events_url(asgi_server, match, "after=1&wait=31"), token("ala"))
    anonymous = get(events_url(asgi_server, match, "after=1&wait=20"))
    outsider = get(events_url(asgi_server, match, "after=1&wait=20"), token("outsider"))
    elapsed = time.monotonic() - started

    assert too_long[0] == 400 and too_long[2]["field"] == "wait"
    assert anonymous[0] == 401 and anonymous[2]["code"] == "not_authenticated"
    assert outsider[0] == 404 and outsider[2]["code"] == "not_found"
    assert elapsed < ANSWERED_AT_ONCE


def _wsgi_client(user) -> Client:
    client = Client()  # Django's test client: a WSGI request, as gunicorn's sync workers serve
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", ["events", "state"])
def test_under_wsgi_a_long_poll_answers_at_once_without_waiting_and_says_so(server_match, user, path):
    """Issue 30, finding 2: a long-poll sent to gunicorn held a sync worker for up to 30 s."""
    match = server_match()
    client = _wsgi_client(user("ala"))

    started = time.monotonic()
    response = client.get(f"/api/v1/matches/{match.pk}/{path}/", {"after": 1, "wait": 30})
    elapsed = time.monotonic() - started

    assert response.status_code == 200 and response.headers["ETag"] == '"1"'
    assert response.headers["Long-Poll"] == "unavailable"
    assert elapsed < ANSWERED_AT_ONCE  # it never waited the 30 s for a move that does not come
    if path == "events":
        assert response.json()["events"] == []


def test_under_wsgi_a_command_with_wait_answers_without_the_next_move(server_match, user):
    match = server_match()
    client = _wsgi_client(user("ala"))

    started = time.monotonic()
    response = client.post(f"/api/v1/matches/{match.pk}/deals/?wait=30", {}, content_type="application/json")
    elapsed = time.monotonic() - started

    assert response.status_code == 201, response.content
    assert response.json()["next_move"] is None and response.headers["Long-Poll"] == "unavailable"
    assert elapsed < ANSWERED_AT_ONCE


def test_without_wait_the_wsgi_answer_carries_no_long_poll_header(server_match, user):
    match = server_match()

    response = _wsgi_client(user("ala")).get(f"/api/v1/matches/{match.pk}/state/")

    assert response.status_code == 200 and "Long-Poll" not in response.headers


def test_under_asgi_a_long_poll_carries_no_long_poll_header(asgi_server, server_match, token):
    match = server_match()

    status, headers, _ = get(events_url(asgi_server, match, "after=1&wait=1"), token("ala"))

    assert status == 200 and "Long-Poll" not in headers


def test_the_state_long_polls_too_and_answers_the_state_once_the_match_moves(asgi_server, server_match, user, token):
    match = server_match()

    status, headers, body = answer_once_dealt(
        match, f"{asgi_server.url}/api/v1/matches/{match.pk}/state/?after=1&wait=30", token("bartek"), user("ala")
    )

    assert status == 200
    assert body["version"] == 2 and headers["ETag"] == '"2"'
    assert body["seat"] == "E" and len(body["deal"]["hand"]) == 13


def test_until_move_sleeps_through_the_others_cards_and_answers_on_the_players_turn(
    asgi_server, server_match, user, token
):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))  # E leads: then S, W, N
    version = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/", token("darek"))[2]["version"]  # W's view

    poll = Background(
        lambda: get(
            f"{asgi_server.url}/api/v1/matches/{match.pk}/state/?after={version}&wait=30&until=move", token("darek")
        )
    )
    wait_until(lambda: version in streams.waiting_versions(match.pk), what="the long poll waiting")
    play_on_turn(match, user("bartek"))  # E's card: not W's move, so the poll reads it and waits on
    wait_until(lambda: version + 1 in streams.waiting_versions(match.pk), what="the poll waiting past E's card")
    assert not poll.done
    play_on_turn(match, user("celina"))  # S's card: now W is on turn
    status, _, body = poll.result()

    assert status == 200 and body["version"] == version + 2
    assert body["deal"]["to_play"] == "W" and body["deal"]["legal_cards"]


def play_on_turn(match, actor) -> None:
    """``actor`` plays the first legal card of the seat on turn (his, in these tests)."""
    deal = state_of(match).deal
    services.card_play(match_id=match.pk, actor=actor, card=str(deal.legal_cards(deal.to_play)[0]))


def seat_on_turn(match) -> str:
    return state_of(match).deal.to_play.name


def post_json(url: str, body: dict, token: str) -> tuple[int, dict]:
    import json
    import urllib.request

    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=40) as response:
        return response.status, json.loads(response.read())


def test_a_command_with_wait_answers_the_actors_next_move_once_the_others_played(
    asgi_server, server_match, user, token
):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))  # E leads
    east = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/", token("bartek"))[2]

    post = Background(
        lambda: post_json(
            f"{asgi_server.url}/api/v1/matches/{match.pk}/plays/?wait=30",
            {"card": east["deal"]["legal_cards"][0]},
            token("bartek"),
        )
    )
    played = east["version"] + 1
    wait_until(lambda: played in streams.waiting_versions(match.pk), what="the command waiting for E's next move")
    players = {"N": user("ala"), "E": user("bartek"), "S": user("celina"), "W": user("darek")}
    while (seat := seat_on_turn(match)) != "E":  # S, W, N, and on while the trick's winner leads
        assert not post.done
        play_on_turn(match, players[seat])
    status, answer = post.result()

    assert status == 201 and answer["state"]["version"] == played
    move = answer["next_move"]
    assert move["seat"] == "E" and move["deal"]["to_play"] == "E" and move["deal"]["legal_cards"]
    assert move["version"] == Match.objects.get(pk=match.pk).version > played and move["deal"]["plays"] >= 4
