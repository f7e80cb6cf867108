"""Where pictures are drawn: off the event loop, in worker processes.

Pillow's own work releases the interpreter lock, but a renderer's Python (layout, text, pieces
put together) holds it. Drawn in threads, pictures held the lock for a quarter of the bot's
time under load and every channel waited on them; in worker processes (`GAMENIGHT_RENDER_WORKERS`)
the bot's process only sends a view and receives PNG bytes. With 0 workers pictures are drawn in
threads: less memory for a small server, and quick start-ups in the tests.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
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
        self._pool: ProcessPoolExecutor | None = None

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

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = process_pool(self.workers, warm_up)
        return self._pool

    def close(self) -> None:
        """Stop the workers: pictures are drawn in threads until `use` is called again."""
        self.workers = 0
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


RENDERS = Renders()  # one per process, whichever bot draws


async def render_off_loop(function: Callable[..., bytes], *args: Any) -> bytes:
    """`function(*args)`, a renderer of games/ views (PNG bytes), drawn off the event loop."""
    return await RENDERS.draw(function, *args)
