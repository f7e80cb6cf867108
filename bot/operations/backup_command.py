"""`gamenight backup [--to DIR] [--keep N] [--db DB]`: back up the database while the bot runs
(bot/operations/backups.py). DB defaults to GAMENIGHT_DB, DIR to GAMENIGHT_BACKUP_DIR (else
./backups), N to GAMENIGHT_BACKUP_KEEP (else every backup stays)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.app.config import ConfigError, backup_keep, db_path, environment
from bot.operations.backups import BackupFailed, take_backup
from bot.storage.database import safe_url


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--to", dest="directory", type=Path,
                        help="the directory to write it to (default: GAMENIGHT_BACKUP_DIR, "
                        "else ./backups)")
    parser.add_argument("--keep", type=int, metavar="N",
                        help="then keep only the newest N backups there (default: "
                        "GAMENIGHT_BACKUP_KEEP, else all)")
    parser.add_argument("--db", help="the database: an SQLite file or a postgresql:// URL "
                        "(default: GAMENIGHT_DB, else gamenight.db)")


def run(args: argparse.Namespace) -> int:
    values = environment()
    try:
        location = db_path(args.db or values.get("GAMENIGHT_DB", ""))
        directory = args.directory or Path(values.get("GAMENIGHT_BACKUP_DIR", "").strip()
                                           or "backups")
        keep = args.keep if args.keep is not None else backup_keep(
            values.get("GAMENIGHT_BACKUP_KEEP", ""), default=None)
        if keep is not None and keep < 1:
            raise ConfigError("--keep must be at least 1")
        backup = take_backup(location, directory, keep)
    except (ConfigError, BackupFailed) as error:
        print(f"gamenight backup: {error}", file=sys.stderr)
        return 2
    rows = (f", {backup.rows:,} rows, schema version {backup.schema_version}"
            if backup.schema_version is not None else "")
    print(f"backed up {safe_url(str(location))} to {backup.path} "
          f"({backup.size / 1e6:.1f} MB{rows})")
    for old in backup.removed:
        print(f"removed the older backup {old}")
    return 0

