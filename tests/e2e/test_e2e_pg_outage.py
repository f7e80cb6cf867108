"""PostgreSQL restarted under load, with two processes: two bots (one per shard, each serving one
server's two channels) share a schema through a TCP proxy the test cuts (every connection
dropped, new ones refused, as a server going down) and restores. Moves made during the outage
are answered "could not be saved, try again" and change nothing in the channel; once the server
is back each process's next move is saved, with no restart; its commit listener and the
timekeeper lease come back at the timekeeper's next tick, the lease held by exactly one of
them; and every acknowledged move is in the database."""

from __future__ import annotations

import time

import pytest

from bot.matches.timekeeper import LEASE, RENEW_EVERY
from bot.storage.store import Store
from tests import stores
from tests.e2e_helpers import FakeClock, ReversiLedger, sharded_bot, sharded_world
from tests.fakediscord import run_bot
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.e2e


@pytest.fixture
def proxy():
    proxy = TcpProxy.to(stores.PG_URL)
    proxy.start()
    yield proxy
    proxy.stop()


def seen(fake, channels) -> list[tuple[int, str]]:
    return [(m.id, m.text()) for channel in channels for m in fake.messages(channel)]


async def test_postgresql_restarted_under_load_with_two_processes(pg_location, proxy):
    url = proxy.via(pg_location)
    clock = FakeClock()
    async with sharded_world() as (fake, channels, users):
        async with run_bot(sharded_bot(fake, url, 0, clock), fake) as first, \
                run_bot(sharded_bot(fake, url, 1, clock), fake) as second:
            bots = {0: first, 1: second}
            served = [(bots[shard], channel) for shard in bots for channel in channels[shard]]
            everywhere = [channel for _bot, channel in served]
            ledger = ReversiLedger(fake, users)
            for bot, channel in served:
                await ledger.open(bot, channel)
            for _ in range(3):
                for bot, channel in served:
                    await ledger.move(bot, channel)
            assert ledger.refused == 0
            before_outage = (ledger.tried, ledger.answered)

            proxy.cut()  # the server goes down
            for round_ in range(3):
                for bot, channel in served:
                    shown = seen(fake, everywhere)
                    result = await ledger.move(bot, channel)
                    assert result.ephemeral  # refused, to its player alone
                    assert seen(fake, everywhere) == shown  # nothing posted, edited, deleted
                if round_ == 0:  # the timekeepers tick while it is down: no crash, no change
                    clock.advance(RENEW_EVERY)
                    await fake.wait_idle()
            during = (ledger.tried - before_outage[0], ledger.answered - before_outage[1])
            assert ledger.refused == during[0] == during[1] == 3 * len(served)

            proxy.restore()  # the server is back
            back = time.monotonic()
            recovered = {}
            for bot, channel in served:
                result = await ledger.move(bot, channel)
                assert not result.ephemeral, result.text()  # saved at the first try
                recovered.setdefault(bot, time.monotonic() - back)
            clock.advance(RENEW_EVERY)  # the timekeepers' next tick
            await fake.wait_idle()
            listening = time.monotonic() - back
            for bot in bots.values():
                assert bot.timekeeper._listener is not None and bot.timekeeper._listener.alive
            holders = [bot for bot in bots.values() if bot.timekeeper.holding]
            assert len(holders) == 1
            assert (await first.store.lease(LEASE))[0] == holders[0].timekeeper.owner

            for _ in range(2):
                for bot, channel in served:
                    await ledger.move(bot, channel)
            assert ledger.refused == 3 * len(served)  # none after the outage

    store = await Store.open(pg_location)
    try:
        lost = await ledger.lost(store)
    finally:
        await store.close()
    assert lost == []
    print(f"\npostgresql restarted: {during[0]} moves tried during the outage, {during[1]} "
          f"answered 'could not be saved', {len(lost)} acknowledged moves lost (of "
          f"{sum(map(len, ledger.acknowledged.values()))}); first move saved "
          + ", ".join(f"{s:.2f} s" for s in recovered.values())
          + f" after the server came back (process 0, 1); listeners and lease back at the next "
          f"tick ({listening:.2f} s here; every {RENEW_EVERY:.0f} s in production); "
          f"lease held by 1 process")
