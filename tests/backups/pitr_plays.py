"""The application's side of the point-in-time recovery drill (test_backup_pitr.py), run as its own
process on the private cluster's ``DATABASE_URL``:

- ``play N``: migrate, then a scorer enters a recorded match card by card through the commands;
  each play is printed (one JSON line: match, seq, hash) once its command has returned — that is,
  once it was acknowledged, committed;
- ``check``: reads those lines on stdin and prints a JSON report: which acknowledged plays the
  restored database holds with the same hash, and the audit of every match.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games.engine import Ruleset, Seat  # noqa: E402
from games.engine.simulate import simulate_match  # noqa: E402
from games.models import Match, MatchEvent  # noqa: E402
from games.read.audit import audit_matches  # noqa: E402
from games.write import services  # noqa: E402

SEATS = ("N", "E", "S", "W")
PLAYERS = ("north", "east", "south", "west")


def play(count: int) -> None:
    call_command("migrate", verbosity=0)
    make = get_user_model().objects.create_user
    users = {name: make(name) for name in (*PLAYERS, "scorer")}
    record = simulate_match(
        random.Random(5), players=dict(zip(SEATS, PLAYERS)), first_dealer=Seat.N, ruleset=Ruleset.from_options({})
    )
    match = services.match_create(
        actor=users["north"],
        seats=dict(zip(SEATS, PLAYERS)),
        first_dealer="N",
        dealing=Match.Dealing.RECORDED,
        scorer="scorer",
    )
    deal = record["deals"][0]
    services.deal_start(match_id=match.pk, actor=users["scorer"], hands=deal["hands"])
    for card in deal["plays"][:count]:
        result = services.card_play(match_id=match.pk, actor=users["scorer"], card=card)
        event = result.events[-1]
        print(json.dumps({"match": str(match.pk), "seq": event.seq, "hash": event.hash}), flush=True)


def check() -> None:
    acknowledged = [json.loads(line) for line in sys.stdin if line.strip()]
    stored = {
        (str(match_id), seq): hash for match_id, seq, hash in MatchEvent.objects.values_list("match_id", "seq", "hash")
    }
    missing = [ack for ack in acknowledged if stored.get((ack["match"], ack["seq"])) != ack["hash"]]
    print(json.dumps({"acknowledged": len(acknowledged), "missing": missing, "failing": audit_matches()}))


if __name__ == "__main__":
    play(int(sys.argv[2])) if sys.argv[1] == "play" else check()
