"""The deadline scheduler (bot/matches/deadlines.py): what falls due together is worked off a few at a
time, and every deadline still fires once."""

from __future__ import annotations

import asyncio

from bot.matches.deadlines import Deadlines
from tests.e2e_helpers import FakeClock


async def test_deadlines_due_together_fire_a_few_at_a_time_and_all_fire_once():
    clock = FakeClock()
    running: set[int] = set()
    most = 0
    fired: list[int] = []
    release = asyncio.Event()

    async def fire(key: int) -> None:
        nonlocal most
        running.add(key)
        most = max(most, len(running))
        await release.wait()
        running.discard(key)
        fired.append(key)

    deadlines = Deadlines(clock, fire, at_once=3)
    for key in range(10):
        deadlines.arm(key, clock.now() - 5)  # all overdue, as after a takeover
    deadlines.start()
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(running) == 3 and not fired  # the rest wait their turn
    release.set()
    for _ in range(100):
        await asyncio.sleep(0)
        if len(fired) == 10:
            break
    await deadlines.stop()
    assert sorted(fired) == list(range(10)) and most == 3
