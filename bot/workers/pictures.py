"""Where pictures are drawn: off the event loop, in worker processes.

Pillow's own work releases the interpreter lock, but a renderer's Python (layout, text, pieces
put together) holds it. Drawn in threads, pictures held the lock for a quarter of the bot's
time under load and every channel waited on them; in worker processes (`GAMENIGHT_RENDER_WORKERS`)
the bot's process only sends a view and receives PNG bytes. With 0 workers pictures are drawn in
threads: less memory for a small server, and quick start-ups in the tests.

The web pages' pictures go in a lane of their own (`render_aside`), so that a thousand viewers
never keep a Discord board waiting: one at a time, in one of the workers when there are two or
more (the others stay free for Discord's), else in a thread of their own (it shares the
interpreter lock with the event loop, one picture at a time) and the one worker stays Discord's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib import import_module
from typing import Any

from bot.workers.pools import process_pool

log = logging.getLogger(__name__)

RENDERERS = ("render.scrabble", "render.reversi", "render.patchwork", "render.doudizhu",
             "render.records")


def warm_up() -> None:
    """Set up a fresh worker (the pool's `initializer`): every renderer imported, so the first
    picture does not pay for it."""
    for name in RENDERERS:
        import_module(name)


class Renders:
    """The pictures' workers, started on first use."""

    def __init__(self) -> None:
        self.workers = 0
        self._pool: Executor | None = None
        self._aside_thread: ThreadPoolExecutor | None = None
        self._aside_turns: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def use(self, workers: int) -> None:
        """Draw in `workers` processes from now on (0: in threads)."""
        self.close()
        self.workers = workers

    async def start(self) -> None:
        """Start the workers now, each with the renderers imported, so the first pictures
        after start-up do not wait for that."""
        if not self.workers:
            return
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            await asyncio.gather(*(loop.run_in_executor(pool, warm_up)
                                   for _ in range(self.workers)))
        except Exception as error:  # the first picture starts them again
            log.warning("could not start the picture workers: %r", error)

    async def draw(self, function: Callable[..., bytes], *args: Any) -> bytes:
        if self.workers == 0:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool
            if self._pool is pool:  # not already replaced by another picture's failure
                log.warning("a picture worker died; starting the workers again")
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor(), function, *args)

    async def draw_aside(self, function: Callable[..., bytes], *args: Any) -> bytes:
        """A picture no Discord message waits for (the web pages'): one at a time, the others
        waiting here rather than in the workers' queue, so a Discord board asked for meanwhile
        is drawn before them. With two or more workers it takes one of them; with fewer it is
        drawn in a thread of its own, and the worker stays Discord's."""
        async with self._aside_turn():
            if self.workers >= 2:
                return await self.draw(function, *args)
            if self._aside_thread is None:
                self._aside_thread = ThreadPoolExecutor(1, thread_name_prefix="web-picture")
            return await asyncio.get_running_loop().run_in_executor(
                self._aside_thread, function, *args)

    def _aside_turn(self) -> asyncio.Semaphore:
        """The lane's one turn, on the running loop (the tests run one loop after another)."""
        loop = asyncio.get_running_loop()
        if self._aside_turns is None or self._aside_turns[0] is not loop:
            self._aside_turns = (loop, asyncio.Semaphore(1))
        return self._aside_turns[1]

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(self.workers, warm_up)
        return self._pool

    def close(self) -> None:
        """Stop the workers: pictures are drawn in threads until `use` is called again."""
        self.workers = 0
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._aside_thread is not None:
            self._aside_thread.shutdown(wait=False, cancel_futures=True)
            self._aside_thread = None


RENDERS = Renders()  # one per process, whichever bot draws


async def render_off_loop(function: Callable[..., bytes], *args: Any) -> bytes:
    """`function(*args)`, a renderer of games/ views (PNG bytes), drawn off the event loop."""
    return await RENDERS.draw(function, *args)


async def render_aside(function: Callable[..., bytes], *args: Any) -> bytes:
    """`function(*args)` drawn off the event loop for a web page, never ahead of nor in the way
    of a Discord board (`Renders.draw_aside`)."""
    return await RENDERS.draw_aside(function, *args)
