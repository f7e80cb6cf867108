"""An SQLite file as a whole, for the operator's commands (bot/operations/): a consistent copy
of a live database, its schema version, its tables' row counts and checksums, its integrity.

Plain `sqlite3` on a connection of its own, meant to run in a thread or a worker process:
nothing here touches the bot's connection or its event loop. The database is in WAL mode (bot/storage/database.py), so
the copy reads one snapshot while the bot goes on writing to the WAL: the backup API copies
every page in one step, under one read transaction. (Stepped a few pages at a time, the copy
would start over after every write another connection makes, and never end on a busy bot.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from bot.storage.copy import checksum
from bot.storage.tables import TABLES


class Digest(NamedTuple):
    rows: int
    checksum: str


def connect(path: Path, *, readonly: bool = True) -> sqlite3.Connection:
    """A connection of its own to an existing file (read-only unless asked)."""
    if not path.is_file():
        raise FileNotFoundError(f"there is no SQLite database at {path}")
    mode = "ro" if readonly else "rw"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=30)
    conn.execute("PRAGMA busy_timeout = 30000")
    return conn


def online_copy(source: Path, target: Path) -> None:
    """Copy the live database `source` to a new file `target` with SQLite's backup API."""
    with closing(connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst, pages=-1)
        dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def table_rows(conn: sqlite3.Connection, table: str) -> Iterator[tuple[Any, ...]]:
    """Every row of `table`, its columns in the order `gamenight migrate` reads them, by key
    (bot/storage/tables.py), streamed."""
    columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    names, key = ", ".join(columns), ", ".join(TABLES[table])
    yield from conn.execute(f"SELECT {names} FROM {table} ORDER BY {key}")


def digests(conn: sqlite3.Connection) -> dict[str, Digest]:
    """Each table's row count and checksum, as `gamenight migrate` computes them."""
    found = {}
    for table in TABLES:
        counted = Counted(table_rows(conn, table))
        digest = checksum(counted)
        found[table] = Digest(counted.count, digest)
    return found


class Counted:
    """Rows passed through once, counted on the way."""

    def __init__(self, rows: Iterator[tuple[Any, ...]]) -> None:
        self._rows = rows
        self.count = 0

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for row in self._rows:
            self.count += 1
            yield row


def integrity_problems(conn: sqlite3.Connection, *, quick: bool = False) -> list[str]:
    """What `PRAGMA integrity_check` finds (nothing: the file is sound); `quick_check` skips
    comparing the indexes with their tables, which makes it several times faster."""
    pragma = "quick_check" if quick else "integrity_check"
    found = [row[0] for row in conn.execute(f"PRAGMA {pragma}")]
    return [] if found == ["ok"] else found


def is_empty(path: Path) -> bool:
    """No file, an empty file, or a database without a table."""
    if not path.exists() or path.stat().st_size == 0:
        return True
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
