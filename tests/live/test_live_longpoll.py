"""GET /api/v1/matches/{id}/events/?after=N&wait=S: the long-poll fallback of the streams."""

import threading
import time

import pytest
from django.test import Client
from live_helpers import get

from games.write import services


def events_url(server, match, query: str) -> str:
    return f"{server.url}/api/v1/matches/{match.pk}/events/?{query}"


def test_a_long_poll_returns_as_soon_as_an_event_is_appended(asgi_server, server_match, user, token):
    match = server_match()
    threading.Timer(0.5, lambda: services.deal_start(match_id=match.pk, actor=user("ala"))).start()

    started = time.monotonic()
    status, headers, body = get(events_url(asgi_server, match, "after=1&wait=20"), token("bartek"))
    elapsed = time.monotonic() - started

    assert status == 200 and 0.4 < elapsed < 3
    assert [e["type"] for e in body["events"]] == ["deal_started"]
    assert body["version"] == 2 and headers["ETag"] == '"2"'


def test_with_nothing_new_it_answers_empty_after_wait_seconds(asgi_server, server_match, token):
    match = server_match()

    started = time.monotonic()
    status, headers, body = get(events_url(asgi_server, match, "after=1&wait=1"), token("ala"))
    elapsed = time.monotonic() - started

    assert status == 200 and body["events"] == [] and headers["ETag"] == '"1"'
    assert 0.9 < elapsed < 3


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
    assert elapsed < 3


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
    assert elapsed < 3


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
    response = client.get(f"/api/v1/matches/{match.pk}/{path}/", {"after": 1, "wait": 10})
    elapsed = time.monotonic() - started

    assert response.status_code == 200 and response.headers["ETag"] == '"1"'
    assert response.headers["Long-Poll"] == "unavailable"
    assert elapsed < 5  # it never waited the 10 s for a move that does not come
    if path == "events":
        assert response.json()["events"] == []


def test_under_wsgi_a_command_with_wait_answers_without_the_next_move(server_match, user):
    match = server_match()
    client = _wsgi_client(user("ala"))

    started = time.monotonic()
    response = client.post(f"/api/v1/matches/{match.pk}/deals/?wait=10", {}, content_type="application/json")
    elapsed = time.monotonic() - started

    assert response.status_code == 201, response.content
    assert response.json()["next_move"] is None and response.headers["Long-Poll"] == "unavailable"
    assert elapsed < 5


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
    threading.Timer(0.5, lambda: services.deal_start(match_id=match.pk, actor=user("ala"))).start()

    started = time.monotonic()
    status, headers, body = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/?after=1&wait=20", token("bartek"))
    elapsed = time.monotonic() - started

    assert status == 200 and 0.4 < elapsed < 3
    assert body["version"] == 2 and headers["ETag"] == '"2"'
    assert body["seat"] == "E" and len(body["deal"]["hand"]) == 13


def test_until_move_sleeps_through_the_others_cards_and_answers_on_the_players_turn(
    asgi_server, server_match, user, token
):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))  # E leads: then S, W, N
    view = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/", token("darek"))[2]  # W

    def east_then_south():
        for name in ("bartek", "celina"):
            time.sleep(0.3)
            seat_view = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/", token(name))[2]
            services.card_play(match_id=match.pk, actor=user(name), card=seat_view["deal"]["legal_cards"][0])

    threading.Thread(target=east_then_south).start()
    status, _, body = get(
        f"{asgi_server.url}/api/v1/matches/{match.pk}/state/?after={view['version']}&wait=20&until=move", token("darek")
    )

    assert status == 200 and body["version"] == view["version"] + 2
    assert body["deal"]["to_play"] == "W" and body["deal"]["legal_cards"]


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
    from games.engine.match import restore
    from games.models import MatchProjection

    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))  # E leads
    players = {"N": user("ala"), "E": user("bartek"), "S": user("celina"), "W": user("darek")}

    def the_others_until_east_is_on_turn():
        time.sleep(0.3)
        while True:
            deal = restore(MatchProjection.objects.get(pk=match.pk).snapshot).deal
            if deal.to_play.name == "E" and len(deal.plays) > 1:
                return
            if deal.to_play.name != "E":
                services.card_play(
                    match_id=match.pk, actor=players[deal.to_play.name], card=str(deal.legal_cards(deal.to_play)[0])
                )
            time.sleep(0.05)

    east = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/state/", token("bartek"))[2]
    threading.Thread(target=the_others_until_east_is_on_turn).start()
    status, answer = post_json(
        f"{asgi_server.url}/api/v1/matches/{match.pk}/plays/?wait=20",
        {"card": east["deal"]["legal_cards"][0]},
        token("bartek"),
    )

    assert status == 201 and answer["state"]["version"] == east["version"] + 1
    move = answer["next_move"]
    assert move["seat"] == "E" and move["deal"]["to_play"] == "E" and move["deal"]["legal_cards"]
    assert move["version"] > answer["version"] and move["deal"]["plays"] % 4 in (0, 1, 2, 3)
