"""Helpers for the webhook tests: a receiver on loopback, a club with a season, and matches
played to the end through the commands."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from support import world as short_matches
from support.once import fresh_world  # noqa: F401 - re-exported
from support.world import play_record as play  # noqa: F401 - re-exported

from webhooks.models import Delivery

PLAYERS = ("p1", "p2", "p3", "p4")


def hooks_world():
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p4``), league
    ``Liga`` (the short ruleset) with season ``2025``; club ``other`` (admin ``olga``); ``staff``;
    ``outsider`` (tests/support's world with these names)."""
    from django.contrib.auth import get_user_model
    from support.world import build_world

    from scoring import services as scoring

    world = build_world(get_user_model(), players=PLAYERS, arbiter="arb", others=("olga", "outsider"))
    world.other_club = scoring.club_create(actor=world.users["olga"], name="Inny", slug="other")
    return world


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

    def start(self) -> Receiver:
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
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def simulated(seed: int) -> dict:
    """A finished SHORT match between this module's PLAYERS, first dealer N."""
    return short_matches.simulated(seed, players=PLAYERS)


def deliveries(event_type: str | None = None) -> list[Delivery]:
    found = Delivery.objects.order_by("pk")
    return list(found.filter(event_type=event_type) if event_type else found)
