"""Boards of one match posted by two processes (two bots on one PostgreSQL database and one
fake Discord): a later commit's board is never left above an earlier one's, and a repeated
picture is left out only when the channel's newest board shows it."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

import games.reversi as reversi
from bot.matches.model import Match, Player
from tests.e2e_helpers import FakeClock, InlineExecutor, fake_world, make_bot
from tests.fakediscord import run_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob")) as world:
        yield world


@asynccontextmanager
async def two_processes(fake, guild, db):
    """Two bots, each on one of two shards, sharing the database `db`."""
    clock = FakeClock()

    def bot(shard_id):
        return make_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock,
                        shards="2", shard_ids=str(shard_id))

    async with run_bot(bot(0), fake) as first, run_bot(bot(1), fake) as second:
        yield first, second


async def started(bot, guild, channel, users) -> Match:
    """A started match, its lobby and start left unannounced (their turns given up)."""
    lobby = await bot.service.open_lobby("reversi", guild_id=guild.id, channel_id=channel.id,
                                         creator=Player(users["alice"].id, "alice"))
    lobby.ticket.release()
    match = await bot.service.join(lobby.id, Player(users["bob"].id, "bob"))
    match.ticket.release()
    return match


async def move(bot, channel, match: Match):
    """The first legal move of the seat to act, committed through `bot` (not announced)."""
    seat = match.current_seat()
    square = str(reversi.legal_moves(match.state, seat)[0])
    return await bot.service.act(channel.id, match.player(seat).user_id, square)


def boards(fake, channel) -> list:
    return [message for message in fake.messages(channel) if message.embeds]


def last_move(message) -> str:
    return message.embeds[0]["footer"]["text"].rsplit(" ", 1)[-1]


async def test_a_board_already_superseded_by_another_process_is_not_posted(
        world, pg_location):
    """A person's move committed in one process and the next move committed and announced
    by another first: the earlier board would land below the later one, so it is left out."""
    fake, guild, channel, users = world
    async with two_processes(fake, guild, pg_location) as (a, b):
        match = await started(a, guild, channel, users)
        first = await move(a, channel, match)
        second = await move(b, channel, first.match)
        await b.presenters["reversi"].announce(second)
        await a.presenters["reversi"].announce(first)
        await fake.wait_idle()
        posted = boards(fake, channel)
        assert [last_move(m) for m in posted] == [second.action.lower()]


async def test_a_board_that_landed_below_a_newer_one_of_another_process_is_deleted(
        world, pg_location):
    """The earlier board passed its check, but the later one was posted before it landed:
    the database says which is newer, Discord's ids which came last, and the earlier goes."""
    fake, guild, channel, users = world
    async with two_processes(fake, guild, pg_location) as (a, b):
        match = await started(a, guild, channel, users)
        first = await move(a, channel, match)
        second = await move(b, channel, first.match)
        checked, later_posted = asyncio.Event(), asyncio.Event()
        read = a.service.store.board

        async def slow_after_check(match_id):
            board = await read(match_id)
            if not checked.is_set():
                checked.set()
                await later_posted.wait()
            return board

        a.service.store.board = slow_after_check

        async def later():
            await asyncio.wait_for(checked.wait(), 10)  # a safety limit, never reached
            await b.presenters["reversi"].announce(second)
            later_posted.set()

        await asyncio.gather(a.presenters["reversi"].announce(first), later())
        await fake.wait_idle()
        posted = boards(fake, channel)
        assert [last_move(m) for m in posted] == [second.action.lower()]


async def test_a_repeated_picture_is_left_out_only_under_this_process_s_newest_board(
        world, pg_location):
    fake, guild, channel, users = world
    async with two_processes(fake, guild, pg_location) as (a, b):
        match = await started(a, guild, channel, users)
        first = await move(a, channel, match)
        await a.presenters["reversi"].announce(first)
        second = await move(b, channel, first.match)
        await b.presenters["reversi"].announce(second)  # another picture, by the other bot

        def again(version):  # a board drawn as the first one was (nothing drawn changed)
            return Match(replace(first.match.row, version=version), first.match.engine,
                         first.match.state)

        cog = a.presenters["reversi"]
        await cog.post_board_in_channel(again(second.match.row.version + 1), ())
        repeated = boards(fake, channel)[-1]
        assert repeated.attachments and "Unchanged" not in repeated.text()
        await cog.post_board_in_channel(again(second.match.row.version + 2), ())
        once_more = boards(fake, channel)[-1]  # right under the same picture, from this bot
        assert not once_more.attachments and "Unchanged: the picture above" in once_more.text()
