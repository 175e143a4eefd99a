"""Signed checkpoints: manage.py checkpoint, the beat job, and `kierki verify-checkpoint`
checking them offline (signature, heads, an exported log, a record)."""

import base64
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from audit_helpers import url, world_once
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from support.once import fresh, fresh_world

from games import tasks
from games.cli.main import EXIT_ILLEGAL, EXIT_OK, EXIT_UNREADABLE, main
from games.domain import checkpoints
from games.models import Match, MatchEvent
from games.write.checkpointing import checkpoint_take, current_heads, signing_key

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
KEY = base64.b64encode(bytes(range(32))).decode()  # a fixed test key


@pytest.fixture
def keyed(settings):
    settings.CHECKPOINT_SIGNING_KEY = KEY
    return checkpoints.public_key_b64(checkpoints.private_key_from_b64(KEY))


built = world_once((1, None), (2, 1))  # the world and two matches, built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built[0])


@pytest.fixture
def two_matches(built):
    return tuple(fresh(match) for match in built[1])


@pytest.fixture
def saved(two_matches, keyed, tmp_path):
    """A checkpoint and its heads file saved by `manage.py checkpoint --out`."""
    out = StringIO()
    call_command("checkpoint", "--out", str(tmp_path), stdout=out, stderr=StringIO())
    checkpoint = json.loads(out.getvalue())
    [checkpoint_path] = tmp_path.glob("*.checkpoint.json")
    [heads_path] = tmp_path.glob("*.heads.json")
    assert json.loads(checkpoint_path.read_text()) == checkpoint
    return checkpoint_path, heads_path


def kierki(*args) -> int:
    return main([str(a) for a in args])


# --- what a checkpoint signs -------------------------------------------------------------------------------


def test_a_checkpoint_signs_the_count_the_last_event_and_every_head(two_matches, keyed):
    taken = checkpoint_take()
    checkpoint, heads = taken.checkpoint, taken.heads

    assert set(checkpoint) == {"format", "matches", "last_event_id", "heads_hash", "time", "public_key", "signature"}
    assert checkpoint["matches"] == 2 and checkpoint["public_key"] == keyed
    assert checkpoint["last_event_id"] == MatchEvent.objects.order_by("-id").first().pk
    expected = sorted(
        f"{m.pk}:{m.version}:{MatchEvent.objects.get(match=m, seq=m.version).hash}\n" for m in Match.objects.all()
    )
    import hashlib

    assert checkpoint["heads_hash"] == hashlib.sha256("".join(expected).encode()).hexdigest()
    assert {h["match"]: h["seq"] for h in heads["heads"]} == {str(m.pk): m.version for m in two_matches}
    assert checkpoints.verify_checkpoint(checkpoint, heads, public_key=keyed).ok


def test_the_checkpoint_command_prints_and_saves_a_verifiable_pair(saved, keyed):
    checkpoint_path, heads_path = saved

    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--public-key", keyed) == EXIT_OK


def test_a_tampered_heads_file_fails_verification(saved, keyed, tmp_path, capsys):
    checkpoint_path, heads_path = saved
    heads = json.loads(heads_path.read_text())
    heads["heads"][0]["hash"] = "f" * 64
    forged = tmp_path / "forged.heads.json"
    forged.write_text(json.dumps(heads))

    assert kierki("verify-checkpoint", checkpoint_path, forged, "--public-key", keyed) == EXIT_ILLEGAL
    assert "heads_hash" in capsys.readouterr().out


def test_a_tampered_checkpoint_or_another_key_fails(saved, keyed, tmp_path):
    checkpoint_path, heads_path = saved
    checkpoint = json.loads(checkpoint_path.read_text())
    forged = tmp_path / "forged.checkpoint.json"
    forged.write_text(json.dumps({**checkpoint, "matches": checkpoint["matches"] + 1}))
    other = checkpoints.public_key_b64(checkpoints.private_key_from_b64(base64.b64encode(b"\x01" * 32).decode()))

    assert kierki("verify-checkpoint", forged, heads_path) == EXIT_ILLEGAL
    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--public-key", other) == EXIT_ILLEGAL
    key_file = tmp_path / "club.pub"
    key_file.write_text(keyed + "\n")
    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--public-key", f"@{key_file}") == EXIT_OK


def test_unreadable_input_exits_2(saved, tmp_path):
    checkpoint_path, heads_path = saved
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")

    assert kierki("verify-checkpoint", broken, heads_path) == EXIT_UNREADABLE
    assert kierki("verify-checkpoint", checkpoint_path, tmp_path / "missing.json") == EXIT_UNREADABLE
    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--record", broken) == EXIT_UNREADABLE


# --- an exported log and record against the checkpoint ------------------------------------------------------


def _export(clients, match, tmp_path) -> tuple[Path, Path]:
    audit = clients["staff"].get(url(match.pk, "audit")).json()
    record = clients["staff"].get(url(match.pk, "record")).json()
    audit_path, record_path = tmp_path / f"{match.pk}.audit.json", tmp_path / f"{match.pk}.record.json"
    audit_path.write_text(json.dumps(audit))
    record_path.write_text(json.dumps(record))
    return audit_path, record_path


