"""Two app nodes behind nginx (benchmarks/nodes.py, docs/scale.md), sharing a PostgreSQL cluster of
their own and Redis: a match played across both nodes, a stream on one node hearing the other,
and plays acknowledged while a node or PostgreSQL itself is SIGKILLed under load — each in the
log exactly once, the chains intact."""

from __future__ import annotations

import os
import threading
import time

import pytest
from support import IN_CI

from benchmarks import nodes as harness

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """PostgreSQL, two nodes, nginx; ``site.tables`` made on demand."""
    missing = harness.missing_programs()
    if missing:
        (pytest.fail if IN_CI else pytest.skip)(f"needs {', '.join(missing)} (.ci/run installs them)")
    postgres = harness.Postgres()
    started: list = []
    try:
        env = harness.node_env(postgres.url, REDIS_URL)
        harness.tables_create(env, 0, tag="none", migrate=True)
        logs = tmp_path_factory.mktemp("nodes")
        a, b = harness.Node("a", env, logs), harness.Node("b", env, logs)
        started += [a.start(), b.start()]
        balancer = harness.Balancer([a, b])
        started.append(balancer)
        yield Site(postgres, env, a, b, balancer)
    finally:
        for part in reversed(started):
            part.stop()
        postgres.destroy()


class Site:
    def __init__(self, postgres, env, a, b, balancer):
        self.postgres, self.env, self.a, self.b, self.balancer = postgres, env, a, b, balancer

    def tables(self, count: int, tag: str) -> list[dict]:
        return harness.tables_create(self.env, count, tag=tag)


def _load(site, tables: list[dict], *, fault, plays_each: int = 30) -> list[harness.RetryingTable]:
    """Each table plays through the balancer in a thread of its own; ``fault()`` runs once plays
    are under way. Returns the tables, with what was acknowledged to each (``before_fault``: how
    many plays had been when the fault struck)."""
    players = [harness.RetryingTable(table, [site.balancer.port]) for table in tables]
    failures: list[BaseException] = []

    def run(player):
        try:
            for _ in range(plays_each):
                if not player.play():
                    return
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    while sum(len(p.acknowledged) for p in players) < 2 * len(players) and time.monotonic() < deadline:
        time.sleep(0.05)
    for player in players:
        player.before_fault = len(player.acknowledged)
    fault()
    for thread in threads:
        thread.join(300)
    assert not failures, failures
    return players


def _assert_log_holds_exactly(site, players: list[harness.RetryingTable]) -> None:
    audit = harness.audit(site.env)
    assert audit["failing"] == {}
    for player in players:
        logged = {int(seq): card for seq, card in audit["plays"].get(player.match, {}).items()}
        acknowledged = dict(player.acknowledged)
        assert len(acknowledged) == len(player.acknowledged), "a seq acknowledged twice"
        # every 201 is in the log with its card, and nothing else was played: no play twice
        assert logged == acknowledged


def test_a_match_is_played_with_requests_alternating_between_the_nodes(site):
    table = site.tables(1, "alternating")[0]
    player = harness.RetryingTable(table, [site.a.web_port, site.b.web_port], patience=20)

    while player.play():
        pass

    assert len(player.acknowledged) == 52 and player.retries == 0
    _assert_log_holds_exactly(site, [player])


def test_a_stream_on_node_b_sees_the_plays_made_through_node_a(site):
    from live_helpers import SSE

    table = site.tables(1, "stream")[0]
    player = harness.RetryingTable(table, [site.a.web_port], patience=20)
    url = f"http://127.0.0.1:{site.b.live_port}/api/v1/matches/{table['match']}/stream/"

    with SSE(url, table["tokens"][2], timeout=30) as stream:
        assert [f.event for f in stream.events(2)] == ["match_created", "deal_started"]
        for _ in range(3):
            player.play()
        frames = stream.events(3)

    assert [(int(f.id), f.json["payload"]["card"]) for f in frames] == player.acknowledged


def test_a_stream_through_the_balancer_is_passed_on_frame_by_frame(site):
    from live_helpers import SSE

    table = site.tables(1, "balanced-stream")[0]
    player = harness.RetryingTable(table, [site.balancer.port], patience=20)
    url = f"http://127.0.0.1:{site.balancer.port}/api/v1/matches/{table['match']}/stream/"

    with SSE(url, table["tokens"][1], timeout=30) as stream:
        stream.events(2)
        player.play()
        frame = stream.events(1)[0]

    assert (int(frame.id), frame.json["payload"]["card"]) == player.acknowledged[0]


def test_node_a_killed_under_load_loses_no_acknowledged_play_and_repeats_none(site):
    players = _load(site, site.tables(6, "node-killed"), fault=site.a.kill)

    assert all(len(p.acknowledged) == 30 for p in players)
    assert all(p.before_fault < 30 for p in players)  # every table was still playing when it died
    print(f"node killed: {sum(p.retries for p in players)} requests retried")
    _assert_log_holds_exactly(site, players)
    site.a.start()  # for the tests after this one


def test_postgresql_killed_under_load_and_restarted_keeps_every_acknowledged_play(site):
    restarted_at: list[float] = []

    def crash():
        site.postgres.kill()
        time.sleep(1)
        site.postgres.start()
        restarted_at.append(time.monotonic())

    players = _load(site, site.tables(6, "postgres-killed"), fault=crash)

    assert restarted_at and all(len(p.acknowledged) == 30 for p in players)  # the clients carried on
    assert all(p.before_fault < 30 for p in players)
    print(f"PostgreSQL killed: {sum(p.retries for p in players)} requests retried")
    assert sum(p.retries for p in players) > 0  # and they did meet the outage
    _assert_log_holds_exactly(site, players)
