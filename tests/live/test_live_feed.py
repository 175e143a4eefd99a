"""GET /api/v1/me/stream/: a player's own feed — his matches starting, his turn, a lead offer
awaiting his decision, his matches ending — with MatchEvent primary keys as resumable ids."""

from live_helpers import PLAYERS, SEATS, SSE, get, lowest_to, play_out_deal

from games.models import MatchEvent
from games.write import services


def feed_url(server) -> str:
    return f"{server.url}/api/v1/me/stream/"


def event_pk(match, seq: int) -> str:
    return str(MatchEvent.objects.get(match=match, seq=seq).pk)


def test_on_connecting_a_player_learns_what_his_matches_expect_of_him_now(
    asgi_server, server_match, user, token, settings
):
    settings.LIVE_KEEPALIVE_SECONDS = 0.3
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))

    with SSE(feed_url(asgi_server), token("bartek")) as leader:
        turn = leader.events(1)[0]
    with SSE(feed_url(asgi_server), token("ala")) as waiting:
        waiting.frame()  # retry:
        idle = waiting.frame()

    assert (turn.event, turn.id) == ("your_turn", event_pk(match, 2))
    data = turn.json
    assert data["type"] == "your_turn" and data["match"] == str(match.pk) and data["seat"] == "E"
    assert data["deal"] == 1 and data["version"] == 2 and len(data["legal_cards"]) >= 1
    assert idle.comments == ["keep-alive"]


def test_a_new_match_and_then_his_turn_arrive_as_they_happen(asgi_server, server_match, user, token):
    with SSE(feed_url(asgi_server), token("bartek")) as feed:
        feed.frame()  # retry:
        match = server_match()
        started = feed.events(1)[0]
        services.deal_start(match_id=match.pk, actor=user("ala"))
        turn = feed.events(1)[0]

    assert (started.event, started.id, started.json["match"]) == ("match_started", event_pk(match, 1), str(match.pk))
    assert (turn.event, turn.id) == ("your_turn", event_pk(match, 2))


def test_a_lead_offer_awaits_the_holders_decision(asgi_server, server_match, user, token, monkeypatch):
    monkeypatch.setattr(services, "_shuffle", lowest_to("W"))  # darek takes no trick in deal 1
    match = server_match({"regular_deals": ["R", "O"]})
    services.deal_start(match_id=match.pk, actor=user("ala"))
    play_out_deal(match.pk, {seat: user(name) for seat, name in zip(SEATS, PLAYERS)})
    services.deal_start(match_id=match.pk, actor=user("ala"))  # the compensating odgrywka, darek to lead

    with SSE(feed_url(asgi_server), token("darek")) as feed:
        before = feed.events(1)[0]
        offered = services.lead_offer(match_id=match.pk, actor=user("celina"), price=2)
        decision = feed.events(1)[0]

    assert before.event == "your_turn" and before.json["can_sell"] is True and before.json["deal"] == 2
    assert decision.event == "lead_decision" and decision.id == str(offered.events[0].pk)
    assert decision.json["offers"] == [{"seq": offered.events[0].seq, "buyer": "S", "price": 2}]


def test_finished_matches_are_announced_and_replayed_after_last_event_id(asgi_server, server_match, user, token):
    first = server_match()
    seen = event_pk(first, 1)

    with SSE(feed_url(asgi_server), token("celina")) as feed:
        feed.frame()  # retry:
        services.match_abandon(match_id=first.pk, actor=user("ala"), reason="rain")
        finished = feed.events(1)[0]
    second = server_match()
    with SSE(feed_url(asgi_server), token("celina"), headers={"Last-Event-ID": seen}) as resumed:
        replayed = resumed.events(2)

    assert finished.event == "match_finished" and finished.id == event_pk(first, 2)
    assert finished.json["status"] == "abandoned" and finished.json["totals"] == {s: 0 for s in SEATS}
    assert [(f.event, f.id) for f in replayed] == [
        ("match_finished", event_pk(first, 2)),
        ("match_started", event_pk(second, 1)),
    ]


def test_the_feed_wants_a_user(asgi_server):
    status, headers, body = get(feed_url(asgi_server))

    assert status == 401 and body["code"] == "not_authenticated"


def test_a_repeated_notice_keeps_the_resume_point_where_it_was(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))  # bartek (E) on turn since event X
    later = server_match()  # and a match started after it

    with SSE(feed_url(asgi_server), token("bartek"), headers={"Last-Event-ID": event_pk(later, 1)}) as feed:
        turn = feed.events(1)[0]

    assert turn.event == "your_turn" and turn.json["match"] == str(match.pk)
    assert turn.json["id"] == int(event_pk(match, 2)) and turn.id == event_pk(later, 1)
