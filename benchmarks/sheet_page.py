"""The table's score-sheet page (issue 23): server time of its three requests — the page, the
htmx check of a row as typed, and the Enter that files a deal — over whole matches filed by tally.
Target: each ≤ 300 ms on this machine (issue 23, "Done when").

    .venv/bin/python benchmarks/sheet_page.py [--matches 5]

Runs in a throwaway test database (SQLite unless DATABASE_URL says otherwise) through Django's
test client, so the time is the server's: middleware, view, engine, templates, no network.
Prints per request kind the first (cold) time, then the median and the maximum, in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.write import services  # noqa: E402
from scoring import invitations  # noqa: E402
from scoring.models import SeatInvitation  # noqa: E402

PLAYERS = ("ala", "bartek", "celina", "darek")
ROZBOJNIK = {"N": (3, 4, 1, 2, 0), "E": (3, 3, 1, 2, 0), "S": (4, 5, 1, 2, 2), "W": (3, 1, 1, 2, 0)}
ODGRYWKA = {"N": 4, "E": 3, "S": 3, "W": 3}
KEYS = ("tricks", "hearts", "queens", "kings_jacks", "last_tricks")


def row(kind: str, wrong: bool = False) -> dict[str, str]:
    if kind == "odgrywka":
        return {"entry": "tally", **{f"{seat}-tricks": str(n) for seat, n in ODGRYWKA.items()}}
    data = {"entry": "tally", "S-king_of_hearts": "on"}
    for seat, counts in ROZBOJNIK.items():
        data.update({f"{seat}-{key}": str(value) for key, value in zip(KEYS, counts)})
    if wrong:
        data["W-hearts"] = "0"
    return data


def timed(times: list[float], call, *args, **kwargs):
    started = time.perf_counter()
    response = call(*args, **kwargs)
    times.append((time.perf_counter() - started) * 1000)
    return response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        users = {name: get_user_model().objects.create_user(name) for name in (*PLAYERS, "scorer")}
        users["scorer"].groups.add(Group.objects.get_or_create(name="scorers")[0])
        client = Client(HTTP_ACCEPT_LANGUAGE="pl")
        client.force_login(users["scorer"])
        times: dict[str, list[float]] = {"page": [], "check": [], "file": []}
        for _ in range(args.matches):
            match = services.match_create(
                actor=users["scorer"],
                seats=dict(zip("NESW", PLAYERS)),
                first_dealer="N",
                dealing="recorded",
            )
            for invitation in SeatInvitation.objects.filter(match=match, accepted_at__isnull=True):
                invitations.seat_accept(actor=invitation.user, invitation_id=invitation.pk)
            url = f"/matches/{match.pk}/sheet/"
            for _deal in range(30):
                match.refresh_from_db()
                summary = match.projection.summary
                due = summary.get("next_deal")
                if due is None:
                    break
                timed(times["page"], client.get, url)
                timed(times["check"], client.post, url + "check/", row(due["kind"], True), HTTP_HX_REQUEST="true")
                response = timed(times["file"], client.post, url, row(due["kind"]))
                assert response.status_code == 302, response.status_code
        for kind, values in times.items():  # the first of each kind is the cold one (imports, templates)
            warm = values[1:]
            print(
                f"{kind:6} n={len(values):3}  first {values[0]:7.1f} ms  then median {statistics.median(warm):6.1f} ms"
                f"  max {max(warm):6.1f} ms"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
