"""The store under stress: cancelled writes, another process holding the database, reads
during writes, two instances migrating at once, a file that is not a database, and the one
commit that seats the last player and starts the match."""

import asyncio
import sqlite3
import threading

import pytest

import bot.storage.migrations as migrations_module
from bot.matches.errors import NotSeated
from bot.storage.errors import StoreUnavailable
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Store
from tests.bot.conftest import ALICE, BOB

pytestmark = pytest.mark.sqlite_only  # the SQLite file and its connection

CHANNEL = 555


async def started_reversi(service):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     seed=11)
    return await service.join(lobby.id, BOB)


async def test_a_write_cancelled_while_it_waits_leaves_the_connection_usable(service, store):
    match = await started_reversi(service)
    task = asyncio.create_task(store.set_message(match.id, board=1234))
    await asyncio.sleep(0)  # the task is waiting for BEGIN
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.set_message(match.id, board=99)
    assert not store._db.raw.in_transaction
    assert (await store.get_match(match.id)).board_message_id == 99


async def test_a_move_that_timed_out_behind_another_writer_can_be_made_again(
        service, db_path):
    match = await started_reversi(service)
    mover = match.player(match.state.black_seat).user_id
    other = sqlite3.connect(db_path, isolation_level=None)  # another process writing
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(service.act(CHANNEL, mover, "d3"), 0.3)
    other.execute("ROLLBACK")
    other.close()
    result = await service.act(CHANNEL, mover, "d3")
    assert result.action == "d3"
    assert [m.action for m in await service.store.moves(match.id)] == ["d3"]


async def test_reads_never_see_a_write_half_done(service, store):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     seed=11)
    seen, refused = set(), []
    joined = asyncio.Event()

    async def alice_looks():  # /match hand and the like read outside the channel lock
        while not joined.is_set():
            try:
                await service.seated(CHANNEL, ALICE.user_id)
            except NotSeated as error:
                refused.append(str(error))
            row = await store.get_match(lobby.id)
            seen.add((row.status, len(row.seats)))
            await asyncio.sleep(0)

    async def bob_joins():
        await asyncio.sleep(0)
        await service.join(lobby.id, BOB)
        joined.set()

    await asyncio.gather(alice_looks(), bob_joins())
    assert refused == []
    assert seen <= {("lobby", 1), ("active", 2)}


async def test_the_last_seat_and_the_start_are_one_commit(service, store, monkeypatch):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    commits = []
    begin = store.transaction

    def counted():
        commits.append(1)
        return begin()

    monkeypatch.setattr(store, "transaction", counted)
    match = await service.join(lobby.id, BOB)
    assert match.status == "active" and len(match.seats) == 2 and len(commits) == 1


async def test_two_instances_can_open_and_migrate_one_database_at_once(db_path, monkeypatch):
    async def open_twice():
        stores = await asyncio.gather(Store.open(db_path), Store.open(db_path))
        versions = [await s.schema_version() for s in stores]
        for s in stores:
            await s.close()
        return versions

    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS[:1])
    assert await open_twice() == [1, 1]  # a new database
    monkeypatch.undo()
    assert await open_twice() == [len(MIGRATIONS)] * 2  # both upgrading it


async def test_a_file_that_is_not_a_database_is_refused_and_released(tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not an SQLite database " * 40)
    def workers() -> set[threading.Thread]:  # aiosqlite's connection threads
        return {t for t in threading.enumerate() if "_connection_worker" in t.name}

    before = workers()
    with pytest.raises(StoreUnavailable, match=f"cannot use the database {broken}"):
        await Store.open(broken)
    for _ in range(100):  # the closed connection's thread ends on its own time
        if not workers() - before:
            break
        await asyncio.sleep(0.01)
    assert not workers() - before  # no connection thread left to keep the process alive
