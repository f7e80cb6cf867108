"""Safe upgrades, on SQLite and PostgreSQL: a database a newer Gamenight brought up to date is
refused at start-up (and by `gamenight migrate`) without a change, and a migration killed half-way
(kill -9 of the process running it) leaves the database as it was, the next start completing it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bot.storage.migrations as migrations_module
from bot.matches.service import MatchService
from bot.storage.database import is_url
from bot.storage.errors import SchemaTooNew
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Store
from tests import stores
from tests.bot.conftest import ALICE

ROOT = Path(__file__).resolve().parents[3]
KNOWN = len(MIGRATIONS)

# "The next release": one more migration, harmless to the code that does not know it.
NEXT = """
CREATE TABLE upgrade_probe (id INTEGER PRIMARY KEY, note TEXT NOT NULL);
INSERT INTO upgrade_probe (id, note) VALUES (1, 'half-way');
ALTER TABLE matches ADD COLUMN upgrade_note TEXT;
"""

# A process that runs the next release's migrations and stops dead in the middle of NEXT (after
# its INSERT, before its version is written), saying so in the file `ready`.
HALF_WAY = r"""
import asyncio, pathlib, sys, time
import bot.storage.migrations as migrations
from bot.storage import database
from bot.storage.store import Store

location, ready, script = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
migrations.MIGRATIONS = migrations.MIGRATIONS + (script,)

def blocking(execute):
    async def run(self, sql, params=()):
        done = await execute(self, sql, params)
        if "INSERT INTO upgrade_probe" in sql:
            ready.write_text("in the middle")
            time.sleep(3600)  # the whole process stops here, its transaction open
        return done
    return run

for kind in (database.SqliteConnection, database.PostgresConnection):
    kind.execute = blocking(kind.execute)
asyncio.run(Store.open(location))
"""


@pytest.fixture(params=["sqlite", "postgresql"])
async def location(request, tmp_path):
    """A database of each kind, brought up to date by this release, holding one lobby."""
    if request.param == "sqlite":
        where: str | Path = tmp_path / "gamenight.db"
    else:
        await stores.require_postgresql("the upgrade tests on PostgreSQL")
        where = await stores.fresh_schema(tmp_path / "upgraded")
    store = await Store.open(where)
    try:
        await MatchService(store).open_lobby("reversi", guild_id=1, channel_id=7, creator=ALICE)
    finally:
        await store.close()
    return where


async def snapshot(location: str | Path) -> tuple:
    """The schema (every table, column, index and trigger), its version, and the rows of the
    tables a migration might touch."""
    if not is_url(location):
        conn = sqlite3.connect(location)
        try:
            schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            matches = conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        finally:
            conn.close()
        return schema, version, matches
    import asyncpg

    conn = await asyncpg.connect(str(location))
    try:
        schema = [tuple(r) for r in await conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY 1, 2")]
        indexes = [tuple(r) for r in await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "ORDER BY 1")]
        version = await conn.fetchval("SELECT MAX(version) FROM schema_version")
        matches = [tuple(r) for r in await conn.fetch("SELECT * FROM matches ORDER BY id")]
    finally:
        await conn.close()
    return schema + indexes, version, matches


async def set_version(location: str | Path, version: int) -> None:
    """What a newer release leaves behind: a schema version above this code's."""
    if not is_url(location):
        conn = sqlite3.connect(location)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.close()
        return
    import asyncpg

    conn = await asyncpg.connect(str(location))
    try:
        await conn.execute("UPDATE schema_version SET version = $1", version)
    finally:
        await conn.close()


def gamenight(*argv: str, db: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "not-a-token", "GAMENIGHT_DB": str(db),
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}  # nothing answers there
    return subprocess.run([sys.executable, "-m", "bot", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


async def test_a_database_from_a_newer_release_is_refused_and_left_alone(location):
    await set_version(location, KNOWN + 2)
    before = await snapshot(location)
    with pytest.raises(SchemaTooNew, match=f"version {KNOWN + 2}, newer than this Gamenight "
                                           f"knows \\({KNOWN}\\)"):
        await Store.open(location)
    assert await snapshot(location) == before


async def test_the_bot_and_migrate_stop_with_one_line_and_status_2_on_a_newer_database(
        location, tmp_path):
    await set_version(location, KNOWN + 1)
    before = await snapshot(location)

    started = gamenight(db=location, cwd=tmp_path)
    assert started.returncode == 2
    [line] = started.stderr.strip().splitlines()
    assert "newer than this Gamenight knows" in line and "Nothing was changed" in line
    assert "Traceback" not in started.stderr and "Discord" not in line  # never logged in

    copied = gamenight("migrate", "--from", str(location), "--to", str(tmp_path / "copy.db"),
                       db=location, cwd=tmp_path)
    assert copied.returncode == 2
    [line] = copied.stderr.strip().splitlines()
    assert line.startswith("gamenight migrate: ") and "newer than this Gamenight knows" in line
    assert await snapshot(location) == before


async def test_a_migration_killed_half_way_leaves_the_database_as_it_was_and_the_next_start_completes_it(
        location, tmp_path, monkeypatch):
    before = await snapshot(location)
    ready = tmp_path / "ready"
    child = subprocess.Popen([sys.executable, "-c", HALF_WAY, str(location), str(ready), NEXT],
                             cwd=ROOT)
    try:
        deadline = time.monotonic() + 60  # a safety limit, never reached when it works
        while not ready.exists():
            assert child.poll() is None, "the migrating process ended before the middle"
            assert time.monotonic() < deadline, "the migrating process never got half-way"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL

    after = await snapshot(location)
    assert after == before  # no table, column, row or version of the half-run migration
    assert after[1] == KNOWN

    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS + (NEXT,))
    store = await Store.open(location)  # the next start
    try:
        assert await store.schema_version() == KNOWN + 1
        async with store.transaction() as db:
            rows = await db.fetchall("SELECT id, note FROM upgrade_probe")
            assert [tuple(row) for row in rows] == [(1, "half-way")]
            assert await db.fetchval("SELECT COUNT(*) FROM matches WHERE upgrade_note IS NULL") == 1
    finally:
        await store.close()
