"""FreshReads (bot/web/fresh.py): the requests asking at once share a read, never one that
began before they asked."""

from __future__ import annotations

import asyncio

import pytest

from bot.web.fresh import FreshReads


class Reader:
    """A read that ends when the test says, counting how many began."""

    def __init__(self) -> None:
        self.began = 0
        self.gates: list[asyncio.Event] = []
        self.value = "v0"
        self.error: Exception | None = None

    async def __call__(self) -> str:
        self.began += 1
        gate = asyncio.Event()
        self.gates.append(gate)
        seen = self.value  # what the database holds when the read begins
        await gate.wait()
        if self.error is not None:
            raise self.error
        return seen


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_requests_during_a_read_share_the_next_one_which_sees_what_they_were_told():
    reads, reader = FreshReads[str](), Reader()
    first = asyncio.ensure_future(reads.read("t", reader))
    await settle()
    reader.value = "v1"  # a commit, after the first read began: the others were told of it
    later = [asyncio.ensure_future(reads.read("t", reader)) for _ in range(10)]
    await settle()
    assert reader.began == 1
    reader.gates[0].set()
    assert await first == "v0"
    await settle()
    assert reader.began == 2  # one read for the ten
    reader.gates[1].set()
    assert await asyncio.gather(*later) == ["v1"] * 10


async def test_a_failed_read_fails_its_callers_only_and_the_next_ask_reads_again():
    reads, reader = FreshReads[str](), Reader()
    reader.error = LookupError("gone")
    asking = [asyncio.ensure_future(reads.read("t", reader)) for _ in range(3)]
    await settle()
    reader.gates[0].set()  # the first caller's read; the two after it share the next
    await settle()
    assert reader.began == 2
    reader.gates[1].set()
    for task in asking:
        with pytest.raises(LookupError):
            await task
    reader.error = None
    again = asyncio.ensure_future(reads.read("t", reader))
    await settle()
    reader.gates[2].set()
    assert await again == "v0" and reader.began == 3


async def test_a_caller_who_leaves_does_not_end_the_read_the_others_wait_for():
    reads, reader = FreshReads[str](), Reader()
    leaving = asyncio.ensure_future(reads.read("t", reader))
    staying = asyncio.ensure_future(reads.read("t", reader))
    await settle()
    leaving.cancel()
    await settle()
    reader.gates[0].set()
    await settle()
    if reader.began == 2:  # staying waited for the read after the first
        reader.gates[1].set()
    assert await staying == "v0"
    assert leaving.cancelled()


async def test_keys_are_read_apart():
    reads, reader = FreshReads[str](), Reader()
    one = asyncio.ensure_future(reads.read("a", reader))
    two = asyncio.ensure_future(reads.read("b", reader))
    await settle()
    assert reader.began == 2
    for gate in reader.gates:
        gate.set()
    assert await asyncio.gather(one, two) == ["v0", "v0"]
