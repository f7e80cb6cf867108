"""A rolling upgrade on PostgreSQL with two processes (docs/upgrades.md): two bots of this release
(one per shard, each serving one server's two channels) share a schema; one is stopped and "the
next release" (this code with one more, harmless migration) started in its place, migrating the
schema while the other, older one goes on serving; then the other is replaced too. Moves are made
throughout, in every channel a running process serves, and none is refused or lost. Once the
schema is upgraded, a process of the old release refuses to start."""

from __future__ import annotations

import asyncio

import pytest

import bot.storage.migrations as migrations_module
from bot.matches.timekeeper import LEASE, RENEW_EVERY
from bot.storage.errors import SchemaTooNew
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Store
from tests.e2e_helpers import FakeClock, ReversiLedger, sharded_bot, sharded_world
from tests.fakediscord import run_bot

pytestmark = pytest.mark.e2e

# The next release's migration: a column and a table nothing of this release reads.
NEXT = """
ALTER TABLE matches ADD COLUMN release_note TEXT;
CREATE TABLE release_notes (version INTEGER PRIMARY KEY, note TEXT NOT NULL);
INSERT INTO release_notes (version, note) VALUES (13, 'rolling upgrade');
"""


class Process:
    """One bot process of a release, started and stopped by the test."""

    def __init__(self, fake, url, shard, clock) -> None:
        self._running = run_bot(sharded_bot(fake, url, shard, clock), fake)
        self.bot = None

    async def start(self):
        self.bot = await self._running.__aenter__()
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            self.bot = None
            await self._running.__aexit__(None, None, None)


async def test_a_rolling_upgrade_of_two_processes_loses_no_move(pg_location, monkeypatch):
    clock = FakeClock()
    async with sharded_world() as (fake, channels, users):
        ledger = ReversiLedger(fake, users)
        old = [Process(fake, pg_location, shard, clock) for shard in (0, 1)]
        new = [Process(fake, pg_location, shard, clock) for shard in (0, 1)]
        try:
            await upgrade(fake, channels, ledger, old, new, clock, pg_location, monkeypatch)
        finally:
            for process in old + new:
                await process.stop()

    store = await Store.open(pg_location)
    try:
        lost = await ledger.lost(store)
        async with store.transaction() as db:
            assert await db.fetchval("SELECT note FROM release_notes") == "rolling upgrade"
    finally:
        await store.close()
    assert ledger.refused == 0 and lost == []
    print(f"\nrolling upgrade: {ledger.tried} moves tried, {ledger.answered} answered, "
          f"{sum(map(len, ledger.acknowledged.values()))} acknowledged, {ledger.refused} refused, "
          f"{len(lost)} lost")


async def upgrade(fake, channels, ledger, old, new, clock, pg_location, monkeypatch):
    """Both processes of the old release, then one by one of the new (the steps of
    docs/upgrades.md), with moves made in every channel a running process serves."""
    running = {shard: await process.start() for shard, process in enumerate(old)}

    async def play(rounds=2):
        for _ in range(rounds):
            for shard, bot in running.items():
                for channel in channels[shard]:
                    await ledger.move(bot, channel)

    for shard, bot in running.items():
        for channel in channels[shard]:
            await ledger.open(bot, channel)
    await play()

    await old[0].stop()  # first process down: its server waits, the other plays on
    del running[0]
    await play()
    clock.advance(RENEW_EVERY)  # the lease, given up on stopping, is taken at the next tick
    await fake.wait_idle()
    assert running[1].timekeeper.holding

    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS + (NEXT,))
    # the next release starts (and migrates) while the old process serves moves
    started, _ = await asyncio.gather(new[0].start(), play(rounds=1))
    running[0] = started
    assert await started.store.schema_version() == len(MIGRATIONS) + 1
    await play()  # the old release and the new one side by side

    with pytest.raises(SchemaTooNew):  # an old process may no longer start
        monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS)
        await Store.open(pg_location)
    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS + (NEXT,))

    await old[1].stop()  # second process down: the new one plays on
    del running[1]
    await play()
    running[1] = await new[1].start()
    await play()

    clock.advance(RENEW_EVERY)
    await fake.wait_idle()
    holders = [bot for bot in running.values() if bot.timekeeper.holding]
    assert len(holders) == 1
    assert (await holders[0].store.lease(LEASE))[0] == holders[0].timekeeper.owner
