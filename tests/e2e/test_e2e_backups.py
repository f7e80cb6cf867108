"""Scheduled backups in the real bot against the fake Discord: with GAMENIGHT_BACKUP_DIR set,
one at start-up (the directory has none) and the next a day later on the bot's clock (a fake
one the test moves); play goes on meanwhile, and the metrics count them."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.operations.backups import backups_in, manifest_of
from tests.e2e.test_e2e_metrics import scrape
from tests.e2e_helpers import FakeClock, fake_world, running_bot

pytestmark = [pytest.mark.e2e, pytest.mark.sqlite_only]
DAY = 86400.0


async def until(condition) -> None:
    """Wait for the backup's worker process to finish (the bot's clock is fake: no time is
    waited for, only work)."""
    for _ in range(6000):
        if await condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the scheduled backup never happened")


async def test_the_bot_backs_up_on_its_schedule_while_play_goes_on(tmp_path):
    clock, directory = FakeClock(), tmp_path / "backups"
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0",
                               clock=clock, backup_dir=str(directory)) as bot:

            async def backups_done(count: int) -> bool:
                _, samples = await scrape(bot)
                return samples.get(("gamenight_backups_total", (("outcome", "done"),))) == count

            lobby = await fake.slash(users["alice"], channel, "reversi new")
            await until(lambda: backups_done(1))
            _, samples = await scrape(bot)
            assert samples[("gamenight_backup_last_success_timestamp_seconds", ())] == clock.now()
            joined = await fake.click(users["bob"], lobby.message, label="Join")
            assert not joined.ephemeral
            clock.advance(DAY)
            await until(lambda: backups_done(2))
    found = backups_in(directory)
    assert len(found) == 2
    tables = json.loads(manifest_of(found[-1]).read_text())["tables"]
    assert tables["matches"]["rows"] == 1 and tables["seats"]["rows"] == 2
