"""Reads that may lag go to a streaming replica (issue 16, item 3; config/replica.py): a throwaway
PostgreSQL primary and a real streaming replica of it (pg_basebackup -R), each on a free port of
its own; the app runs against both in a process of its own (tests/ops/replica_client.py).
The machine's own cluster is not touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from ops_helpers import free_port

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
ROOT = Path(__file__).resolve().parents[2]
CLIENT = Path(__file__).with_name("replica_client.py")

pytestmark = pytest.mark.slow


def as_postgres(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """A PostgreSQL program as the ``postgres`` user (the server refuses to run as root)."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    done = subprocess.run([*prefix, *argv], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{argv[0]}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def primary_and_replica():
    if not (PG_BIN / "initdb").exists():
        pytest.fail(f"no PostgreSQL programs in {PG_BIN} (set PG_BIN)", pytrace=False)
    base = Path(tempfile.mkdtemp(prefix="kierki-replica-"))  # not under pytest's 0700 folder: postgres reads it
    base.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    primary, replica = base / "primary", base / "replica"
    ports = {"primary": free_port(), "replica": free_port()}
    started = []
    try:
        as_postgres(str(PG_BIN / "initdb"), "-D", str(primary), "-U", "postgres", "--auth=trust", "--no-sync")
        for name, data in (("primary", primary),):
            as_postgres(
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(base / f"{name}.log"),
                "-w",
                "start",
                "-o",
                f"-p {ports[name]} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off",
            )
            started.append(data)
        as_postgres(
            str(PG_BIN / "pg_basebackup"),
            "-h",
            "127.0.0.1",
            "-p",
            str(ports["primary"]),
            "-U",
            "postgres",
            "-D",
            str(replica),
            "-R",
            "-X",
            "stream",
            "--no-sync",
        )
        as_postgres(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(replica),
            "-l",
            str(base / "replica.log"),
            "-w",
            "start",
            "-o",
            f"-p {ports['replica']} -k {base} -c listen_addresses=127.0.0.1 -c hot_standby=on",
        )
        started.append(replica)
        yield {name: f"postgres://postgres@127.0.0.1:{port}/postgres" for name, port in ports.items()}
    finally:
        for data in reversed(started):
            subprocess.run(
                ["runuser", "-u", "postgres", "--"] * (os.geteuid() == 0)
                + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def report(primary_and_replica):
    env = {key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    env.update(
        {
            "DATABASE_URL": primary_and_replica["primary"],
            "DATABASE_REPLICA_URL": primary_and_replica["replica"],
            "PYTHONPATH": str(ROOT),
            "DJANGO_DEBUG": "true",
            "DJANGO_SECRET_KEY": "",
        }
    )
    done = subprocess.run([sys.executable, str(CLIENT)], capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_read_that_may_lag_lands_on_the_replica(report):
    assert report["read"]["alias"] == "replica"
    assert report["read"]["in_recovery"] is True  # pg_is_in_recovery(): the standby answered


def test_other_reads_stay_on_the_primary(report):
    assert report["read"]["alias_outside"] == "default"


def test_a_client_that_just_wrote_reads_its_own_write(report):
    assert report["lag"]["created"] == 201
    assert report["lag"]["writer_sees"] is True


def test_a_client_that_did_not_write_reads_the_lagging_replica(report):
    assert report["lag"]["reader_sees_while_paused"] is False  # replay paused: the list came from the replica
    assert report["lag"]["reader_sees_after_replay"] is True


def test_writes_go_to_the_primary_even_inside_a_replica_block(report):
    assert report["write"]["alias"] == "default"
    assert report["write"]["created_on_primary"] is True
    assert report["write"]["replica_refuses_writes"] is True
