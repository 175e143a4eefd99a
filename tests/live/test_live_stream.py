"""GET /api/v1/matches/{id}/stream/: the match's events as Server-Sent Events, served by uvicorn."""

import json
import time
import urllib.error
import urllib.request

import pytest
from django.test import Client
from live_helpers import SSE, Background, get
from support import EXAMPLES

from games.models import MatchEvent
from games.write import services


def stream_url(server, match) -> str:
    return f"{server.url}/api/v1/matches/{match.pk}/stream/"


def test_the_stream_sends_each_event_as_events_shows_it_with_its_seq_and_type(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))
    _, _, listed = get(f"{asgi_server.url}/api/v1/matches/{match.pk}/events/", token("celina"))

    with SSE(stream_url(asgi_server, match), token("celina")) as sse:
        first = sse.frame()
        frames = sse.events(2)

    assert sse.status == 200 and sse.headers["Content-Type"] == "text/event-stream"
    assert sse.headers["Cache-Control"] == "no-cache" and sse.headers["X-Accel-Buffering"] == "no"
    assert first.retry == "3000"
    assert [(f.id, f.event) for f in frames] == [("1", "match_created"), ("2", "deal_started")]
    assert [f.json for f in frames] == listed["events"]


def test_the_v2_stream_sends_each_event_as_v2_events_shows_it_its_time_with_z(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))
    _, _, page = get(f"{asgi_server.url}/api/v2/matches/{match.pk}/events/", token("celina"))

    with SSE(f"{asgi_server.url}/api/v2/matches/{match.pk}/stream/", token("celina")) as sse:
        sse.frame()
        frames = sse.events(2)

    assert [f.json for f in frames] == page["results"]
    assert all(f.json["created_at"].endswith("Z") for f in frames)


def test_new_events_arrive_as_they_are_appended(asgi_server, server_match, user, token):
    match = server_match()

    with SSE(stream_url(asgi_server, match), token("bartek")) as sse:
        assert sse.events(1)[0].event == "match_created"
        started = time.monotonic()
        services.deal_start(match_id=match.pk, actor=user("ala"))
        dealt = sse.events(1)[0]
        latency = time.monotonic() - started

    assert (dealt.id, dealt.event) == ("2", "deal_started")
    assert latency < 2


def test_a_stream_resumes_after_last_event_id_from_the_database(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))
    services.card_play(match_id=match.pk, actor=user("bartek"), card=_first_legal(match, "E"))

    with SSE(stream_url(asgi_server, match), token("ala"), headers={"Last-Event-ID": "2"}) as resumed:
        after_header = resumed.events(1)
    with SSE(stream_url(asgi_server, match) + "?after=1", token("ala")) as from_query:
        after_query = from_query.events(2)

    assert [(f.id, f.event) for f in after_header] == [("3", "card_played")]
    assert [f.id for f in after_query] == ["2", "3"]


def test_a_player_gets_a_recorded_deal_in_play_redacted_and_the_scorer_does_not(asgi_server, recorded_match, token):
    with SSE(stream_url(asgi_server, recorded_match), token("ala")) as player:
        _, dealt = player.events(2)
    with SSE(stream_url(asgi_server, recorded_match), token("scorer")) as scorer:
        _, dealt_to_scorer = scorer.events(2)

    assert dealt.event == "deal_started"
    assert list(dealt.json["payload"]["hands"]) == ["N"]
    assert dealt.json["hash"] is None and dealt.json["redacted"] is True
    assert sorted(dealt_to_scorer.json["payload"]["hands"]) == ["E", "N", "S", "W"]
    assert dealt_to_scorer.json["redacted"] is False


def test_the_stream_ends_when_the_match_does_and_a_reconnect_then_gets_204(asgi_server, server_match, user, token):
    match = server_match()
    services.deal_start(match_id=match.pk, actor=user("ala"))

    def abandon_soon():
        time.sleep(0.2)
        return services.match_abandon(match_id=match.pk, actor=user("darek"), reason="rain")

    with SSE(stream_url(asgi_server, match), token("darek")) as sse:
        sse.events(2)
        abandoning = Background(abandon_soon)
        rest = [f for f in sse.rest() if f.data is not None]
    abandoning.result()
    with SSE(stream_url(asgi_server, match), token("darek"), headers={"Last-Event-ID": "3"}) as again:
        again_status = again.status

    assert [(f.id, f.event) for f in rest] == [("3", "match_abandoned"), (None, "end")]
    assert rest[-1].json == {"status": "abandoned", "version": 3}
    assert again_status == 204


def test_a_finished_match_streams_its_whole_log_then_closes(asgi_server, people, user, token):
    record = json.loads((EXAMPLES / "m1-legal.record.json").read_text())
    match = services.record_import(actor=user("staff"), record=record)

    with SSE(stream_url(asgi_server, match), token("staff")) as sse:
        frames = [f for f in sse.rest() if f.data is not None]

    count = MatchEvent.objects.filter(match=match).count()
    assert count > 400  # more than two reads' worth
    assert [int(f.id) for f in frames[:-1]] == list(range(1, count + 1))
    assert frames[-1].event == "end" and frames[-1].json == {"status": "finished", "version": count}


