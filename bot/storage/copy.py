"""`gamenight migrate --from ./gamenight.db --to postgresql://...`: copy every match, move and
setting from one database to another (SQLite or PostgreSQL, either way), then verify the copy
table by table with row counts and checksums. Rows the target already holds (by key) are left
alone, so running it twice changes nothing. Stop the bot first: a match played during the copy
may be copied half-way (running it again completes it).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.config import ConfigError, db_path
from bot.storage.database import safe_url
from bot.storage.errors import StoreUnavailable
from bot.storage.store import Store
from bot.storage.tables import TABLES


class MigrationMismatch(Exception):
    """The target's rows differ from the source's after the copy; the message says where."""


@dataclass(frozen=True)
class TableCopy:
    table: str
    rows: int  # in the source
    added: int  # copied now (the rest were there already)
    checksum: str


def checksum(rows: Iterable[tuple[Any, ...]]) -> str:
    """A digest of the rows in key order; equal rows give equal digests in either database."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, default=str, separators=(",", ":")).encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


async def copy_database(source: Store, target: Store,
                        say: Callable[[str], None] = print) -> list[TableCopy]:
    """Copy every table from `source` to `target`, then check that they agree."""
    copies, mismatched = [], []
    for table in TABLES:
        columns = await source.columns(table)
        rows = await source.table_rows(table, columns)
        added = await target.copy_rows(table, columns, rows)
        there = await target.table_rows(table, columns)
        copy = TableCopy(table, len(rows), added, checksum(rows))
        if len(there) != len(rows) or checksum(there) != copy.checksum:
            mismatched.append(f"{table} ({len(rows)} rows here, {len(there)} there)")
        say(f"{table}: {len(rows)} rows, {added} copied, checksum {copy.checksum}")
        copies.append(copy)
    if mismatched:
        raise MigrationMismatch("the target holds other rows than the source in "
                                + ", ".join(mismatched))
    return copies


async def migrate(source: str | Path, target: str | Path,
                  say: Callable[[str], None] = print) -> list[TableCopy]:
    if str(source) == str(target):
        raise ConfigError("--from and --to name the same database")
    if not str(source).startswith(("postgresql://", "postgres://")) and not Path(source).is_file():
        raise ConfigError(f"there is no SQLite database at {source}")
    old = await Store.open(source)
    try:
        new = await Store.open(target)
        try:
            copies = await copy_database(old, new, say)
        finally:
            await new.close()
    finally:
        await old.close()
    say(f"verified: {len(copies)} tables, {sum(c.rows for c in copies)} rows; counts and "
        f"checksums agree in {safe_url(str(target))}")
    return copies


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", required=True,
                        help="the database to copy: an SQLite file or a postgresql:// URL")
    parser.add_argument("--to", dest="target", required=True,
                        help="the database to copy into (created or brought up to date)")


def run(args: argparse.Namespace) -> int:
    try:
        asyncio.run(migrate(db_path(args.source), db_path(args.target)))
    except (ConfigError, StoreUnavailable) as error:
        print(f"gamenight migrate: {error}", file=sys.stderr)
        return 2
    except MigrationMismatch as error:
        print(f"gamenight migrate: the copy does not agree: {error}", file=sys.stderr)
        return 1
    return 0
