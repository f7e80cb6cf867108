"""Reversi timings: board rendering, and `/reversi move` interaction -> the bot's reply through
the fake Discord server (tests/fakediscord/) on 127.0.0.1. Run from the repository root:

    python benchmarks/bench_reversi.py [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.reversi as reversi  # noqa: E402
from render.reversi import render_board  # noqa: E402


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"{label:<38} median {statistics.median(ms):7.1f} ms   p99 {p99:7.1f} ms   (n={len(ms)})"


def bench_render(rounds: int) -> list[float]:
    rng = random.Random(1)
    views = []
    state = reversi.new_game(2, seed=1)
    while reversi.current_seat(state) is not None:
        views.append(reversi.view(state))
        seat = reversi.current_seat(state)
        state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    times = []
    for i in range(rounds):
        view = views[i % len(views)]
        start = time.perf_counter()
        render_board(view)
        times.append(time.perf_counter() - start)
    return times


async def bench_interactions(moves: int) -> tuple[list[float], list[float]]:
    """Time each `/reversi move` from sending the interaction to the bot's callback arriving,
    and to the bot being idle again (board posted, state saved)."""
    from tests.e2e_helpers import running_bot
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("bench")
    channel = fake.add_channel(guild, "reversi")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(guild, user)
    to_reply, to_idle = [], []
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot(fake, Path(folder) / "bench.db", guild.id) as bot:
            while len(to_reply) < moves:
                await fake.slash(alice, channel, "reversi new")
                lobby = fake.messages(channel)[-1]
                await fake.click(bob, lobby, label="Join")
                match = await bot.service.current(channel.id)
                by_id = {alice.id: alice, bob.id: bob}
                while match is not None and match.status == "active" and len(to_reply) < moves:
                    seat = match.current_seat()
                    user = by_id[match.player(seat).user_id]
                    square = str(rng.choice(reversi.legal_moves(match.state, seat)))
                    before = len(fake.request_log)
                    start = time.perf_counter()
                    task = asyncio.create_task(fake.slash(user, channel, "reversi move",
                                                          square=square))
                    while not any("/callback" in r.path for r in fake.request_log[before:]):
                        await asyncio.sleep(0.0005)
                    to_reply.append(time.perf_counter() - start)
                    await task
                    to_idle.append(time.perf_counter() - start)
                    match = await bot.service.current(channel.id)
    await fake.stop()
    return to_reply, to_idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=60)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    print(summary("render_board", bench_render(args.renders)))
    to_reply, to_idle = asyncio.run(bench_interactions(args.moves))
    print(summary("/reversi move -> reply received", to_reply))
    print(summary("/reversi move -> bot idle (all done)", to_idle))


if __name__ == "__main__":
    main()