def test_a_log_exported_later_still_holds_the_checkpointed_head(saved, two_matches, clients, world, tmp_path, keyed):
    from audit_helpers import simulated

    from games.write import services as games

    checkpoint_path, heads_path = saved
    growing = two_matches[1]
    games.deal_start(match_id=growing.pk, actor=world.users["sam"], hands=simulated(2)["deals"][1]["hands"])
    audit_path, record_path = _export(clients, growing, tmp_path)

    assert (
        kierki(
            "verify-checkpoint",
            checkpoint_path,
            heads_path,
            "--public-key",
            keyed,
            "--audit",
            audit_path,
            "--record",
            record_path,
        )
        == EXIT_OK
    )


def test_a_rewritten_history_or_a_different_record_is_caught_offline(saved, two_matches, clients, tmp_path, keyed):
    checkpoint_path, heads_path = saved
    audit_path, record_path = _export(clients, two_matches[0], tmp_path)
    exported = json.loads(audit_path.read_text())

    edited = json.loads(json.dumps(exported))
    edited["events"][9]["payload"]["card"] = "2C" if edited["events"][9]["payload"]["card"] != "2C" else "3C"
    edited_path = tmp_path / "edited.audit.json"
    edited_path.write_text(json.dumps(edited))
    assert checkpoints.verify_log(
        str(two_matches[0].pk), edited["events"], json.loads(heads_path.read_text())
    ).reason.startswith("hash mismatch at seq 10")
    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--audit", edited_path) == EXIT_ILLEGAL

    heads = json.loads(heads_path.read_text())  # a log cut short misses the signed head
    shortened = exported["events"][:-1]
    assert not checkpoints.verify_log(str(two_matches[0].pk), shortened, heads).ok

    record = json.loads(record_path.read_text())
    record["deals"][0]["plays"][0], record["deals"][0]["plays"][1] = (
        record["deals"][0]["plays"][1],
        record["deals"][0]["plays"][0],
    )
    record_path.write_text(json.dumps(record))
    assert (
        kierki("verify-checkpoint", checkpoint_path, heads_path, "--audit", audit_path, "--record", record_path)
        == EXIT_ILLEGAL
    )
    assert kierki("verify-checkpoint", checkpoint_path, heads_path, "--record", record_path) == EXIT_UNREADABLE


# --- keys, settings, the beat job --------------------------------------------------------------------------------


def test_debug_falls_back_to_a_deterministic_dev_key_and_production_refuses(settings, db):
    settings.CHECKPOINT_SIGNING_KEY = ""
    settings.DEBUG = True
    assert checkpoints.public_key_b64(signing_key()) == checkpoints.public_key_b64(signing_key())

    settings.DEBUG = False
    with pytest.raises(ImproperlyConfigured):
        signing_key()
    with pytest.raises(CommandError, match="CHECKPOINT_SIGNING_KEY"):
        call_command("checkpoint", stdout=StringIO())


def test_a_malformed_key_in_the_environment_stops_start_up():
    env = {**os.environ, "CHECKPOINT_SIGNING_KEY": "bm90IDMyIGJ5dGVz", "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert done.returncode != 0 and "CHECKPOINT_SIGNING_KEY" in done.stderr


def test_generate_key_prints_a_usable_key():
    out = StringIO()
    call_command("checkpoint", "--generate-key", stdout=out)

    line = out.getvalue().splitlines()[0]
    assert line.startswith("CHECKPOINT_SIGNING_KEY=")
    checkpoints.private_key_from_b64(line.partition("=")[2])


def test_the_beat_job_signs_logs_and_saves_a_checkpoint(two_matches, keyed, settings, tmp_path, caplog):
    settings.CHECKPOINT_DIR = str(tmp_path)
    caplog.set_level("INFO", logger="games.tasks")

    checkpoint = tasks.take_checkpoint.delay().get()

    assert checkpoints.verify_checkpoint(checkpoint, current_heads(), public_key=keyed).ok
    assert any("checkpoint" in r.message and checkpoint["signature"] in r.message for r in caplog.records)
    assert len(list(tmp_path.glob("*.heads.json"))) == 1
    assert {"audit-matches-nightly", "checkpoint-hourly"} <= set(settings.CELERY_BEAT_SCHEDULE)


# --- the kierki command stays Django-free ----------------------------------------------------------------------


def test_the_kierki_command_imports_no_django_even_to_verify_a_checkpoint(saved, keyed):
    checkpoint_path, heads_path = saved
    code = (
        "import sys; from games.cli.main import main; status = main(sys.argv[1:]); "
        "assert not [m for m in sys.modules if m == 'django' or m.startswith('django.')], 'django imported'; "
        "sys.exit(status)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code, "verify-checkpoint", str(checkpoint_path), str(heads_path), "--public-key", keyed],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.count(": ok") == 1


def test_the_beat_job_without_a_key_in_production_logs_an_error_instead(settings, db, caplog):
    settings.CHECKPOINT_SIGNING_KEY, settings.DEBUG = "", False

    assert tasks.take_checkpoint.delay().get() is None
    assert any(r.levelname == "ERROR" and "CHECKPOINT_SIGNING_KEY" in r.getMessage() for r in caplog.records)
