"""A card play is decided once per request (issue 31): on the fast path when this process kept
the match (PostgreSQL), else on the locked match — and what the fast path decided but did not
write (a refusal, a deal's last card) is taken as decided under the lock, not decided again.
With an ``Idempotency-Key`` on PostgreSQL a play the claim cannot store (those two) is decided
once more on the usual way: at most twice."""

import pytest
from api_helpers import api_people, fresh_users, post
from django.db import connection
from support.once import once_per_module
from support.world import legal_play

from games.engine.match import MatchState
from games.models import Match, MatchEvent
from games.read import audit

pytestmark = pytest.mark.django_db

built = once_per_module(api_people)
SEATS = {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"}


@pytest.fixture
def users(built):
    return fresh_users(built)


@pytest.fixture
def decisions(monkeypatch):
    """How many times the engine decided a card (``MatchState.play``) since the last reset."""
    counted, real = [], MatchState.play

    def counting(self, *args, **kwargs):
        counted.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(MatchState, "play", counting)
    return counted


def _play_legal(clients, match_id, **headers):
    """The seat on turn plays its first legal card (found from the read model, not by a request)."""
    seat, card = legal_play(match_id)
    return post(clients[SEATS[seat]], match_id, "plays", {"card": card}, **headers)


def test_every_card_of_a_deal_is_decided_once_the_last_one_too(dealt_match, clients, decisions):
    for number in range(52):
        decisions.clear()
        played = _play_legal(clients, dealt_match)
        assert played.status_code == 201, played.content
        assert len(decisions) == 1, number

    # the last card ends the deal: more to write than the plays, so the locked line wrote it, as decided
    assert [event["type"] for event in played.json()["events"]] == ["card_played", "hands_revealed"]
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 2 + 52 + 1
    assert audit.audit_failures(Match.objects.get(pk=dealt_match)) == []


def test_a_card_refused_is_decided_once_and_located_on_the_match_as_stored(dealt_match, clients, decisions):
    assert _play_legal(clients, dealt_match).status_code == 201  # this process keeps the match
    decisions.clear()

    refused = post(clients["ala"], dealt_match, "plays", {"card": "2C"})  # S is on turn, not N

    assert refused.status_code == 422 and refused.json()["code"] == "not_your_turn"
    assert (refused.json()["error"]["play_index"], refused.json()["error"]["seat"]) == (1, "S")
    assert len(decisions) == 1
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3


def test_with_a_key_a_card_is_decided_once_and_the_last_one_at_most_twice(dealt_match, clients, decisions):
    counts = []
    for number in range(52):
        decisions.clear()
        assert _play_legal(clients, dealt_match, **{"Idempotency-Key": f"card-{number}"}).status_code == 201
        counts.append(len(decisions))

    assert counts[:51] == [1] * 51  # each stored with its key by the claim (SQLite: the locked line)
    assert counts[51] == (2 if connection.vendor == "postgresql" else 1)  # the claim could not store the deal's end
