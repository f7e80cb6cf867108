"""`gamenight restore BACKUP --to TARGET [--force]`: unpack a backup of an SQLite database
(`gamenight backup`) and check every table's row count and checksum against its manifest
before it takes TARGET's place. A TARGET that holds a database is only replaced with --force
(stop the bot first). A PostgreSQL dump is restored with pg_restore; this says how."""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from contextlib import closing
from pathlib import Path

from bot.operations.backups import CHUNK, manifest_of
from bot.storage.snapshots import connect, digests, is_empty, schema_version


class RestoreRefused(Exception):
    """Nothing was restored; the message says why."""


class BackupDamaged(RestoreRefused):
    """The backup cannot be unpacked, or differs from its manifest."""


def restore(backup: Path, target: Path, *, force: bool = False) -> list[str]:
    """Restore `backup` to `target`; the lines to print. Raises `RestoreRefused` (target
    untouched) when the backup is missing, unreadable or does not match its manifest."""
    if backup.name.endswith(".dump"):
        raise RestoreRefused(f"{backup} is a PostgreSQL dump: restore it with `pg_restore "
                             f"--clean --if-exists --no-owner --dbname=postgresql://... {backup}`")
    if not backup.is_file():
        raise RestoreRefused(f"there is no backup at {backup}")
    manifest_path = manifest_of(backup)
    if not manifest_path.is_file():
        raise RestoreRefused(f"{manifest_path.name}, the manifest written with the backup, is "
                             "missing: without it the copy cannot be checked")
    if not force and not is_empty(target):
        raise RestoreRefused(f"{target} already holds a database: restore to a new path, or "
                             "add --force to replace it (stop the bot first)")
    manifest = json.loads(manifest_path.read_text())
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".restoring-{target.name}")
    try:
        unpack(backup, partial)
        lines = check(partial, manifest)
        for suffix in ("-wal", "-shm"):  # a replaced database's journal must not replay
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return lines


def unpack(backup: Path, to: Path) -> None:
    try:
        with gzip.open(backup, "rb") as packed, open(to, "wb") as raw:
            shutil.copyfileobj(packed, raw, CHUNK)
    except (OSError, EOFError) as error:
        raise BackupDamaged(f"{backup} cannot be unpacked ({error}): it is damaged") from None


def check(database: Path, manifest: dict) -> list[str]:
    """Each table as the manifest says, or `RestoreRefused` naming the ones that differ."""
    with closing(connect(database)) as conn:
        version, found = schema_version(conn), digests(conn)
    differ = [f"{table} ({found[table].rows} rows, {want['rows']} in the manifest)"
              for table, want in manifest["tables"].items()
              if table not in found or (found[table].rows, found[table].checksum)
              != (want["rows"], want["checksum"])]
    if differ or version != manifest["schema_version"]:
        raise BackupDamaged("the backup does not match its manifest: "
                             + (", ".join(differ) or f"schema version {version}"))
    rows = sum(d.rows for d in found.values())
    return [f"checked: {len(found)} tables, {rows:,} rows, schema version {version}; counts "
            "and checksums agree with the manifest"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("backup", type=Path, metavar="BACKUP",
                        help="a backup file (gamenight-...Z.db.gz) with its manifest beside it")
    parser.add_argument("--to", dest="target", type=Path, required=True,
                        help="the SQLite file to restore to (GAMENIGHT_DB of the bot)")
    parser.add_argument("--force", action="store_true",
                        help="replace a database already there (stop the bot first)")


def run(args: argparse.Namespace) -> int:
    try:
        lines = restore(args.backup, args.target, force=args.force)
    except RestoreRefused as error:
        print(f"gamenight restore: {error}", file=sys.stderr)
        return 1 if isinstance(error, BackupDamaged) else 2
    except Exception as error:  # a file that is not SQLite at all, a full disk...
        print(f"gamenight restore: {args.backup} could not be restored: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    print(f"restored {args.backup} to {args.target}")
    return 0
