"""`gamenight migrate`: every match, move, record and setting copied between databases (SQLite
to SQLite, SQLite to PostgreSQL), verified by counts and checksums, and idempotent."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from bot.storage.copy import MigrationMismatch, migrate
from bot.matches.ratings import ALL_TIME
from bot.matches.service import MatchService
from bot.storage.rows import GuildSettings, LiveDM, NightSettings, NightTable
from bot.storage.store import Store
from bot.storage.tables import TABLES
from tests.bot.matches.test_records import PEOPLE, play

GUILD = 7


async def fill(path) -> dict:
    """A database with finished, running and cancelled matches, records and settings."""
    store = await Store.open(path)
    service = MatchService(store)
    await play(service, "reversi", PEOPLE[:2], channel=1, seed=3)
    await play(service, "scrabble", PEOPLE[1:4], channel=2, seed=3)
    await play(service, "doudizhu", PEOPLE[:3], channel=3, seed=3, rounds=2)
    lobby = await service.open_lobby("patchwork", guild_id=GUILD, channel_id=4,
                                     creator=PEOPLE[0], seed=5)
    running = await service.join(lobby.id, PEOPLE[1])
    seat = running.current_seat()
    running = (await service.act(4, running.player(seat).user_id, "pass")).match
    await store.keep_live_dm(LiveDM(running.id, 0, 99, 98, running.row.version, False))
    await store.set_guild_settings(GUILD, GuildSettings(turn_time="1h", language="gu",
                                                        web_pages=True))
    await store.set_notify(PEOPLE[2].user_id, False)
    night = await fill_night(store)
    facts = {"night": night, "running": running.id, "state": running.state,
             "token": await store.match_token(running.id),
             "server_token": await store.server_token(GUILD),
             "skills": await store.skills(GUILD, "reversi", ALL_TIME),
             "history": [row.match_id for row in await store.history(GUILD)]}
    await store.close()
    return facts


async def fill_night(store: Store) -> int:
    """A game night with its players, a round's tables, the host's log, settings and a season."""
    night = await store.create_night(guild_id=GUILD, channel_id=60, host_id=PEOPLE[0].user_id,
                                     game="reversi", format="swiss", options={"rounds": 2},
                                     start_at=1.8e9, seed=11)
    for person in PEOPLE[:3]:
        await store.put_player(night, person.user_id, person.name, checked_in=True,
                               state="playing")
    row = await store.get_night(night)
    await store.start_round(night, row.version, [
        NightTable(1, 1, (PEOPLE[0].user_id, PEOPLE[1].user_id), "done", result={"places": [1, 2]}),
        NightTable(1, 2, (PEOPLE[2].user_id,), "bye")], round=1, status="running")
    await store.log_night(night, 1.8e9, PEOPLE[0].user_id, "pause", {})
    await store.set_night_settings(GUILD, NightSettings("Asia/Taipei", 5))
    await store.start_season(GUILD, "Winter", 1.7e9)
    return night


async def check(target, facts) -> None:
    store = await Store.open(target)
    try:
        service = MatchService(store)
        assert await service.replay(facts["running"]) == facts["state"]
        assert (await service.get(facts["running"])).state == facts["state"]
        assert await store.match_of_token(facts["token"]) == facts["running"]
        assert await store.match_token(facts["running"]) == facts["token"]
        assert await store.skills(GUILD, "reversi", ALL_TIME) == facts["skills"]
        assert [row.match_id for row in await store.history(GUILD)] == facts["history"]
        assert (await store.guild_settings(GUILD)).language == "gu"
        assert (await store.guild_settings(GUILD)).web_pages is True
        assert await store.server_of_token(facts["server_token"]) == GUILD
        assert await store.server_token(GUILD) == facts["server_token"]
        assert await store.notify(PEOPLE[2].user_id) is False
        assert (await store.live_dm(facts["running"], 0)).message_id == 98
        tables = await store.night_tables(facts["night"])
        assert [t.status for t in tables] == ["done", "bye"] and tables[0].result["places"]
        assert len(await store.night_players(facts["night"])) == 3
        assert (await store.night_settings(GUILD)).time_zone == "Asia/Taipei"
        assert [s.name for s in await store.seasons(GUILD)] == ["Winter"]
        assert await store.create_night(guild_id=GUILD, channel_id=61, host_id=1, game="reversi",
                                        format="swiss", options={}, start_at=2e9,
                                        seed=1) > facts["night"]
        # new rows are numbered after the copied ones
        lobby = await service.open_lobby("reversi", guild_id=GUILD, channel_id=50,
                                         creator=PEOPLE[0])
        assert lobby.id > facts["running"]
        await service.join(lobby.id, PEOPLE[1])
    finally:
        await store.close()


async def copy_twice(source, target) -> None:
    facts = await fill(source)
    said: list[str] = []
    first = await migrate(source, target, said.append)
    assert [copy.table for copy in first] == list(TABLES)
    assert all(copy.added == copy.rows for copy in first)
    assert sum(copy.rows for copy in first) > 100 and said[-1].startswith("verified: 24 tables")
    again = await migrate(source, target, said.append)
    assert all(copy.added == 0 for copy in again)  # running it twice changes nothing
    assert [copy.checksum for copy in again] == [copy.checksum for copy in first]
    await check(target, facts)


@pytest.mark.sqlite_only
async def test_sqlite_to_sqlite(tmp_path):
    await copy_twice(tmp_path / "old.db", tmp_path / "new.db")


@pytest.mark.sqlite_only
async def test_sqlite_to_postgresql(tmp_path, pg_location):
    await copy_twice(tmp_path / "old.db", pg_location)


@pytest.mark.sqlite_only
async def test_a_target_with_other_rows_is_reported(tmp_path):
    await fill(tmp_path / "old.db")
    other = await Store.open(tmp_path / "other.db")
    await MatchService(other).open_lobby("reversi", guild_id=1, channel_id=9,
                                         creator=PEOPLE[3], seed=1)  # another match #1
    await other.close()
    with pytest.raises(MigrationMismatch, match="matches"):
        await migrate(tmp_path / "old.db", tmp_path / "other.db", lambda _line: None)


def test_the_command_says_what_is_wrong_in_one_line(tmp_path):
    argv = [sys.executable, "-m", "bot", "migrate", "--from", str(tmp_path / "missing.db"),
            "--to", str(tmp_path / "new.db")]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
    assert "there is no SQLite database at" in done.stderr
    assert not (tmp_path / "new.db").exists()
    asyncio.run(fill(tmp_path / "old.db"))
    argv[5] = str(tmp_path / "old.db")
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "verified: 24 tables" in done.stdout.splitlines()[-1]
