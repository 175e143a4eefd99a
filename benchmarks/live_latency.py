"""Commit-to-frame latency of the live streams (issue 16): notification against polling, one run.

    .venv/bin/python benchmarks/live_latency.py [--streams 500] [--matches 50] [--plays 4]
        [--gap 0.05] [--redis-url redis://127.0.0.1:6379/9] [--smoke]

1. Starts a PostgreSQL cluster of its own (benchmarks/nodes.py: ``initdb`` under a temporary
   directory, a free port) and migrates it.
2. Per mode — **notify** (``LIVE_NOTIFY=true``: commands ``NOTIFY``, each uvicorn listens) and
   **poll** (``LIVE_NOTIFY=false``: each uvicorn reads the watched versions every
   ``LIVE_POLL_INTERVAL_MS``, 250) — starts two app nodes (gunicorn + uvicorn each) with that
   setting, makes ``--matches`` new server-dealt matches and opens ``--streams`` SSE streams
   of them (``matches/{id}/stream/``), spread evenly over the matches, the seats and the two
   uvicorns.
3. Plays ``--plays`` cards in every match, one after another, through the two gunicorns in turn,
   ``--gap`` seconds apart; each stream's frame of each play is timed on arrival against the
   event's ``created_at`` (stamped by the command just before it commits; one machine, one clock).
4. Prints p50, p90, p99 and max per mode side by side, and frames missing after 30 s; the last
   line is JSON with every figure.

``--smoke`` (the test suite's run: 20 streams, 4 matches, 2 plays) checks only that frames
arrive in both modes. Figures are noisy on a loaded machine: the streams' client, the nodes and
PostgreSQL share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from tempfile import mkdtemp

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import nodes  # noqa: E402
from benchmarks.api_plays import percentile  # noqa: E402
from games.domain.event_types import CardPlayed  # noqa: E402

MODES = {"notify": {"LIVE_NOTIFY": "true"}, "poll": {"LIVE_NOTIFY": "false", "LIVE_POLL_INTERVAL_MS": "250"}}
SETTLE = 30  # seconds to wait for the last frames


class Streams:
    """Every stream's frames, timed: ``latencies`` (seconds from the event's ``created_at``)."""

    def __init__(self, expected_per_play: dict[str, int]):
        self.latencies: list[float] = []
        self.received = 0
        self.opened = 0
        self.expected_per_play = expected_per_play

    async def follow(self, client: httpx.AsyncClient, url: str, token: str, stop: asyncio.Event) -> None:
        headers = {"Authorization": f"Token {token}", "Accept": "text/event-stream"}
        async with client.stream("GET", url, headers=headers) as response:
            response.raise_for_status()
            self.opened += 1
            event = None
            async for line in response.aiter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == CardPlayed.TYPE:
                    arrived = time.time()
                    created = datetime.fromisoformat(json.loads(line[6:])["created_at"]).timestamp()
                    self.latencies.append(arrived - created)
                    self.received += 1
                if stop.is_set():
                    return


async def measure(mode: str, site: dict, args) -> dict:
    tables = nodes.tables_create(site["env"], args.matches, tag=mode)
    a, b = site["nodes"]
    streams = Streams({})
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=args.streams + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=httpx.Timeout(None, connect=30), limits=limits) as client:
        tasks = []
        for i in range(args.streams):
            table = tables[i % len(tables)]
            node = (a, b)[i % 2]
            seat = (i // len(tables)) % 4
            url = f"http://127.0.0.1:{node.live_port}/api/v1/matches/{table['match']}/stream/"
            tasks.append(asyncio.create_task(streams.follow(client, url, table["tokens"][seat], stop)))
        deadline = time.monotonic() + 120
        while streams.opened < args.streams and time.monotonic() < deadline:
            if any(task.done() and task.exception() for task in tasks):
                raise next(task.exception() for task in tasks if task.done() and task.exception())
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # the streams have sent their backlog and wait
        streams.latencies.clear()
        streams.received = 0
        plays = await asyncio.to_thread(drive, tables, [a.web_port, b.web_port], args)
        expected = plays * args.streams // len(tables)
        deadline = time.monotonic() + SETTLE
        while streams.received < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    values = sorted(streams.latencies)
    ms = lambda q: round(1000 * percentile(values, q), 1) if values else None  # noqa: E731
    return {
        "mode": mode,
        "streams": args.streams,
        "plays": plays,
        "frames": len(values),
        "missing": expected - len(values),
        "p50_ms": ms(0.50),
        "p90_ms": ms(0.90),
        "p99_ms": ms(0.99),
        "max_ms": round(1000 * values[-1], 1) if values else None,
    }


def drive(tables: list[dict], ports: list[int], args) -> int:
    """``--plays`` rounds: a card in every match, through the gunicorns in turn. Plays made."""
    players = [nodes.RetryingTable(table, ports, patience=30) for table in tables]
    made = 0
    for _ in range(args.plays):
        for player in players:
            if player.play():
                made += 1
            time.sleep(args.gap)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--plays", type=int, default=4, help="cards played in each match, per mode")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between two plays")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--smoke", action="store_true", help="20 streams, 4 matches, 2 plays: frames arrive")
    args = parser.parse_args()
    if args.smoke:
        args.streams, args.matches, args.plays = 20, 4, 2
    missing = nodes.missing_programs()
    if missing:
        sys.exit(f"needs {', '.join(missing)}")
    postgres = nodes.Postgres(max_connections=400)
    results = []
    try:
        env = nodes.node_env(postgres.url, args.redis_url)
        nodes.tables_create(env, 0, tag="none", migrate=True)
        logs = Path(mkdtemp(prefix="kierki-live-latency-"))
        for mode, settings in MODES.items():
            mode_env = {**env, **settings}
            pair = [nodes.Node(f"{mode}-{name}", mode_env, logs, workers=2).start() for name in "ab"]
            try:
                results.append(asyncio.run(measure(mode, {"env": mode_env, "nodes": pair}, args)))
            finally:
                for node in pair:
                    node.stop()
    finally:
        postgres.destroy()
    print(f"commit-to-frame latency, {args.streams} streams over 2 nodes, {args.matches} matches")
    print(f"{'':>8} {'plays':>6} {'frames':>7} {'missing':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for r in results:
        print(
            f"{r['mode']:>8} {r['plays']:>6} {r['frames']:>7} {r['missing']:>8} {r['p50_ms']!s:>8} "
            f"{r['p90_ms']!s:>8} {r['p99_ms']!s:>8} {r['max_ms']!s:>8}"
        )
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
