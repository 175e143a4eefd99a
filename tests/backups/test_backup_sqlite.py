"""``manage.py backup`` in the embedded mode (SQLite): the copy made through SQLite's online backup
restores to a new file and verifies; an event altered in the restored file, or a checkpoint checked
against another club's key, fails naming what. Each step runs as its own process on a file database,
as an operator runs it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from games.domain import checkpoints
from games.domain.chain import canonical_json

ROOT = Path(__file__).resolve().parents[2]
PLAYS = 12
KEY = Ed25519PrivateKey.generate()


def run(db: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "LANGUAGE_CODE": "en",
        "CHECKPOINT_SIGNING_KEY": checkpoints.private_key_b64(KEY),
    }
    return subprocess.run([sys.executable, *args], input=stdin, env=env, cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A SQLite file database with a match of 12 plays entered through the commands."""
    db = tmp_path_factory.mktemp("embedded") / "kierki.sqlite3"
    done = run(db, str(Path(__file__).with_name("pitr_plays.py")), "play", str(PLAYS))
    assert done.returncode == 0, done.stderr
    return db, [json.loads(line) for line in done.stdout.splitlines()]


def test_a_drill_of_the_embedded_database_verifies(played, tmp_path):
    db, _ = played

    done = run(db, "manage.py", "backup", "drill", "--out", str(tmp_path))

    assert done.returncode == 0, done.stdout + done.stderr
    assert f"checked 1 matches, {PLAYS + 2} events" in done.stdout  # match_created, deal_started, the plays
    assert "1 heads checked" in done.stdout
    assert "the backup verifies" in done.stdout
    assert [p.suffix for p in sorted(tmp_path.iterdir())] == [".json", ".json", ".sqlite3"]  # the drill's copy gone


def test_an_event_altered_in_the_restored_file_fails_naming_its_match(played, tmp_path):
    db, plays = played
    made = run(db, "manage.py", "backup", "make", "--out", str(tmp_path))
    dump = next(tmp_path.glob("*.sqlite3"))
    restored = tmp_path / "restored.sqlite3"
    assert run(db, "manage.py", "backup", "restore", str(dump), "--into", str(restored)).returncode == 0
    victim = plays[5]
    with sqlite3.connect(restored) as altered:  # no trigger in SQLite: the file is edited as anyone could
        match = victim["match"].replace("-", "")
        (payload,) = altered.execute(
            "SELECT payload FROM games_matchevent WHERE match_id = ? AND seq = ?", [match, victim["seq"]]
        ).fetchone()
        card = json.loads(payload)["card"]
        forged = canonical_json({"card": "AS" if card != "AS" else "KS"}).decode()
        altered.execute(
            "UPDATE games_matchevent SET payload = ? WHERE match_id = ? AND seq = ?", [forged, match, victim["seq"]]
        )

    checkpoint = next(tmp_path.glob("*.checkpoint.json"))
    checked = run(restored, "manage.py", "backup", "verify", "--no-progress", "--checkpoint", str(checkpoint))

    assert made.returncode == 0 and checked.returncode == 1, checked.stdout + checked.stderr
    assert f"match {victim['match']}: chain broken at seq {victim['seq']}: hash mismatch" in checked.stdout


def test_a_checkpoint_checked_against_another_key_fails(played, tmp_path):
    db, _ = played
    assert run(db, "manage.py", "backup", "make", "--out", str(tmp_path)).returncode == 0
    checkpoint = next(tmp_path.glob("*.checkpoint.json"))
    other = checkpoints.public_key_b64(Ed25519PrivateKey.generate())

    checked = run(
        db, "manage.py", "backup", "verify", "--no-progress", "--checkpoint", str(checkpoint), "--public-key", other
    )

    assert checked.returncode == 1
    assert "checkpoint fails: the checkpoint names another public key than the one given" in checked.stdout


def test_a_restore_into_a_file_that_exists_is_refused(played, tmp_path):
    db, _ = played
    assert run(db, "manage.py", "backup", "make", "--out", str(tmp_path)).returncode == 0
    dump = next(tmp_path.glob("*.sqlite3"))

    refused = run(db, "manage.py", "backup", "restore", str(dump), "--into", str(db))

    assert refused.returncode != 0
    assert "a backup is restored into a new file only" in refused.stderr
