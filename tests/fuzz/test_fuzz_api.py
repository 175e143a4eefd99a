"""Schemathesis against ``/api/v1/schema/``: every operation, fuzzed through the WSGI application (as
gunicorn serves the API), authenticated as a seated player and as staff, against a world with a
club, a season, matches finished and in play, and disputes; once more, fewer examples, with an
OAuth access token of a table app (``matches:read matches:play``: every other operation must
answer its documented 403 ``insufficient_scope``). No 5xx; every status code, content
type, body and documented header as the schema says."""

import pytest
from asgiref.sync import sync_to_async
from fuzz_helpers import MAX_EXAMPLES, Current, fuzz_settings, mix_in_real_ids, token, wsgi_schema

from api import streams

# The event streams answer 501 under WSGI, as documented: test_fuzz_streams.py fuzzes them under ASGI.
schema = wsgi_schema().exclude(path_regex=r"/stream/$")
mix_in_real_ids(schema)


@pytest.fixture
def seeded(world, in_process_requests, monkeypatch):
    """The world, and a long-poll that does not wait: ``?wait=`` could hold each example for 30 s
    (tests/live covers the waiting); the answer is the ``events`` action's either way. Its
    database work runs on the test's connection (in production it takes a fresh one in a worker
    thread, which would not see the test's uncommitted world)."""

    async def answer_at_once(*args, **kwargs):
        return None

    def on_this_connection(function, /, *args, **kwargs):
        return sync_to_async(function)(*args, **kwargs)

    monkeypatch.setattr(streams, "_wait_for_event", answer_at_once)
    monkeypatch.setattr(streams, "_db", on_this_connection)
    Current.world = world
    return world


@schema.parametrize()
@fuzz_settings()
def test_fuzz_as_a_seated_player(case, seeded):
    case.call_and_validate(headers=token(seeded, "ala"))


@schema.parametrize()
@fuzz_settings()
def test_fuzz_as_staff(case, seeded):
    case.call_and_validate(headers=token(seeded, "staff"))


@schema.parametrize()
@fuzz_settings(max_examples=max(1, MAX_EXAMPLES // 5))
def test_fuzz_with_an_oauth_token(case, seeded):
    case.call_and_validate(headers=token(seeded, "ala-oauth"))
