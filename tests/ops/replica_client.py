"""Run by tests/ops/test_ops_replica.py in a process of its own, with DATABASE_URL naming a throwaway
primary and DATABASE_REPLICA_URL its streaming replica: migrates, then reports as JSON what the
router did (read: where a query landed; lag: what a client that wrote and one that did not see
while the replica's replay is paused; write: where writes went)."""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections, router  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from config.replica import reads_from_replica  # noqa: E402
from games.models import Match  # noqa: E402
from games.write import services  # noqa: E402


def scalar(alias: str, sql: str):
    with connections[alias].cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def replica_caught_up() -> None:
    target = scalar("default", "SELECT pg_current_wal_lsn()::text")
    for _ in range(300):
        if scalar("replica", f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"):
            return
        time.sleep(0.1)
    raise SystemExit("the replica did not catch up in 30 s")


def client_for(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def listed(client: Client) -> set[str]:
    response = client.get("/api/v1/matches/")
    assert response.status_code == 200, response.content
    return {match["id"] for match in response.json()["results"]}


def main() -> None:
    setup_test_environment()  # the test client's host is allowed
    call_command("migrate", verbosity=0)
    users = {seat: get_user_model().objects.create_user(f"replica{seat}") for seat in "NESW"}
    for user in users.values():
        services.player_for_user(user)
    arbiter = get_user_model().objects.create_user("arbiter", is_staff=True)  # reads every match, writes nothing
    writer, reader = client_for(users["N"]), client_for(arbiter)
    replica_caught_up()
    report = {}

    with reads_from_replica():
        chosen = Match.objects.all().db
        report["read"] = {
            "alias": chosen,
            "in_recovery": scalar(chosen, "SELECT pg_is_in_recovery()"),
            "count_on_replica": Match.objects.count(),
        }
    report["read"]["alias_outside"] = Match.objects.all().db

    scalar("replica", "SELECT pg_wal_replay_pause()::text")  # from now on the replica lags for sure
    created = writer.post(
        "/api/v1/matches/",
        {"seats": {s: f"replica{s}" for s in "NESW"}, "first_dealer": "N", "dealing": "server"},
        content_type="application/json",
    )
    new = created.json()["id"]
    report["lag"] = {
        "created": created.status_code,
        "writer_sees": new in listed(writer),
        "reader_sees_while_paused": new in listed(reader),
    }
    scalar("replica", "SELECT pg_wal_replay_resume()::text")
    replica_caught_up()
    report["lag"]["reader_sees_after_replay"] = new in listed(reader)

    with reads_from_replica():
        report["write"] = {"alias": router.db_for_write(Match)}
        made = services.match_create(actor=users["N"], first_dealer="N", seats={s: f"replica{s}" for s in "NESW"})
        report["write"]["created_on_primary"] = Match.objects.using("default").filter(pk=made.pk).exists()
    report["write"]["replica_refuses_writes"] = (
        scalar("replica", "SELECT current_setting('transaction_read_only')") == "on"
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
