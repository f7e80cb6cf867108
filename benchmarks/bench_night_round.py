"""Opening a game night's round of many tables through the fake Discord with Discord's rate
limits: how long until every table has its thread, its players and its board. Run from the
repository root:

    python benchmarks/bench_night_round.py [--tables 32] [--limit 5] [--per 5]

The fake answers every route with per-bucket limits (`--limit` requests per `--per` seconds,
Discord's per-channel message limit by default) and 429s past them; discord.py waits them out.
Creating the threads shares one bucket (the night's channel), so it sets the pace; each table's
own posts go to its thread. It prints the seconds from the start of the round to the last
table's board, and the 429s the bot met (it should meet none: it reads the headers and waits).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.nights.plan import Plan  # noqa: E402
from tests.e2e_helpers import FakeClock, InlineExecutor, running_bot  # noqa: E402
from tests.fakediscord import FakeDiscord, RateLimits  # noqa: E402


async def main(tables: int, limit: int, per: float) -> None:
    fake = FakeDiscord(rate_limits=RateLimits(limit, per))
    await fake.start()
    try:
        guild = fake.add_guild("Night Club")
        channel = fake.add_channel(guild, "nights")
        users = [fake.add_user(f"player{i}") for i in range(2 * tables)]
        for user in users:
            fake.add_member(guild, user)
        clock = FakeClock()
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "g.db", guild.id, clock=clock,
                                   computer_executor=InlineExecutor()) as bot:
                night = await bot.nights.schedule(
                    guild_id=guild.id, channel_id=channel.id, host_id=users[0].id,
                    plan=Plan("reversi", rounds=1), start_at=clock.now() + 60)
                await bot.nights.open_checkin(night.id)
                for user in users:
                    await bot.nights.check_in(night.id, user.id, user.name)
                started = time.perf_counter()
                night = await bot.nights.require(night.id)
                await bot.night_runner.begin(night)
                await fake.wait_idle()
                seconds = time.perf_counter() - started
                night = await bot.nights.require(night.id)
                boards = sum(any(m.attachments for m in fake.messages(fake.channels[t.thread_id]))
                             for t in night.round_tables() if t.thread_id)
                refused = len(fake.rate_limiter.refused) if fake.rate_limiter else 0
        print(f"{tables} tables ({2 * tables} players), {limit} requests per {per:g} s a "
              f"bucket: every board posted after {seconds:.1f} s; {boards} of {tables} boards, "
              f"{len(fake.threads(channel))} threads, {refused} requests answered 429")
    finally:
        await fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--limit", type=int, default=5)
    parser.add_argument("--per", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.limit, args.per))
