"""``manage.py backup make|restore|verify|drill``: backups that prove themselves (docs/operations.md).

- ``make --out DIR``: a signed checkpoint and its heads file, then the dump (PostgreSQL: pg_dump's
  custom format, ``<time>.dump``; SQLite: ``<time>.sqlite3``), all three in DIR;
- ``restore DUMP --into NAME``: into a NEW database (PostgreSQL: its name on the same server;
  SQLite: a new file); prints its ``DATABASE_URL``;
- ``verify --checkpoint FILE``: on the database in use (point ``DATABASE_URL`` at the restored
  one): every match audits clean and every head the checkpoint signed is in the log; prints what
  it checked; exits 1 naming each failing match;
- ``drill --out DIR``: make, restore into a fresh database, verify it there (a second process on
  the restored ``DATABASE_URL``), drop it (``--keep`` keeps it). Exit status: the verify's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils.translation import gettext, ngettext
from tqdm import tqdm

from games.domain import checkpoints
from games.models import Match
from games.read.backup_checks import BackupCheck, backup_verify
from games.write.backups import CHECKPOINT_SUFFIX, BackupError, backup_make, backup_restore, database_drop, is_postgres
from games.write.checkpointing import signing_key


class Command(BaseCommand):
    help = "Make a backup, restore it into a new database, and verify a restored database (or all three: drill)."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        make = actions.add_parser("make", help="a signed checkpoint and a dump of the database, in --out")
        make.add_argument("--out", metavar="DIR", required=True)
        restore = actions.add_parser("restore", help="restore a dump into a new database")
        restore.add_argument("dump", metavar="DUMP")
        restore.add_argument("--into", metavar="NAME", required=True, help="the new database (SQLite: a new file)")
        verify = actions.add_parser("verify", help="audit the database in use against a checkpoint")
        verify.add_argument("--checkpoint", metavar="FILE", help="default: the latest in CHECKPOINT_DIR")
        verify.add_argument("--heads", metavar="FILE", help="default: the checkpoint's <time>.heads.json")
        verify.add_argument("--public-key", help="the club's key (base64, or @file); default: the signing key's")
        verify.add_argument("--no-progress", action="store_true")
        drill = actions.add_parser("drill", help="make, restore into a fresh database, verify there, drop it")
        drill.add_argument("--out", metavar="DIR", required=True)
        drill.add_argument("--keep", action="store_true", help="keep the restored database")

    def handle(self, *args, action, **options):
        try:
            getattr(self, action)(**options)
        except (BackupError, ImproperlyConfigured, OSError, ValueError) as exc:
            raise CommandError(str(exc)) from None

    def make(self, *, out, **options):
        made = backup_make(out_dir=out)
        self.stdout.write(gettext("backup: %(dump)s") % {"dump": made.dump})
        self.stdout.write(gettext("checkpoint: %(checkpoint)s") % {"checkpoint": made.checkpoint})
        self.stdout.write(gettext("heads: %(heads)s") % {"heads": made.heads})
        return made

    def restore(self, *, dump, into, **options):
        url = backup_restore(dump=dump, into=into)
        self.stdout.write(gettext("restored into %(url)s") % {"url": url})
        return url

    def verify(self, *, checkpoint=None, heads=None, public_key=None, no_progress=False, **options):
        checkpoint_path = Path(checkpoint) if checkpoint else latest_checkpoint()
        heads_path = Path(heads) if heads else heads_beside(checkpoint_path)
        signed = json.loads(checkpoint_path.read_text(encoding="utf-8"))
        with tqdm(total=Match.objects.count(), unit="match", file=self.stderr, disable=no_progress) as bar:
            checked = backup_verify(
                checkpoint=signed,
                heads=json.loads(heads_path.read_text(encoding="utf-8")),
                public_key=key_text(public_key),
                progress=lambda _: bar.update(),
            )
        self.report(checked, checkpoint_path)

    def drill(self, *, out, keep=False, **options):
        made = self.make(out=out)
        into = drill_target(made.dump)
        url = self.restore(dump=made.dump, into=str(into))
        try:
            command = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "backup", "verify", "--no-progress"]
            command += ["--checkpoint", str(made.checkpoint), "--public-key", checkpoints.public_key_b64(signing_key())]
            verified = subprocess.run(command, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True)
            self.stdout.write(verified.stdout.rstrip())
            if verified.returncode:
                said = verified.stderr.strip().splitlines() or [gettext("the verify failed")]
                raise CommandError(said[-1], returncode=verified.returncode)
        finally:
            if not keep:
                drop(into)

    def report(self, checked: BackupCheck, checkpoint_path: Path) -> None:
        signed = checked.checkpoint
        self.stdout.write(
            gettext("checked %(matches)s matches, %(events)s events")
            % {"matches": checked.matches, "events": checked.events}
        )
        self.stdout.write(
            gettext("checkpoint %(name)s (time %(time)s, heads_hash %(hash)s): %(heads)s heads checked")
            % {
                "name": checkpoint_path.name,
                "time": signed.get("time"),
                "hash": str(signed.get("heads_hash"))[:16],
                "heads": checked.heads_checked,
            }
        )
        if checked.checkpoint_failure:
            self.stdout.write(gettext("checkpoint fails: %(reason)s") % {"reason": checked.checkpoint_failure})
        for match_id, failures in checked.failing.items():
            for failure in failures:
                self.stdout.write(gettext("match %(id)s: %(failure)s") % {"id": match_id, "failure": failure})
        if not checked.ok:
            raise CommandError(
                ngettext(
                    "the backup fails: %(count)s match fails",
                    "the backup fails: %(count)s matches fail",
                    len(checked.failing),
                )
                % {"count": len(checked.failing)},
                returncode=1,
            )
        self.stdout.write(self.style.SUCCESS(gettext("the backup verifies: every match audits, every head is kept")))


def latest_checkpoint() -> Path:
    folder = getattr(settings, "CHECKPOINT_DIR", "")
    found = sorted(Path(folder).glob(f"*{CHECKPOINT_SUFFIX}")) if folder else []
    if not found:
        raise CommandError(gettext("no checkpoint: give --checkpoint FILE (or set CHECKPOINT_DIR)"))
    return found[-1]


def heads_beside(checkpoint_path: Path) -> Path:
    return checkpoint_path.with_name(checkpoint_path.name.removesuffix(CHECKPOINT_SUFFIX) + ".heads.json")


def key_text(value: str | None) -> str | None:
    """A public key given as base64, or as ``@file`` holding it; None: the configured signing key's."""
    if value is None:
        return checkpoints.public_key_b64(signing_key())
    return Path(value[1:]).read_text(encoding="utf-8").strip() if value.startswith("@") else value


def drill_target(dump: Path) -> str | Path:
    """Where a drill restores: a new database named after the configured one and the backup's time."""
    stamp = dump.stem.lower()
    if is_postgres():
        return f"{connection.settings_dict['NAME']}_drill_{stamp}"[:63]
    return dump.with_name(f"{dump.stem}.drill.sqlite3")


def drop(target: str | Path) -> None:
    if is_postgres():
        database_drop(str(target))
    else:
        Path(target).unlink(missing_ok=True)
