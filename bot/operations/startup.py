"""A damaged database at start-up: found before the bot connects (SQLite's quick check), or
when a read fails on it later, it stops the bot with one line that says what to do: see what
is wrong with `gamenight verify`, and restore the newest backup."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.operations.backups import backups_in
from bot.storage.database import is_url
from bot.storage.snapshots import connect, integrity_problems

CORRUPT, NOT_A_DATABASE = 11, 26  # SQLite's result codes


class DatabaseDamaged(Exception):
    """The SQLite file is damaged; the message says what was found."""


def is_damage(error: BaseException) -> bool:
    """A driver error that says the file is damaged (not busy, locked or read-only)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.DatabaseError) and code is not None and (
        code & 0xFF in (CORRUPT, NOT_A_DATABASE))


def check_database(location: Path | str) -> None:
    """Raise `DatabaseDamaged` if SQLite's quick check finds the file damaged (blocking)."""
    if is_url(location) or not Path(location).is_file() or Path(location).stat().st_size == 0:
        return
    try:
        with closing(connect(Path(location))) as conn:
            found = integrity_problems(conn, quick=True)
    except sqlite3.DatabaseError as error:
        if not is_damage(error):
            return  # busy, locked, unreadable: Store.open says so in its own words
        found = [str(error)]
    if found:
        raise DatabaseDamaged("; ".join(found[:3]))


def damaged_line(location: Path | str, detail: str, backup_dir: Path | None) -> str:
    """The one line the bot stops with."""
    if backup_dir is None:
        where = ("GAMENIGHT_BACKUP_DIR is not set, so restore a backup of your own "
                 "(gamenight backup)")
    else:
        found = backups_in(backup_dir)
        where = (f"the newest backup is {found[-1]}: `gamenight restore {found[-1]} --to "
                 f"{location} --force` puts it back" if found else
                 f"there is no backup in {backup_dir} yet")
    wrong = " (or GAMENIGHT_DB names a file that is not Gamenight's)" if (
        "not a database" in detail) else ""
    return (f"cannot use the database {location}: it is damaged ({detail}){wrong}. Run "
            f"`gamenight verify {location}` to see what is wrong; {where}.")
