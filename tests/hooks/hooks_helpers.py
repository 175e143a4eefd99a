"""Helpers for the webhook tests: a receiver on loopback, a club with a season, and matches
played to the end through the commands."""
from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from games import services as games
from games.engine import Ruleset, Seat
from games.engine.simulate import simulate_match
from webhooks.models import Delivery

SEATS = ("N", "E", "S", "W")
PLAYERS = ("p1", "p2", "p3", "p4")
SHORT = {"regular_deals": ["R", "O"]}  # two regular deals (and what they make due): quick to play


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1, in a thread: records every POST and answers 204, or
    ``fail_status`` to the next ``failures`` requests."""

    server: ThreadingHTTPServer = None
    received: list = field(default_factory=list)
    failures: int = 0
    fail_status: int = 500

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def fail(self, times: int, status: int = 500) -> None:
        self.failures, self.fail_status = times, status

    def of_type(self, event_type: str) -> list[Received]:
        return [r for r in self.received if r.headers.get("X-Kierki-Event") == event_type]

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.received.append(Received(self.path, dict(self.headers.items()), body))
                status = 204
                if receiver.failures > 0:
                    receiver.failures -= 1
                    status = receiver.fail_status
                self.send_response(status)
                self.send_header("Content-Length", "0" if status == 204 else "12")
                self.end_headers()
                if status != 204:
                    self.wfile.write(b"receiver err")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class World:
    users: dict
    club: object
    other_club: object
    league: object
    season: object


def simulated(seed: int) -> dict:
    """A finished SHORT match between PLAYERS, first dealer N."""
    return simulate_match(random.Random(seed), players=dict(zip(SEATS, PLAYERS)), first_dealer=Seat.N,
                          ruleset=Ruleset.from_options(SHORT))


def play(match, record: dict, actor, *, deals: int | None = None, cards: int | None = None) -> None:
    """The scorer enters ``record``'s deals (the first ``deals``), through the live commands; of
    the last deal entered only ``cards`` cards when given."""
    chosen = record["deals"][:deals]
    for index, deal in enumerate(chosen):
        games.deal_start(match_id=match.pk, actor=actor, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(match_id=match.pk, actor=actor, price=deal["sale"]["price"],
                                       seat=deal["sale"]["buyer"])
            games.lead_decide(match_id=match.pk, actor=actor, offer=offered.events[0].seq)
        plays = deal["plays"][:cards] if index == len(chosen) - 1 and cards is not None else deal["plays"]
        for card in plays:
            games.card_play(match_id=match.pk, actor=actor, card=card)


def deliveries(event_type: str | None = None) -> list[Delivery]:
    found = Delivery.objects.order_by("pk")
    return list(found.filter(event_type=event_type) if event_type else found)
