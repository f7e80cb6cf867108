"""`gamenight verify [DB]`: is this database sound? SQLite's own integrity check first, then
every match replayed from its move log and every rating rebuilt (bot/operations/audit.py). One
line per problem and a summary; exit status 1 on any problem, 0 when there is none. Read it
on a copy, or with the bot stopped: replaying every match takes a while on a big database."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

from bot.app.config import ConfigError, db_path, environment
from bot.matches.service import MatchService
from bot.operations.audit import match_problems, rating_problems
from bot.storage.database import is_url, safe_url
from bot.storage.errors import StoreUnavailable
from bot.storage.migrations import MIGRATIONS
from bot.storage.snapshots import connect, integrity_problems, schema_version
from bot.storage.store import Store


def behind(path: Path) -> str | None:
    """Why verify leaves this SQLite file alone: this release would have to migrate it first
    (verify only reads), or None."""
    try:
        with closing(connect(path)) as conn:
            version = schema_version(conn)
    except sqlite3.DatabaseError:
        return None  # a damaged file: the integrity check says how
    if version >= len(MIGRATIONS):
        return None
    return (f"{path} is at schema version {version}, older than this Gamenight's "
            f"({len(MIGRATIONS)}), and verify changes nothing: verify it with the release that "
            "wrote it, or start this release on it first (it migrates the database)")


def file_problems(path: Path) -> list[str]:
    """What SQLite's integrity check finds in the file (blocking: run in a thread)."""
    try:
        with closing(connect(path)) as conn:
            return [f"integrity: {line}" for line in integrity_problems(conn)]
    except FileNotFoundError as error:
        return [str(error)]
    except sqlite3.DatabaseError as error:
        return [f"integrity: {error}"]


async def verify(location: Path | str, say=print) -> int:
    """Check the database; how many problems were found (each said on its own line)."""
    problems = 0 if is_url(location) else await _say_all(
        say, await asyncio.to_thread(file_problems, Path(location)))
    if problems:  # the file itself is damaged: reading its rows would only fail
        say(f"checked {location}: the file is damaged, {problems} problem(s); restore the "
            "last backup (gamenight restore)")
        return problems
    try:
        store = await Store.open(location)
    except StoreUnavailable as error:
        say(f"the database does not open: {error}")
        return 1
    try:
        service = MatchService(store)
        matches = len(await store.table_rows("matches", ["id"]))
        async for problem in match_problems(service, _progress):
            say(problem)
            problems += 1
        async for problem in rating_problems(service):
            say(problem)
            problems += 1
    except sqlite3.DatabaseError as error:
        say(f"the database cannot be read through: {error}")
        problems += 1
        matches = 0
    finally:
        await store.close()
    say(f"checked {safe_url(str(location))}: integrity, {matches:,} matches replayed from "
        f"their moves, ratings rebuilt from the results: "
        + (f"{problems} problem(s)" if problems else "no problem"))
    return problems


def _progress(done: int, total: int) -> None:
    print(f"gamenight verify: {done:,} of {total:,} matches replayed", file=sys.stderr,
          flush=True)


async def _say_all(say, lines: list[str]) -> int:
    for line in lines:
        say(line)
    return len(lines)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("database", nargs="?", metavar="DB",
                        help="an SQLite file or a postgresql:// URL (default: GAMENIGHT_DB)")


def run(args: argparse.Namespace) -> int:
    try:
        location = db_path(args.database or environment().get("GAMENIGHT_DB", ""))
    except ConfigError as error:
        print(f"gamenight verify: {error}", file=sys.stderr)
        return 2
    if not is_url(location) and not Path(location).is_file():
        print(f"gamenight verify: there is no SQLite database at {location}", file=sys.stderr)
        return 2
    why = None if is_url(location) else behind(Path(location))
    if why is not None:
        print(f"gamenight verify: {why}", file=sys.stderr)
        return 2
    problems = asyncio.run(verify(location))
    if problems:
        print(f"gamenight verify: {problems} problem(s) found", file=sys.stderr)
    return 1 if problems else 0
