"""Helpers for the live-update tests: an SSE reader, plain-HTTP requests, hands and deals (uvicorn
serving the project in a thread is tests/asgi_server.py's)."""

from __future__ import annotations

import http.client
import json
import random
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from support import PLAYERS, SEATS  # noqa: F401 - re-exported

from games.engine.cards import NAMES
from games.engine.simulate import deal_hands


def get(url: str, token: str | None = None, headers: dict | None = None, timeout: float = 40):
    """(status, headers, JSON body) of a GET, errors included."""
    request = urllib.request.Request(
        url, headers={**({"Authorization": f"Token {token}"} if token else {}), **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, error.headers, json.loads(body) if body else None


def wait_until(condition, *, timeout: float = 30, what: str = "the condition") -> None:
    """Return once ``condition()`` holds (checked every 10 ms); fail after ``timeout`` seconds. A
    loaded machine only makes it slower, never wrong: wait on the condition, not on time."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come within {timeout} s")
        time.sleep(0.01)


class Background:
    """``function()`` run in a thread of its own; ``result()`` waits for it and gives its value, or
    raises what it raised (a failure in the thread is the test's failure, not a silent hang)."""

    def __init__(self, function):
        self.value, self.error = None, None
        self.thread = threading.Thread(target=self._run, args=(function,), daemon=True)
        self.thread.start()

    def _run(self, function) -> None:
        from django.db import connections

        try:
            self.value = function()
        except BaseException as error:  # noqa: BLE001 - handed to the test by result()
            self.error = error
        finally:
            connections.close_all()  # the thread's own: left open, it kept the test database from being dropped

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def result(self, timeout: float = 60):
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise AssertionError(f"still running after {timeout} s")
        if self.error is not None:
            raise self.error
        return self.value


@dataclass
class Frame:
    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: str | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def json(self):
        return json.loads(self.data)


class SSE:
    """An open ``text/event-stream`` response, read frame by frame."""

    def __init__(self, url: str, token: str | None = None, headers: dict | None = None, timeout: float = 10):
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        all_headers = {
            "Accept": "text/event-stream",
            **({"Authorization": f"Token {token}"} if token else {}),
            **(headers or {}),
        }
        self.connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=all_headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers

    def frame(self) -> Frame | None:
        """The next frame (comment-only frames included); None at the end of the stream."""
        frame, seen = Frame(), False
        while True:
            line = self.response.readline()
            if not line:
                return frame if seen else None
            line = line.decode().rstrip("\n")
            if line == "":
                if seen:
                    return frame
                continue
            seen = True
            if line.startswith(":"):
                frame.comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                frame.data = value if frame.data is None else frame.data + "\n" + value
            elif name in ("id", "event", "retry"):
                setattr(frame, name, value)

    def events(self, count: int) -> list[Frame]:
        """The next ``count`` frames that carry data (keep-alives and ``retry:`` skipped)."""
        found = []
        while len(found) < count:
            frame = self.frame()
            assert frame is not None, f"the stream ended after {len(found)} of {count} events"
            if frame.data is not None:
                found.append(frame)
        return found

    def rest(self) -> list[Frame]:
        """Every frame until the server closes the stream."""
        frames = []
        while (frame := self.frame()) is not None:
            frames.append(frame)
        return frames

    def close(self) -> None:
        self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def hands(seed: int) -> dict[str, list[str]]:
    """Four random hands, by seat, as card names."""
    return {seat: [NAMES[c] for c in hand] for seat, hand in zip(SEATS, deal_hands(random.Random(seed)))}


def lowest_to(seat: str):
    """A shuffle for ``games.write.services._shuffle`` whose first deal gives ``seat`` the 13 lowest cards
    (every 2, 3 and 4 and the five of spades): he takes no trick, so a compensating odgrywka is due
    (R20), led by him — and open to a lead sale (R26). Later deals are random."""
    deals = iter(range(10**6))

    def shuffle() -> dict[str, list[str]]:
        number = next(deals)
        if number:
            return hands(number)
        by_rank = sorted(range(52), key=lambda card: (card % 13, card))
        low, rest = by_rank[:13], by_rank[13:]
        random.Random(7).shuffle(rest)
        others = [s for s in SEATS if s != seat]
        dealt = {seat: low, **{other: rest[13 * i : 13 * i + 13] for i, other in enumerate(others)}}
        return {s: sorted(NAMES[c] for c in dealt[s]) for s in SEATS}

    return shuffle


def play_out_deal(match_id, players: dict) -> None:
    """Each seat on turn (``players[seat]``, a user) plays its first legal card until the deal ends."""
    from games.engine.match import restore
    from games.models import MatchProjection
    from games.write import services

    while True:
        deal = restore(MatchProjection.objects.get(pk=match_id).snapshot).deal
        if deal is None:
            return
        seat = deal.to_play
        services.card_play(match_id=match_id, actor=players[seat.name], card=str(deal.legal_cards(seat)[0]))


def run_clients(commands: list[list[str]], *, timeout: float, **popen) -> list[tuple[int, str, str]]:
    """Run client processes side by side: (returncode, stdout, stderr) of each. When one fails the
    others are stopped at once (they would wait for its seat forever)."""
    import subprocess

    logs = [(tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")) for _ in commands]
    processes = [
        subprocess.Popen(command, stdout=out, stderr=err, text=True, **popen)
        for command, (out, err) in zip(commands, logs)
    ]
    deadline = time.monotonic() + timeout
    try:
        while any(p.poll() is None for p in processes):
            failed = any(p.poll() not in (None, 0) for p in processes)
            if failed or time.monotonic() > deadline:
                break
            time.sleep(0.1)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait()
    results = []
    for process, (out, err) in zip(processes, logs):
        out.seek(0)
        err.seek(0)
        results.append((process.returncode, out.read(), err.read()))
    return results


def new_recorded_match(scorer):
    """A recorded match of the four players (first dealer N) scored by ``scorer`` (a user named
    ``scorer``), no deal yet."""
    from games.models import Match
    from games.write import services

    return services.match_create(
        actor=scorer, first_dealer="N", seats=dict(zip(SEATS, PLAYERS)), dealing=Match.Dealing.RECORDED, scorer="scorer"
    )
