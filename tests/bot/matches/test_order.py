"""The per-channel announcement order (bot/matches/commit_order.py), without Discord."""

from __future__ import annotations

import asyncio
import gc

from bot.matches.commit_order import ChannelOrder


async def test_announcements_run_in_ticket_order_whatever_order_they_start_in():
    order = ChannelOrder()
    first, second, third = (order.take(7) for _ in range(3))
    elsewhere = order.take(8)
    shown: list[str] = []

    async def announce(ticket, name):
        async with ticket:
            shown.append(name)

    await asyncio.gather(announce(third, "third"), announce(second, "second"),
                         announce(elsewhere, "other channel"), announce(first, "first"))
    assert [name for name in shown if name != "other channel"] == ["first", "second", "third"]
    assert shown.index("other channel") < shown.index("second")  # channels do not wait


async def test_a_later_commit_supersedes_a_ticket():
    order = ChannelOrder()
    ticket = order.take(1)
    assert not ticket.superseded
    order.take(2)
    assert not ticket.superseded
    later = order.take(1)
    assert ticket.superseded and not later.superseded


async def test_a_ticket_dropped_unannounced_does_not_block_the_channel():
    order = ChannelOrder()
    order.take(1)  # a change nobody announces (its result is dropped)
    gc.collect()
    waiting = order.take(1)
    assert waiting.ready
    kept = order.take(1)  # its predecessor is held: it must wait
    assert not kept.ready
    del waiting
    gc.collect()
    assert kept.ready


async def test_a_slow_predecessor_lets_the_waiter_act_once_and_go_on_waiting():
    order = ChannelOrder()
    first, second = order.take(1), order.take(1)
    deferred = []

    async def defer():
        deferred.append(True)
        first.release()  # the earlier announcement ends while the later one waits

    assert not second.ready
    await second.wait(defer, patience=0)
    assert deferred == [True] and second.ready
