"""The web pages' pictures never keep a Discord board waiting: they go one at a time, the rest
waiting in their own lane rather than in the workers' queue, and with a single worker they keep
out of it altogether."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor, Future

from bot.workers.pictures import Renders


class HeldPool(Executor):
    """A worker pool whose jobs start in the order they are submitted, as a process pool's
    queue, and end when the test says."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self._jobs: dict[str, Future] = {}

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self.started.append(args[0])
        self._jobs[args[0]] = future
        return future

    def finish(self, name: str) -> None:
        self._jobs.pop(name).set_result(picture(name))


def picture(name: str) -> bytes:
    return name.encode()


async def settle() -> None:
    """Let every task run until it waits on something."""
    for _ in range(20):
        await asyncio.sleep(0)


def renders_with(pool: HeldPool, workers: int) -> Renders:
    renders = Renders()
    renders.use(workers)
    renders._pool = pool
    return renders


async def test_a_discord_board_is_drawn_before_the_web_pictures_queued_ahead_of_it():
    pool = HeldPool()
    renders = renders_with(pool, 2)
    try:
        web = [asyncio.create_task(renders.draw_aside(picture, f"web{i}")) for i in range(3)]
        await settle()
        assert pool.started == ["web0"]  # one at a time: the other worker is free

        discord = asyncio.create_task(renders.draw(picture, "discord"))
        await settle()
        assert pool.started == ["web0", "discord"]  # ahead of web1 and web2

        pool.finish("discord")
        assert await discord == b"discord"
        for i in range(3):
            pool.finish(f"web{i}")
            await settle()
        assert pool.started == ["web0", "discord", "web1", "web2"]
        assert await asyncio.gather(*web) == [b"web0", b"web1", b"web2"]
    finally:
        renders.close()


async def test_with_one_worker_the_web_pictures_keep_out_of_it():
    pool = HeldPool()
    renders = renders_with(pool, 1)
    gate = threading.Event()
    threads: list[str] = []

    def held_picture(name: str) -> bytes:
        threads.append(threading.current_thread().name)
        assert gate.wait(timeout=60)  # a safety net only: the test opens it
        return name.encode()

    try:
        web = [asyncio.create_task(renders.draw_aside(held_picture, f"web{i}"))
               for i in range(3)]
        discord = asyncio.create_task(renders.draw(picture, "discord"))
        await settle()
        assert pool.started == ["discord"]  # the worker is Discord's alone
        pool.finish("discord")
        assert await discord == b"discord"  # while a web picture is still being drawn

        gate.set()
        assert await asyncio.gather(*web) == [b"web0", b"web1", b"web2"]
        assert len(threads) == 3 and all(t.startswith("web-picture") for t in threads)
        assert pool.started == ["discord"]
    finally:
        renders.close()
