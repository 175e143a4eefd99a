"""``manage.py backup``: a backup restored into a fresh database proves itself — every match
audits and the checkpoint signed with the backup holds — and names the match whose event was
altered between the dump and the check (docs/operations.md, "Backups")."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from backup_helpers import copies, filed_matches
from django.core.management import call_command
from django.db import connection

from games.domain import checkpoints
from games.domain.chain import canonical_json
from games.models import MatchEvent
from games.write.backups import backup_make, backup_restore, database_drop, database_url
from games.write.checkpointing import signing_key

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 1000
PLAYED = 100  # matches played card by card; the others filed from paper sheets (fewer events, as clubs file most)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]  # pg_dump reads committed rows


@pytest.fixture
def thousand_matches(django_user_model):
    played, sheet = filed_matches(django_user_model)
    return [played, *copies(played, PLAYED - 1), sheet, *copies(sheet, MATCHES - PLAYED - 1)]


@pytest.fixture
def fresh_database():
    name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    yield name
    database_drop(name)


def verify(url: str, checkpoint: Path) -> subprocess.CompletedProcess:
    """``backup verify`` in a process of its own on the restored database, as an operator runs it."""
    key = checkpoints.public_key_b64(signing_key())
    command = [sys.executable, "manage.py", "backup", "verify", "--no-progress", "--checkpoint", str(checkpoint)]
    env = {**os.environ, "DATABASE_URL": url, "LANGUAGE_CODE": "en"}  # the operator's words in English, as asserted
    return subprocess.run([*command, "--public-key", key], cwd=ROOT, env=env, capture_output=True, text=True)


def test_a_drill_on_a_thousand_matches_restores_and_verifies_every_one(thousand_matches, tmp_path, monkeypatch):
    monkeypatch.setenv("LANGUAGE_CODE", "en")  # the verify's process reads in English, as the assertions
    out = io.StringIO()
    call_command("backup", "drill", "--out", str(tmp_path), stdout=out)

    printed = out.getvalue()
    events = MatchEvent.objects.count()
    assert f"checked {MATCHES} matches, {events} events" in printed
    assert f"{MATCHES} heads checked" in printed
    assert "the backup verifies" in printed
    checkpoint = next(tmp_path.glob("*.checkpoint.json")).name
    assert f"checkpoint {checkpoint}" in printed


def test_an_event_altered_between_dump_and_restore_fails_naming_its_match(thousand_matches, tmp_path, fresh_database):
    made = backup_make(out_dir=tmp_path)
    url = backup_restore(dump=made.dump, into=fresh_database)
    victim = thousand_matches[50]  # played card by card
    row = MatchEvent.objects.filter(match=victim, type=MatchEvent.Type.CARD_PLAYED).order_by("seq").first()
    forged = dict(row.payload, card="AS" if row.payload["card"] != "AS" else "KS")
    with psycopg.connect(url) as restored:  # the append-only trigger bypassed as tests/support/event_table does
        restored.execute("ALTER TABLE games_matchevent DISABLE TRIGGER games_matchevent_append_only")
        restored.execute(
            "UPDATE games_matchevent SET payload = %s::jsonb WHERE match_id = %s AND seq = %s",
            [canonical_json(forged).decode(), victim.pk, row.seq],
        )
        restored.execute("ALTER TABLE games_matchevent ENABLE TRIGGER games_matchevent_append_only")

    checked = verify(url, made.checkpoint)

    assert checked.returncode == 1, checked.stdout + checked.stderr
    named = [line for line in checked.stdout.splitlines() if str(victim.pk) in line]
    assert any(f"seq {row.seq}: hash mismatch" in line for line in named), checked.stdout
    assert f"{MATCHES} heads checked" in checked.stdout
    assert sum(str(match.pk) in checked.stdout for match in thousand_matches) == 1  # only the altered one


def test_a_restore_refuses_a_database_that_exists(django_user_model, tmp_path, fresh_database):
    filed_matches(django_user_model)
    made = backup_make(out_dir=tmp_path)
    backup_restore(dump=made.dump, into=fresh_database)

    with pytest.raises(Exception, match="restored into a new database only"):
        backup_restore(dump=made.dump, into=fresh_database)
    assert database_url(fresh_database).endswith(f"/{fresh_database}")
