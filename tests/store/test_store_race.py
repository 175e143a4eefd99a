"""Concurrent plays on one match, each client on its own PostgreSQL connection: the row lock
and the expected version let exactly one play land per version, and the log never gets a
gap or a duplicate seq."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from store_helpers import SEATED, legal_play, stored_state

from games.domain.exceptions import RuleBroken, VersionConflict
from games.models import Match, MatchEvent
from games.read import audit
from games.write import services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 8


def _concurrently(*clients) -> list:
    """Run each client in its own thread and database connection, released together; what
    each returned or raised."""
    start = threading.Barrier(len(clients))

    def run(client):
        try:
            start.wait()
            return client()
        except Exception as exc:  # the outcome under test
            return exc
        finally:
            connection.close()

    with ThreadPoolExecutor(len(clients)) as pool:
        futures = [pool.submit(run, client) for client in clients]
    return [future.result() for future in futures]


def _race(client) -> list:
    return _concurrently(*[client] * CLIENTS)


def _assert_gapless_and_legal(match) -> None:
    seqs = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("seq", flat=True))
    assert seqs == list(range(1, Match.objects.get(pk=match.pk).version + 1))
    assert audit.chain_check(match).ok
    assert audit.rules_check(match).ok


@pytest.mark.parametrize("who", ["scorer", "player on turn"])
def test_eight_clients_at_one_version_land_exactly_one_play(server_match, users, who):
    version = server_match.version
    seat, card = legal_play(server_match)
    actor = users["scorer"] if who == "scorer" else users[SEATED[seat]]

    outcomes = _race(
        lambda: services.card_play(
            match_id=server_match.pk, actor=actor, card=card, seat=seat, expected_version=version
        )
    )

    landed = [o for o in outcomes if isinstance(o, services.CommandResult)]
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert (len(landed), len(conflicts)) == (1, CLIENTS - 1), outcomes
    assert all(c.extra == {"current_version": version + 1} for c in conflicts)
    assert [e.seq for e in landed[0].events] == [version + 1]
    _assert_gapless_and_legal(server_match)


def test_clients_racing_without_a_version_land_only_legal_plays_in_a_gapless_log(server_match, users):
    def client() -> int:
        landed = 0
        for _ in range(5):  # 8 × 5 tries: fewer than the 52 cards of the deal
            seat, card = legal_play(server_match)  # what this client sees now; stale by the time it plays
            try:
                services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)
                landed += 1
            except RuleBroken:
                pass
        return landed

    outcomes = _race(client)

    assert all(isinstance(o, int) for o in outcomes), outcomes
    plays = MatchEvent.objects.filter(match=server_match, type=MatchEvent.Type.CARD_PLAYED).count()
    assert plays == sum(outcomes) >= 5
    _assert_gapless_and_legal(server_match)


def _wait_until_another_connection_waits_for_a_lock(timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # else the view is frozen for the transaction
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)


def test_a_client_that_waited_for_the_lock_decides_on_the_state_the_previous_one_left(server_match, users):
    seat, card = legal_play(server_match)
    locked = threading.Event()

    def first():
        with transaction.atomic():
            Match.objects.select_for_update().get(pk=server_match.pk)
            locked.set()
            _wait_until_another_connection_waits_for_a_lock()  # the second client is queued behind us
            return services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    def second():
        locked.wait()
        return services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    played, replayed = _concurrently(first, second)

    assert isinstance(played, services.CommandResult), played
    assert isinstance(replayed, RuleBroken), replayed  # the card has been played already
    assert MatchEvent.objects.filter(match=server_match, type=MatchEvent.Type.CARD_PLAYED).count() == 1
    assert stored_state(server_match)["projection"][0] == server_match.version + 1
    _assert_gapless_and_legal(server_match)
