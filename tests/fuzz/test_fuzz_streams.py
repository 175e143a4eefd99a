"""Schemathesis against the event streams, served as in production: ``config.asgi:application``
under uvicorn (tests/asgi_server.py), over HTTP. ``matches/{id}/stream/`` and ``me/stream/``: each
stream is read until it ends (a finished match: ``event: end``), ``STREAM_EVENTS`` events have come
or ``STREAM_SECONDS`` pass, and then the client hangs up, as a browser does; every frame is checked
against the documented event schema, every error against its problem.

The world is committed here (the streams read it from worker threads, each on its own connection)."""

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from fuzz_helpers import Current, config, fuzz_settings, mix_in_real_ids, seed_world, token, wsgi_schema
from support.servers import AsgiServer

STREAM_SECONDS = 1.0  # an open stream (a match in play, your feed) is cut after this long...
STREAM_EVENTS = 3  # ... or after this many events (ala's feed: her turn in three matches, at once)

# The document the WSGI application serves (the same under ASGI), sent over HTTP to uvicorn.
loaded = schemathesis.openapi.from_dict(
    wsgi_schema().raw_schema, config=config(**{"request-timeout": STREAM_SECONDS, "max-stream-events": STREAM_EVENTS})
)
mix_in_real_ids(loaded)
streams = loaded.include(path_regex=r"/stream/$")
# Staff sits in no match: his feed never says anything, so each request would just wait.
match_stream = loaded.include(path_regex=r"/matches/\{id\}/stream/$")


@pytest.fixture
def server(transactional_db, settings, monkeypatch):
    """uvicorn with a committed world; connections closed after each request (as config/asgi.py sets)."""
    settings.LIVE_POLL_INTERVAL_MS = 20
    monkeypatch.setitem(connections.settings[DEFAULT_DB_ALIAS], "CONN_MAX_AGE", 0)
    Current.world = seed_world(get_user_model())
    running = AsgiServer()
    yield running
    running.stop()


@streams.parametrize()
@fuzz_settings()
def test_fuzz_the_streams_as_a_seated_player(case, server):
    case.call_and_validate(base_url=server.url, headers=token(Current.world, "ala"))


@match_stream.parametrize()
@fuzz_settings()
def test_fuzz_the_match_stream_as_staff(case, server):
    case.call_and_validate(base_url=server.url, headers=token(Current.world, "staff"))
