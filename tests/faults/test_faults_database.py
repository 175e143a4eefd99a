"""The database connection lost mid-request: the client gets 503 problem+json, no partial event
is stored, and the next request — the same one, with the same Idempotency-Key — succeeds.

A real HTTP server on PostgreSQL, serving every request from one thread as a gunicorn sync
worker does, so its database connection outlives a request (CONN_MAX_AGE) and the next request
finds the broken one; the request's own backend is killed with ``pg_terminate_backend`` from a
second connection.
"""

import json
import urllib.error
import urllib.request

import psycopg
import pytest
from django.conf import settings
from django.core.servers.basehttp import WSGIServer
from django.core.signals import request_finished
from django.db import connection
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler, _StaticFilesHandler
from faults_helpers import outbox_of, started_match
from rest_framework.authtoken.models import Token
from support import PROBLEM
from support.polling import wait_for

from games.models import IdempotencyKey, Match, MatchEvent
from games.write import commands

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class OneThreadServer(LiveServerThread):
    """Every request in the server's own thread (a gunicorn sync worker's life)."""

    def _create_server(self, connections_override=None):
        return WSGIServer((self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=False)


@pytest.fixture
def server(truncatable_events):
    thread = OneThreadServer("127.0.0.1", _StaticFilesHandler)
    thread.daemon = True
    thread.start()
    assert thread.is_ready.wait(10) and thread.error is None, thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()


@pytest.fixture
def killer():
    """A connection of its own that terminates another backend (and waits until it is gone)."""
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as conn:

        def kill(pid: int) -> None:
            assert conn.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()[0]

        yield kill


@pytest.fixture
def server_backends():
    """The backend pid of the server thread's connection after each request."""
    seen = []

    def record(**kwargs):
        if connection.connection is not None:
            seen.append(connection.connection.info.backend_pid)

    request_finished.connect(record, weak=False)
    yield seen
    request_finished.disconnect(record)


def call(method: str, url: str, token: str, body: dict | None = None, **headers) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def test_the_connection_lost_mid_play_is_503_with_no_partial_event_and_the_retry_succeeds(
    world, server, killer, monkeypatch
):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]
    match, last = started_match(world, seed=1)
    before = list(MatchEvent.objects.filter(match=match).values_list("seq", "hash"))
    token = Token.objects.create(user=world.users["sam"]).key
    real_commit, killed = commands._commit, []

    def commit_on_a_lost_connection(unit):  # the match row is locked, the events are not written yet
        if not killed:
            killed.append(connection.connection.info.backend_pid)
            killer(killed[0])
        return real_commit(unit)

    monkeypatch.setattr(commands, "_commit", commit_on_a_lost_connection)
    play = f"{server}/api/v1/matches/{match.pk}/plays/"

    status, headers, body = call("POST", play, token, {"card": last}, **{"Idempotency-Key": "last-card"})

    assert killed and status == 503, body
    assert headers["Content-Type"] == PROBLEM and headers["Retry-After"] == "5"
    assert body["code"] == "database_unavailable" and body["status"] == 503
    assert body["type"] == "/api/v1/problems/database_unavailable/" and "Traceback" not in json.dumps(body)
    assert list(MatchEvent.objects.filter(match=match).values_list("seq", "hash")) == before  # nothing partial
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS and outbox_of(world.season) == 0
    assert not IdempotencyKey.objects.filter(key="last-card").exists()  # not left "running" (409 forever)

    status, headers, body = call("POST", play, token, {"card": last}, **{"Idempotency-Key": "last-card"})

    assert status == 201, body
    assert MatchEvent.objects.filter(match=match).count() == len(before) + 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED and outbox_of(world.season) in (0, 1)
    replayed = call("POST", play, token, {"card": last}, **{"Idempotency-Key": "last-card"})
    assert replayed[0] == 201 and replayed[1]["Idempotent-Replayed"] == "true" and replayed[2] == body


def test_a_connection_killed_between_requests_is_replaced_by_the_next_one(world, server, killer, server_backends):
    token = Token.objects.create(user=world.users["sam"]).key
    season = f"{server}/api/v1/seasons/{world.season.pk}/standings/"
    for _ in range(2):
        assert call("GET", season, token)[0] == 200
    wait_for(lambda: len(server_backends) == 2, 10, "the requests to finish")  # (after their responses)
    assert server_backends[0] == server_backends[1]  # one connection, kept between requests

    killer(server_backends[0])  # a restart, a failover, an idle timeout on the way
    status, _, body = call("GET", season, token)

    assert status == 200, body  # CONN_HEALTH_CHECKS: the dead connection is found and replaced first
    wait_for(lambda: len(server_backends) == 3, 10, "the request to finish")
    assert server_backends[2] != server_backends[0]


def test_a_key_whose_request_failed_in_an_outage_is_free_for_the_retry_at_once(world, server, killer, monkeypatch):
    match, last = started_match(world, seed=1)
    token = Token.objects.create(user=world.users["sam"]).key
    real_commit, name = commands._commit, connection.settings_dict["NAME"]
    db = connection.settings_dict
    outage = psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )  # not its own

    def commit_in_an_outage(unit):  # the database goes away for longer than the request
        outage.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        killer(connection.connection.info.backend_pid)
        return real_commit(unit)

    monkeypatch.setattr(commands, "_commit", commit_in_an_outage)
    play = f"{server}/api/v1/matches/{match.pk}/plays/"
    try:
        status, _, body = call("POST", play, token, {"card": last}, **{"Idempotency-Key": "outage"})
    finally:
        outage.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        outage.close()
    monkeypatch.setattr(commands, "_commit", real_commit)

    assert status == 503 and body["code"] == "database_unavailable"
    assert not IdempotencyKey.objects.filter(key="outage").exists()  # stored only with a response
    status, _, body = call("POST", play, token, {"card": last}, **{"Idempotency-Key": "outage"})

    assert status == 201, body
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert IdempotencyKey.objects.get(key="outage").status_code == 201
