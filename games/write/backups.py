"""Backups of the whole database, and their restore into a fresh one (docs/operations.md, "Backups").

- PostgreSQL: ``pg_dump --format=custom`` of the configured database, restored with ``pg_restore``
  into a database created for it (one that exists already is refused: a restore never mixes rows);
- SQLite (the embedded mode): a consistent copy through SQLite's online backup API (a plain file
  copy may catch a write half done), restored to a new file.

``backup_make`` signs a checkpoint (``games.write.checkpointing``) just before the dump: every head
it signs is in the dump, so the restored database must still pass through each of them
(``games.read.backup_checks``).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg
from django.db import connection
from psycopg import sql

from games.write.checkpointing import checkpoint_take

CHECKPOINT_SUFFIX = ".checkpoint.json"


class BackupError(Exception):
    """A backup or a restore that could not be made (the tool's own message in it)."""


@dataclass(frozen=True)
class Backup:
    dump: Path
    checkpoint: Path
    heads: Path


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


def backup_make(*, out_dir: str | Path) -> Backup:
    """A signed checkpoint, then the dump beside it (same name stem)."""
    taken = checkpoint_take(out_dir=out_dir)
    stem = taken.checkpoint_path.name.removesuffix(CHECKPOINT_SUFFIX)
    if is_postgres():
        dump = taken.checkpoint_path.with_name(f"{stem}.dump")
        _run(["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", _database()["NAME"]])
    else:
        dump = taken.checkpoint_path.with_name(f"{stem}.sqlite3")
        _sqlite_copy(Path(_database()["NAME"]), dump)
    return Backup(dump, taken.checkpoint_path, taken.heads_path)


def backup_restore(*, dump: str | Path, into: str) -> str:
    """Restore ``dump`` into a new database ``into`` (PostgreSQL: its name, on the configured
    server; SQLite: a file path that must not exist). Returns its ``DATABASE_URL``."""
    dump = Path(dump)
    if not dump.is_file():
        raise BackupError(f"no backup file {dump}")
    if not is_postgres():
        target = Path(into)
        if target.exists():
            raise BackupError(f"{target} exists: a backup is restored into a new file only")
        _sqlite_copy(dump, target)
        return f"sqlite:///{target.resolve()}"
    _create_database(into)
    _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", f"--dbname={into}", str(dump)])
    return database_url(into)


def database_drop(name: str) -> None:
    """Drop a PostgreSQL database made by ``backup_restore`` (a drill's, once verified)."""
    with _maintenance() as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def database_url(name: str) -> str:
    """The ``DATABASE_URL`` of database ``name`` on the configured PostgreSQL server."""
    db = _database()
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    user = quote(db.get("USER") or "", safe="")
    host, port = db.get("HOST") or "localhost", db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{quote(name, safe='')}"


# --- the tools and the server -------------------------------------------------------------------


def _database() -> dict:
    return connection.settings_dict


def _libpq_env() -> dict[str, str]:
    """The environment pg_dump and pg_restore read the server's address from (no password on argv)."""
    db = _database()
    values = {"PGHOST": db.get("HOST"), "PGPORT": db.get("PORT"), "PGUSER": db.get("USER")}
    values["PGPASSWORD"] = db.get("PASSWORD")
    return {**os.environ, **{name: str(value) for name, value in values.items() if value}}


def _run(command: list[str]) -> None:
    try:
        subprocess.run(command, env=_libpq_env(), check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupError(f"{command[0]} is not installed (the PostgreSQL client tools)") from None
    except subprocess.CalledProcessError as failed:
        raise BackupError(f"{command[0]} failed: {failed.stderr.strip()}") from None


def _maintenance() -> psycopg.Connection:
    """A connection to the server's ``postgres`` database, to create and drop databases."""
    db = _database()
    return psycopg.connect(
        dbname="postgres",
        host=db.get("HOST") or None,
        port=db.get("PORT") or None,
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        autocommit=True,
    )


def _create_database(name: str) -> None:
    with _maintenance() as admin:
        try:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.errors.DuplicateDatabase:
            raise BackupError(f"database {name} exists: a backup is restored into a new database only") from None


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy even while the source is written."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source} is not a SQLite database: {exc}") from None
    finally:
        dst.close()
        src.close()
