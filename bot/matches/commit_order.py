"""Announcements in commit order, per channel.

Two clicks at the same instant are committed one after the other under the channel's lock,
but their announcements race: a slow board could land under the notice of a later cancel.
So the service takes a `Ticket` inside the same critical section as each commit (the tickets
of a channel are numbered in commit order), and an announcement waits until every earlier
ticket of its channel has been announced before it posts. No Discord in here.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

STALL = 30.0  # seconds: an announcement stuck this long no longer holds up the channel


def _settle(future: asyncio.Future) -> None:
    if not future.done():
        try:
            future.set_result(None)
        except RuntimeError:  # its event loop is gone: nobody is waiting any more
            pass


class Ticket:
    """A place in a channel's announcement queue, taken when a change is committed.

    Use it as `async with ticket:` around the announcement. A ticket dropped without being
    used (its change is never announced) frees its place when it is garbage collected.
    """

    def __init__(self, order: ChannelOrder, channel_id: int, number: int,
                 before: asyncio.Future | None) -> None:
        self._order, self.channel_id, self.number = order, channel_id, number
        self._before = before
        self._done = asyncio.get_running_loop().create_future()
        weakref.finalize(self, _settle, self._done)

    @property
    def superseded(self) -> bool:
        """Whether a later change was committed in the channel since this one."""
        return self._order.taken(self.channel_id) > self.number

    @property
    def ready(self) -> bool:
        """Whether every earlier announcement of the channel is over (or was dropped)."""
        return self._before is None or self._before.done()

    async def wait(self, on_slow: Callable[[], Awaitable[object]] | None = None,
                   patience: float = 1.0) -> None:
        """Wait for the earlier announcements; `on_slow` runs once after `patience` seconds
        (e.g. to defer an interaction that must be acknowledged in time)."""
        before = self._before
        if before is None or before.done():
            return
        done, _ = await asyncio.wait({before}, timeout=patience if on_slow else STALL)
        if not done and on_slow is not None:
            await on_slow()
            done, _ = await asyncio.wait({before}, timeout=STALL)
        if not done:
            log.warning("announcement %s of channel %s waited %ss for the one before it; "
                        "posting anyway", self.number, self.channel_id, STALL)

    def release(self) -> None:
        """This announcement is over: the next one may post."""
        _settle(self._done)
        self._before = None

    async def __aenter__(self) -> Ticket:
        await self.wait()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()


class ChannelOrder:
    """The tickets per channel: each new one waits on the one taken before it."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[int, asyncio.Future]] = {}

    def take(self, channel_id: int) -> Ticket:
        """A ticket for a change just committed in `channel_id` (call under its lock)."""
        number, before = self._last.get(channel_id, (0, None))
        ticket = Ticket(self, channel_id, number + 1, before)
        self._last[channel_id] = (ticket.number, ticket._done)
        return ticket

    def taken(self, channel_id: int) -> int:
        return self._last.get(channel_id, (0, None))[0]
