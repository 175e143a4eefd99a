"""On PostgreSQL the live views hear of commands through ``NOTIFY`` (games.read.live.moved_notice,
api/streams.py's listener): a stream and a feed wake without waiting for the slow re-check, and
the re-check still delivers what a lost notification did not announce."""

import uuid

import pytest
from live_helpers import SSE

from games import sql
from games.engine import Seat
from games.read import live
from games.write import services

pytestmark = pytest.mark.postgres


def test_a_stream_and_a_feed_wake_on_the_notification_not_the_recheck(asgi_server, server_match, user, token, settings):
    settings.LIVE_RECHECK_SECONDS = 3600  # only a notification can wake them within the read timeout
    settings.LIVE_KEEPALIVE_SECONDS = 3600
    match = server_match()
    assert live.notifying()

    with (
        SSE(f"{asgi_server.url}/api/v1/matches/{match.pk}/stream/", token("celina"), timeout=20) as stream,
        SSE(f"{asgi_server.url}/api/v1/me/stream/", token("bartek"), timeout=20) as feed,
    ):
        assert stream.events(1)[0].event == "match_created"
        services.deal_start(match_id=match.pk, actor=user("ala"))
        dealt = stream.events(1)[0]
        turn = feed.events(1)[0]

    assert (dealt.id, dealt.event) == ("2", "deal_started")
    assert turn.event == "your_turn" and turn.json["match"] == str(match.pk)


def test_a_card_play_decided_without_the_lock_wakes_the_stream_too(
    asgi_server, server_match, user, token, settings, monkeypatch
):
    settings.LIVE_RECHECK_SECONDS = 3600  # only a notification can wake it within the read timeout
    settings.LIVE_KEEPALIVE_SECONDS = 3600
    match = server_match()
    written, unlocked = [], sql.events_append_unlocked

    def spied(*args, **kwargs):
        written.append(unlocked(*args, **kwargs))
        return written[-1]

    monkeypatch.setattr(sql, "events_append_unlocked", spied)

    with SSE(f"{asgi_server.url}/api/v1/matches/{match.pk}/stream/", token("celina"), timeout=20) as stream:
        assert stream.events(1)[0].event == "match_created"
        dealt = services.deal_start(match_id=match.pk, actor=user("ala"))
        assert stream.events(1)[0].event == "deal_started"
        card = str(dealt.state.deal.legal_cards(Seat.E)[0])
        services.card_play(match_id=match.pk, actor=user("bartek"), card=card)  # the optimistic branch
        played = stream.events(1)[0]

    assert written == [True]  # the play took the optimistic branch: its statement sent the notification
    assert (played.id, played.event) == ("3", "card_played")


def test_a_lost_notification_is_made_up_for_by_the_recheck(asgi_server, server_match, user, token, settings):
    settings.LIVE_RECHECK_SECONDS = 1
    settings.LIVE_KEEPALIVE_SECONDS = 3600
    match = server_match()

    with SSE(f"{asgi_server.url}/api/v1/matches/{match.pk}/stream/", token("celina"), timeout=20) as stream:
        assert stream.events(1)[0].event == "match_created"
        settings.LIVE_NOTIFY = False  # the command sends no notification; the stream's watch still listens
        services.deal_start(match_id=match.pk, actor=user("ala"))
        dealt = stream.events(1)[0]

    assert (dealt.id, dealt.event) == ("2", "deal_started")


def test_the_notification_names_the_match_and_its_seated_players():
    payload = live.moved_payload("0b0f5c8e-5d2a-4f59-9a0e-6f1c2d3e4f50", [3, 1, 4, 2])

    assert live.moved_parse(payload) == (uuid.UUID("0b0f5c8e-5d2a-4f59-9a0e-6f1c2d3e4f50"), frozenset({1, 2, 3, 4}))
