"""Racing HTTP clients, each request on its own PostgreSQL connection (PostgreSQL only)."""

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from api_helpers import post, state, url
from django.db import connection

from games.models import IdempotencyKey, Match, MatchEvent, Player
from games.read import audit, live

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 8


def _race(request) -> list:
    start = threading.Barrier(CLIENTS)

    def run(_):
        try:
            start.wait()
            return request()
        finally:
            connection.close()

    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(run, range(CLIENTS)))


def test_eight_clients_playing_at_one_etag_land_exactly_one_play(dealt_match, clients):
    etag = clients["scorer"].get(url(dealt_match))["ETag"]
    card = state(clients["scorer"], dealt_match)["deal"]["legal_cards"][0]

    responses = _race(lambda: post(clients["scorer"], dealt_match, "plays", {"card": card}, **{"If-Match": etag}))

    assert sorted(r.status_code for r in responses) == [201] + [412] * (CLIENTS - 1)
    assert all(r.json()["current_version"] == 3 for r in responses if r.status_code == 412)
    assert list(MatchEvent.objects.filter(match_id=dealt_match).order_by("seq").values_list("seq", flat=True)) == [
        1,
        2,
        3,
    ]


def test_eight_retries_of_one_idempotent_request_run_it_once(dealt_match, clients):
    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]

    responses = _race(
        lambda: post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "once"})
    )

    statuses = [r.status_code for r in responses]
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
    originals = [r for r in responses if r.status_code == 201 and not r.has_header("Idempotent-Replayed")]
    assert len(originals) == 1
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3
    assert IdempotencyKey.objects.get(key="once").status_code == 201


def test_a_retry_while_the_first_request_runs_is_409_and_after_it_commits_a_replay(dealt_match, clients, monkeypatch):
    """The usual way (a play this process did not keep, so no claim is stored: the key under its
    advisory lock, in the request's transaction): a retry meanwhile is 409, afterwards a replay."""
    from games.write import services, states

    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    inside, release = threading.Event(), threading.Event()
    real = services.card_play

    def slow(**kwargs):  # the first request holds its transaction open until the retry has been answered
        if connection.in_atomic_block:
            inside.set()
            assert release.wait(30)
        return real(**kwargs)

    states.forget_all()
    monkeypatch.setattr(services, "card_play", slow)

    def send():
        return post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "in-flight"})

    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(lambda: (send(), connection.close())[0])
        assert inside.wait(30)
        monkeypatch.setattr(services, "card_play", real)
        during = send()
        release.set()
        first = first.result(30)
    after = send()

    assert during.status_code == 409 and during.json()["code"] == "idempotency_in_progress"
    assert first.status_code == after.status_code == 201 and after["Idempotent-Replayed"] == "true"
    assert after.json() == first.json()
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3


def test_a_retry_that_lands_while_the_first_request_renders_its_answer_is_replayed_to_the_first(
    dealt_match, clients, monkeypatch
):
    """The claim (games.write.claims): the first request has decided without the lock and renders its
    answer, to be stored with its event; meanwhile the retry lands the play and its answer. The
    first's statement then writes nothing, and it answers what the retry stored."""
    from games.write import claims

    card = state(clients["bartek"], dealt_match)["deal"]["legal_cards"][0]
    inside, release = threading.Event(), threading.Event()
    real = claims.key_row

    def slow(claim, result):  # the first request's answer, rendered before its statement
        if not inside.is_set():
            inside.set()
            assert release.wait(30)
        return real(claim, result)

    monkeypatch.setattr(claims, "key_row", slow)

    def send():
        return post(clients["bartek"], dealt_match, "plays", {"card": card}, **{"Idempotency-Key": "claimed"})

    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(lambda: (send(), connection.close())[0])
        assert inside.wait(30)
        retry = send()
        release.set()
        first = first.result(30)

    assert retry.status_code == first.status_code == 201
    assert not retry.has_header("Idempotent-Replayed") and first["Idempotent-Replayed"] == "true"
    assert first.json() == retry.json() and first["ETag"] == retry["ETag"] == '"3"'
    assert MatchEvent.objects.filter(match_id=dealt_match).count() == 3
    assert audit.audit_failures(Match.objects.get(pk=dealt_match)) == []


def test_a_play_that_loses_the_race_without_the_lock_writes_nothing_and_is_decided_again_under_it(
    dealt_match, clients, monkeypatch
):
    """Two requests decided on version 2 as this process kept it (the optimistic branch,
    docs/card-play.md), each on its own connection: the scorer's statement runs first — between
    bartek's decision and his statement — and lands; bartek's writes nothing (no event, no
    notification) and his play is decided again on the locked match, where E has played: 422."""
    from games import sql

    view = state(clients["bartek"], dealt_match)
    hand = view["deal"]["legal_cards"]
    written, unlocked = [], sql.events_append_unlocked

    def scorer_first(*args, **kwargs):
        if not written:  # bartek's statement: the scorer's request runs, whole, before it
            written.append("bartek's turn")
            with ThreadPoolExecutor(1) as pool:
                scorer = pool.submit(
                    lambda: (post(clients["scorer"], dealt_match, "plays", {"card": hand[1]}), connection.close())[0]
                )
                responses["scorer"] = scorer.result(30)
        written.append(unlocked(*args, **kwargs))
        return written[-1]

    responses = {}
    monkeypatch.setattr(sql, "events_append_unlocked", scorer_first)
    with _listening() as notices:
        responses["bartek"] = post(clients["bartek"], dealt_match, "plays", {"card": hand[0]})
        heard = notices(expected=1)

    assert written == ["bartek's turn", True, False]  # the scorer's statement wrote, bartek's did not
    assert responses["scorer"].status_code == 201
    refused = responses["bartek"].json()
    assert responses["bartek"].status_code == 422 and refused["code"] == "not_your_turn"
    assert (refused["error"]["play_index"], refused["error"]["seat"]) == (1, "S")  # as locked: S on turn
    stored = list(MatchEvent.objects.filter(match_id=dealt_match).order_by("seq"))
    scorer_id = Player.objects.get(user__username="scorer").public_id  # the log names people by id (issue 28)
    assert [(e.seq, e.actor_name, e.payload.get("card")) for e in stored[2:]] == [(3, scorer_id, hand[1])]
    assert audit.audit_failures(Match.objects.get(pk=dealt_match)) == []  # the chain and the rules
    assert heard == [dealt_match]  # one notification: the landed play's


@contextlib.contextmanager
def _listening():
    """The match ids the live views' channel announces meanwhile (a connection of its own)."""
    import psycopg

    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], host=settings["HOST"], port=settings["PORT"], autocommit=True
    ) as listener:
        listener.execute(f"LISTEN {live.CHANNEL}")

        def notices(expected: int) -> list[str]:
            heard = [n.payload.split()[0] for n in listener.notifies(timeout=5, stop_after=expected)]
            heard += [n.payload.split()[0] for n in listener.notifies(timeout=0.5)]  # and nothing more
            return heard

        yield notices
