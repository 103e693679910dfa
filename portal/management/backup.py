"""Backups of the one thing that holds state: the database (uploads are not kept as files;
imported job files live in the database with their revisions).

PostgreSQL: pg_dump's custom format, restored with pg_restore (same major version or newer).
SQLite (the embedded default): the online backup API, a consistent copy even while the
portal is serving. A backup's first bytes say which it is, so a dump is never restored into
the other kind of database.

Maintenance, not a page: the two databases have no common dump format, so this module (like
bulk ingest and full-text search, tests/test_house_rules.py) asks which one it is talking to."""

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.db import connection

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """Said to the operator as it is: what went wrong and what to do."""


def suffix():
    return ".sqlite3" if connection.vendor == "sqlite" else ".dump"


def backup(path: Path | str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        with sqlite3.connect(path) as copy:
            connection.connection.backup(copy)
        copy.close()
    else:
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={path}")
    return path


def restore(path: Path | str) -> None:
    """Replace the database's content with the backup's. Stop the web server and the worker
    first: on PostgreSQL the restore runs in one transaction and fails rather than half-apply."""
    path = Path(path)
    try:
        head = path.open("rb").read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f"Cannot read {path}: {error.strerror}.") from None
    kind = "sqlite" if head == SQLITE_MAGIC else "postgresql" if head.startswith(PG_MAGIC) else ""
    if not kind:
        raise BackupError(f"{path} is not a backup made by `manage.py backup`.")
    if kind != (vendor := connection.vendor):
        raise BackupError(f"{path} is a {kind} backup; this portal's database is {vendor}.")
    if kind == "sqlite":
        connection.ensure_connection()
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source:
            source.backup(connection.connection)
        source.close()
    else:
        connection.close()  # pg_restore drops the tables this connection may hold locks on
        _pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
            "--exit-on-error", str(path), dbname=True)  # fmt: skip


def _pg(program, *args, dbname=False):
    if not shutil.which(program):
        raise BackupError(f"{program} is not installed (Debian: postgresql-client).")
    settings = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": str(settings.get("PASSWORD") or "")}
    for variable, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER")):
        if settings.get(key):
            env[variable] = str(settings[key])
    target = ["--dbname", settings["NAME"]] if dbname else [settings["NAME"]]
    done = subprocess.run([program, *args, *target], env=env, capture_output=True, text=True)
    if done.returncode:
        raise BackupError(f"{program} failed: {done.stderr.strip()[-2000:]}")
