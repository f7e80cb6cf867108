"""Do thinking computers slow the other channels? Run from the repository root:

    python benchmarks/bench_ai_loop.py [--thinkers 8] [--level hard] [--moves 200]

Through the fake Discord, `--thinkers` Reversi channels each seat a person against a computer
at `--level`; whenever such a person is to move, they move at once, so every computer is
thinking (or waiting for a worker) nearly all the time. Meanwhile people in `--tables` other
Reversi channels play one `/reversi move` after another, and the time from each interaction
sent to its first response (the board) is measured: first with no computer seated (the
baseline), then while the computers think. The goal is <= 150 ms p99 under load. With
`--executor thread` the computers think in threads instead of processes, which shows why the
bot uses processes. The bot runs with GAMENIGHT_COMPUTER_DELAY=0 and one worker per core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.reversi as reversi  # noqa: E402
from tests.e2e_helpers import running_bot  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

POLL = 0.0005  # seconds between two looks for a response


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def send(fake, user, channel, command: str, **options):
    """Dispatch a slash command without waiting for the bot; the fake's interaction."""
    data, _ = fake._command_data(user, channel, command, options, focused=None)
    return fake.dispatch_raw(2, user, channel, data)


async def answered(interaction, limit: float = 30.0) -> None:
    deadline = time.perf_counter() + limit
    while interaction.response_type is None:
        if time.perf_counter() > deadline:
            raise TimeoutError("no response within 30 s")
        await asyncio.sleep(POLL)


class Thinkers:
    """Channels of a person against a computer; the person always moves at once."""

    def __init__(self, fake, guild, bot, count: int, level: str) -> None:
        self.fake, self.bot, self.level = fake, bot, level
        self.tables = []
        for index in range(count):
            user = fake.add_user(f"solo{index}")
            fake.add_member(guild, user)
            self.tables.append((fake.add_channel(guild, f"solo-{index}"), user))
        self.sent: dict[int, int] = {}  # channel -> the match version acted on last
        self.games = 0
        self.stopped = False

    async def run(self) -> None:
        rng = random.Random(7)
        while not self.stopped:
            for channel, user in self.tables:
                await self.step(channel, user, rng)
            await asyncio.sleep(0.02)

    async def step(self, channel, user, rng: random.Random) -> None:
        match = await self.bot.service.current(channel.id)
        key = (-1 if match is None else match.id * 10_000 + match.row.version)
        if self.sent.get(channel.id) == key:
            return  # what was sent for this version is still on its way
        if match is None:
            self.games += 1
            await send(self.fake, user, channel, "reversi new")
        elif match.status == "lobby":
            await send(self.fake, user, channel, "match addbot", level=self.level)
        elif match.current_seat() == match.seat_of(user.id):
            square = rng.choice(reversi.legal_moves(match.state, match.current_seat()))
            await send(self.fake, user, channel, "reversi move", square=str(square))
        else:
            return  # the computer thinks
        self.sent[channel.id] = key


async def open_tables(fake, guild, count: int):
    tables = []
    for index in range(count):
        channel = fake.add_channel(guild, f"people-{index}")
        users = [fake.add_user(f"t{index}p{n}") for n in (1, 2)]
        for user in users:
            fake.add_member(guild, user)
        await start_game(fake, channel, users)
        tables.append((channel, {user.id: user for user in users}))
    return tables


async def start_game(fake, channel, users) -> None:
    await fake.slash(users[0], channel, "reversi new")
    await fake.slash(users[1], channel, "match join")


async def measure(fake, bot, tables, moves: int, rng: random.Random) -> list[float]:
    """`/reversi move` by the people of `tables`, one at a time: ms to the first response."""
    took: list[float] = []
    while len(took) < moves:
        for channel, users in tables:
            match = await bot.service.current(channel.id)
            if match is None or match.status != "active":
                await start_game(fake, channel, list(users.values()))
                continue
            seat = match.current_seat()
            user = users[match.player(seat).user_id]
            square = rng.choice(reversi.legal_moves(match.state, seat))
            started = time.perf_counter()
            interaction = await send(fake, user, channel, "reversi move", square=str(square))
            await answered(interaction)
            took.append((time.perf_counter() - started) * 1000)
            while (await bot.service.get(match.id)).row.version == match.row.version:
                await asyncio.sleep(POLL)  # saved: the next move may come
            if len(took) >= moves:
                break
    return took


def line(name: str, ms: list[float]) -> str:
    return (f"{name}: {len(ms)} moves, first response p50 {statistics.median(ms):.1f} ms, "
            f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")


async def main(args: argparse.Namespace) -> None:
    fake = FakeDiscord()
    await fake.start()
    # the computers' turns run beside the measured moves: the fake need not wait for them
    fake.idle_predicates.append(
        lambda task: task.get_name().startswith(("gamenight: computer", "bench: thinkers")))
    executor = ThreadPoolExecutor(os.cpu_count()) if args.executor == "thread" else None
    try:
        guild = fake.add_guild("Load")
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "loop.db", guild.id, metrics_port="0",
                                   computer_executor=executor,
                                   computer_workers=str(os.cpu_count() or 1)) as bot:
                tables = await open_tables(fake, guild, args.tables)
                rng = random.Random(1)
                baseline = await measure(fake, bot, tables, args.moves, rng)
                thinkers = Thinkers(fake, guild, bot, args.thinkers, args.level)
                driver = asyncio.create_task(thinkers.run(), name="bench: thinkers")
                try:
                    await asyncio.sleep(args.warmup)  # the pool starts, every computer thinks
                    loaded = await measure(fake, bot, tables, args.moves, rng)
                finally:
                    thinkers.stopped = True
                    await driver
                decisions = bot.metrics.registry.get_sample_value(
                    "gamenight_computer_decision_seconds_count",
                    {"game": "reversi", "level": args.level}) or 0
                spent = bot.metrics.registry.get_sample_value(
                    "gamenight_computer_decision_seconds_sum",
                    {"game": "reversi", "level": args.level}) or 0
    finally:
        await fake.stop()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    print(f"{os.cpu_count()} CPU cores; computers think in "
          f"{'threads' if args.executor == 'thread' else 'worker processes'}")
    print(line(f"{args.tables} tables of people, no computer seated", baseline))
    print(line(f"same, while {args.thinkers} {args.level} computers think", loaded))
    if decisions:
        print(f"{args.level} computers: {decisions:.0f} decisions, mean "
              f"{spent / decisions * 1000:.0f} ms each (in their worker), in "
              f"{thinkers.games} games")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thinkers", type=int, default=8)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--executor", choices=("process", "thread"), default="process")
    asyncio.run(main(parser.parse_args()))