def test_keep_alive_comments_flow_while_nothing_happens(asgi_server, server_match, token, settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.3
    match = server_match()

    with SSE(stream_url(asgi_server, match), token("ala")) as sse:
        sse.events(1)
        started = time.monotonic()
        idle = [sse.frame(), sse.frame()]
        elapsed = time.monotonic() - started

    assert all(f.comments == ["keep-alive"] and f.data is None for f in idle)
    assert 0.4 < elapsed < 3


def test_the_stream_answers_as_events_does_to_strangers_and_bad_requests(asgi_server, server_match, token):
    match = server_match()
    url = stream_url(asgi_server, match)

    anonymous = get(url)
    bad_token = get(url, "0" * 40)
    outsider = get(url, token("outsider"))
    missing = get(f"{asgi_server.url}/api/v1/matches/00000000-0000-4000-8000-000000000000/stream/", token("ala"))
    bad_resume = get(url, token("ala"), {"Last-Event-ID": "seven"})

    assert anonymous[0] == 401 and anonymous[2]["code"] == "not_authenticated"
    assert anonymous[1]["WWW-Authenticate"] == "Token"
    assert anonymous[1]["Content-Type"] == "application/problem+json"
    assert bad_token[0] == 401 and bad_token[2]["code"] == "authentication_failed"
    assert outsider[0] == 404 and outsider[2]["code"] == "not_found"
    assert missing[0] == 404
    assert bad_resume[0] == 400 and bad_resume[2]["field"] == "Last-Event-ID"


def test_another_method_is_a_405_problem_not_a_csrf_page(asgi_server, server_match, token):
    for url in (stream_url(asgi_server, server_match()), f"{asgi_server.url}/api/v1/me/stream/"):
        request = urllib.request.Request(
            url,
            data=b"{}",
            method="POST",
            headers={"Authorization": f"Token {token('ala')}", "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)

        assert refused.value.code == 405 and refused.value.headers["Allow"] == "GET"
        assert refused.value.headers["Content-Type"] == "application/problem+json"
        assert json.loads(refused.value.read())["code"] == "method_not_allowed"


def test_a_session_authenticates_a_stream_too(asgi_server, server_match, user):
    match = server_match()
    browser = Client()
    browser.force_login(user("ala"))
    cookie = f"sessionid={browser.cookies['sessionid'].value}"

    with SSE(stream_url(asgi_server, match), headers={"Cookie": cookie}) as sse:
        frames = sse.events(1)

    assert sse.status == 200 and frames[0].event == "match_created"


def test_under_wsgi_a_stream_is_refused_with_501(server_match, user):
    match = server_match()
    client = Client()
    client.force_login(user("ala"))

    response = client.get(f"/api/v1/matches/{match.pk}/stream/")

    assert response.status_code == 501
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "streaming_unavailable"


def _first_legal(match, seat: str) -> str:
    from games.engine import Seat
    from games.engine.match import restore
    from games.models import MatchProjection

    deal = restore(MatchProjection.objects.get(pk=match.pk).snapshot).deal
    return str(deal.legal_cards(Seat[seat])[0])


def test_events_read_with_a_match_loaded_earlier_stop_at_its_version(people, user):
    """The race a stream (or events/) would otherwise lose: the match is read, then the scorer
    starts a recorded deal; the events read next must not include its unredacted hands."""
    from live_helpers import hands, new_recorded_match

    from games.read import selectors

    match = new_recorded_match(user("scorer"))
    loaded, viewer = selectors.match_get(match_id=match.pk, user=user("ala"))
    services.deal_start(match_id=match.pk, actor=user("scorer"), hands=hands(1))

    stale = selectors.match_events(match=loaded, viewer=viewer)["events"]
    fresh = selectors.match_events(
        **dict(zip(("match", "viewer"), selectors.match_get(match_id=match.pk, user=user("ala"))))
    )["events"]

    assert [e["seq"] for e in stale] == [1]
    assert [e["seq"] for e in fresh] == [1, 2] and list(fresh[1]["payload"]["hands"]) == ["N"]


def test_a_stream_outlives_the_body_read_limit(asgi_server, server_match, user, token, settings):
    """Issue 30: the ASGI body limit waits at most API_BODY_READ_SECONDS for a request body; once
    the (empty) body is in, a stream's wait for the client to leave is not limited."""
    settings.API_BODY_READ_SECONDS = 1
    match = server_match()

    with SSE(stream_url(asgi_server, match), token("bartek")) as sse:
        assert sse.events(1)[0].event == "match_created"
        time.sleep(2)  # past the body read limit
        services.deal_start(match_id=match.pk, actor=user("ala"))
        dealt = sse.events(1)[0]

    assert sse.status == 200 and (dealt.id, dealt.event) == ("2", "deal_started")
