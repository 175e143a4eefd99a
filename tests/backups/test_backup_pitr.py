"""The point-in-time recovery drill (docs/operations.md, "Point-in-time recovery"): a private
PostgreSQL cluster archiving its WAL, a base backup, the schema migrated and plays acknowledged
through the commands, an operator's mistake, the postmaster killed (``kill -9``); the base backup
restored with the archived WAL (and the segments the dead server had not archived yet) to the
moment before the mistake: every acknowledged play is there, with its hash, and every match audits.

Runs as root as CI does: the cluster belongs to the ``postgres`` OS user (initdb refuses root)."""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from support import IN_CI

pytestmark = pytest.mark.slow

PLAYS = 30
SCRIPT = Path(__file__).with_name("pitr_plays.py")
ROOT = Path(__file__).resolve().parents[2]


def pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found or not shutil.which("runuser"):
        if IN_CI:
            pytest.fail("CI=true but the PostgreSQL server binaries (initdb) or runuser are missing", pytrace=False)
        pytest.skip("needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin) and runuser")
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster in ``root`` run as the ``postgres`` OS user (as root: initdb refuses root)."""

    def __init__(self, bin: Path, root: Path):
        self.bin, self.root = bin, root
        self.wal = root / "wal"  # the archive: what archive_command copies, restore_command reads

    def run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess:
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*as_postgres, *command], capture_output=True, text=True, cwd="/")
        assert done.returncode == 0 or not check, f"{command[0]} failed: {done.stderr}"
        return done

    def tool(self, name: str, *args: str) -> subprocess.CompletedProcess:
        return self.run(str(self.bin / name), *args)

    def start(self, data: Path, port: int) -> None:
        self.tool(
            "pg_ctl", "-D", str(data), "-l", str(data / "server.log"), "-w", "-t", "120", "-o", f"-p {port}", "start"
        )

    def psql(self, port: int, sql: str, database: str = "postgres") -> str:
        done = self.tool("psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", database, "-tAc", sql)
        return done.stdout.strip()

    def kill(self, data: Path) -> None:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.1)

    def stop(self, data: Path) -> None:
        if (data / "postmaster.pid").exists():
            self.tool_quiet("pg_ctl", "-D", str(data), "-m", "immediate", "stop")

    def tool_quiet(self, name: str, *args: str) -> None:
        self.run(str(self.bin / name), *args, check=False)


ARCHIVING = """
listen_addresses = '127.0.0.1'
unix_socket_directories = '{root}'
wal_level = replica
archive_mode = on
archive_command = 'test ! -f {wal}/%f && cp %p {wal}/%f'
fsync = on
synchronous_commit = on
"""

RECOVERY = """
archive_mode = off
restore_command = 'cp {wal}/%f %p'
recovery_target_time = '{target}'
recovery_target_action = 'promote'
"""


@pytest.fixture
def cluster():
    bin = pg_bin()
    root = Path(tempfile.mkdtemp(prefix="kierki-pitr-"))  # not under pytest's folder: postgres could not reach it
    made = Cluster(bin, root)
    made.wal.mkdir()
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        for path in (root, made.wal):
            os.chown(path, postgres.pw_uid, postgres.pw_gid)
    yield made
    for data in (root / "data", root / "restored"):
        made.stop(data)
    shutil.rmtree(root, ignore_errors=True)


def application(port: int, *args: str, stdin: str | None = None) -> str:
    """The application's side (pitr_plays.py) on the cluster's database kierki."""
    env = {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{port}/kierki", "LANGUAGE_CODE": "en"}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], input=stdin, env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_killed_server_is_restored_to_a_point_with_every_acknowledged_play(cluster):
    data, base, restored = cluster.root / "data", cluster.root / "base", cluster.root / "restored"
    port = free_port()
    cluster.tool("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync")
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(ARCHIVING.format(root=cluster.root, wal=cluster.wal))
    cluster.start(data, port)
    cluster.psql(port, "CREATE DATABASE kierki")
    cluster.tool(
        "pg_basebackup",
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
        "-U",
        "postgres",
        "-D",
        str(base),
        "-X",
        "stream",
        "-c",
        "fast",
    )

    acknowledged = application(port, "play", str(PLAYS))
    target = cluster.psql(port, "SELECT clock_timestamp()")  # the point to return to: after the last acknowledged play
    time.sleep(0.05)
    cluster.psql(port, "TRUNCATE games_matchevent CASCADE", database="kierki")  # the mistake to undo
    cluster.kill(data)

    shutil.copytree(base, restored)
    for segment in (data / "pg_wal").glob("0*"):  # not archived yet when it died (its disk survived)
        if not (cluster.wal / segment.name).exists():
            shutil.copy2(segment, restored / "pg_wal" / segment.name)
    with (restored / "postgresql.conf").open("a") as conf:
        conf.write(RECOVERY.format(wal=cluster.wal, target=target))
    (restored / "recovery.signal").touch()
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", str(restored)], check=True)
    cluster.start(restored, port)

    report = json.loads(application(port, "check", stdin=acknowledged))
    assert report == {"acknowledged": PLAYS, "missing": [], "failing": {}}
    assert cluster.psql(port, "SELECT pg_is_in_recovery()") == "f"  # promoted: it takes writes again
