"""Taking a backup: of an SQLite file, a consistent copy made while the bot runs (SQLite's
online backup API, bot/storage/snapshots.py), gzip-compressed, with a manifest beside it (the
schema version, each table's row count and checksum as `gamenight migrate` computes them); of
PostgreSQL, `pg_dump` in its custom format. Named by UTC time, so the newest sorts last, and
rotated: only the newest `keep` stay. Blocking: the bot runs it in a worker process
(bot/operations/schedule.py)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import tempfile
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import yarl

from bot.storage.database import is_url, safe_url
from bot.storage.snapshots import connect, digests, online_copy, schema_version

NAME = re.compile(r"^gamenight-(\d{8}T\d{6}Z)\.(db\.gz|dump)$")
MANIFEST_FORMAT = 1
CHUNK = 1 << 20


class BackupFailed(Exception):
    """The backup could not be taken; the message says why and what to do."""


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    rows: int  # in all tables (0 for a pg_dump)
    schema_version: int | None
    removed: tuple[Path, ...] = ()  # older backups rotated away


def stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def manifest_of(backup: Path) -> Path:
    """`gamenight-...Z.db.gz` -> `gamenight-...Z.json`."""
    return backup.with_name(backup.name.split(".", 1)[0] + ".json")


def backups_in(directory: Path) -> list[Path]:
    """The backups in `directory`, oldest first."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.iterdir() if NAME.match(p.name)), key=lambda p: p.name)


def taken_at(backup: Path) -> datetime:
    found = NAME.match(backup.name)
    assert found is not None
    return datetime.strptime(found.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)


def take_backup(location: Path | str, directory: Path, keep: int | None = None,
                now: datetime | None = None) -> Backup:
    """Back up the database at `location` (a file or a postgresql:// URL) into `directory`,
    then keep only the newest `keep` backups there (None: all)."""
    now = now or datetime.now(UTC)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if is_url(location):
            backup = dump_postgres(str(location), directory / f"gamenight-{stamp(now)}.dump")
        else:
            backup = backup_sqlite(Path(location), directory, now)
    except OSError as error:
        raise BackupFailed(f"cannot write the backup in {directory}: {error.strerror or error}")
    if keep is None:
        return backup
    return Backup(backup.path, backup.size, backup.rows, backup.schema_version,
                  rotate(directory, keep))


def backup_sqlite(source: Path, directory: Path, now: datetime) -> Backup:
    if not source.is_file():
        raise BackupFailed(f"there is no SQLite database at {source}")
    target = directory / f"gamenight-{stamp(now)}.db.gz"
    if target.exists():
        raise BackupFailed(f"{target} already exists (one backup a second at most)")
    with tempfile.TemporaryDirectory(dir=directory, prefix=".partial-") as scratch:
        copy = Path(scratch) / "copy.db"
        online_copy(source, copy)
        with closing(connect(copy)) as conn:
            version, tables = schema_version(conn), digests(conn)
        partial = Path(scratch) / target.name
        with open(copy, "rb") as raw, gzip.open(partial, "wb", compresslevel=6) as packed:
            shutil.copyfileobj(raw, packed, CHUNK)
        manifest = {
            "format": MANIFEST_FORMAT, "backup": target.name, "taken_at": now.isoformat(),
            "source": source.name, "schema_version": version,
            "tables": {name: {"rows": d.rows, "checksum": d.checksum}
                       for name, d in tables.items()},
        }
        manifest_of(target).write_text(json.dumps(manifest, indent=2) + "\n")
        partial.replace(target)  # last: a backup on disk always has its manifest
    return Backup(target, target.stat().st_size, sum(d.rows for d in tables.values()), version)


def dump_postgres(url: str, target: Path) -> Backup:
    if shutil.which("pg_dump") is None:
        raise BackupFailed(pg_dump_missing(url))
    partial = target.with_name(f".partial-{target.name}")
    done = subprocess.run(["pg_dump", "--format=custom", f"--file={partial}",
                           *pg_dump_source(url)], capture_output=True, text=True)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        message = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise BackupFailed(f"pg_dump failed for {safe_url(url)}: "
                           f"{message[0].replace(url, safe_url(url))}")
    partial.replace(target)
    return Backup(target, target.stat().st_size, 0, None)


def pg_dump_source(url: str) -> list[str]:
    """pg_dump's arguments for the database `url` names. A `search_path` in the URL (which
    asyncpg reads, but pg_dump's libpq refuses) becomes `--schema`: the schema Gamenight's
    tables are in."""
    parsed = yarl.URL(url)
    schema = parsed.query.get("search_path")
    if schema is None:
        return [f"--dbname={url}"]
    rest = {key: value for key, value in parsed.query.items() if key != "search_path"}
    return [f"--dbname={parsed.with_query(rest)}", f"--schema={schema}"]


def pg_dump_missing(url: str) -> str:
    return ("pg_dump is not installed here: install PostgreSQL's client tools (Debian/Ubuntu: "
            "apt-get install postgresql-client, the same major version as the server) or run "
            f"`pg_dump --format=custom --file=gamenight.dump '{safe_url(url)}'` where they are")


def rotate(directory: Path, keep: int) -> tuple[Path, ...]:
    """Delete all but the newest `keep` backups (and their manifests); the ones deleted."""
    old = backups_in(directory)[:-keep] if keep > 0 else []
    for path in old:
        path.unlink(missing_ok=True)
        manifest_of(path).unlink(missing_ok=True)
    return tuple(old)
