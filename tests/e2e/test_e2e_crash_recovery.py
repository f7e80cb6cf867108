"""A process killed (kill -9) and started again, through the real bot and the fake Discord with
a clock the test moves: the turn clocks move by the real downtime and every open match's board
shows the new deadline; a move saved but never announced gets its board once at start-up, in
the channel's order, also with two processes sharing the database."""

from __future__ import annotations

import re
from contextlib import asynccontextmanager

import pytest

import games.reversi as reversi
from bot.matches.timekeeper import HEARTBEAT, LEASE_SECONDS
from tests.e2e_helpers import FakeClock, InlineExecutor, fake_world, make_bot, running_bot
from tests.fakediscord import run_bot

pytestmark = pytest.mark.e2e

DOWN = 30.0  # seconds the bot is down
TURN = 600.0  # every match's turn clock (10 minutes)


@pytest.fixture
async def world():
    async with fake_world("ddz", ("alice", "bob", "carol", "dave", "erin")) as world:
        fake, guild, channel, users = world
        yield fake, guild, channel, fake.add_channel(guild, "reversi"), users


def timed_bot(fake, db, guild, clock):
    return running_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock)


async def crash(bot) -> None:
    """kill -9: nothing more is written, not even that it stopped; its lease is kept."""
    await bot.timekeeper.stop(release=False)


async def later(fake, clock, seconds):
    clock.advance(seconds)
    await fake.wait_idle()


async def open_matches(fake, bot, ddz_channel, reversi_channel, users):
    """A Dou Dizhu table (alice, bob, carol) and a Reversi game (dave, erin), 10 minutes a
    turn."""
    await fake.slash(users["alice"], ddz_channel, "doudizhu new", turn_time="10m")
    for name in ("bob", "carol"):
        await fake.slash(users[name], ddz_channel, "match join")
    await fake.slash(users["dave"], reversi_channel, "reversi new", turn_time="10m")
    await fake.slash(users["erin"], reversi_channel, "match join")
    return (await bot.service.current(ddz_channel.id),
            await bot.service.current(reversi_channel.id))


def user_to_move(match, users):
    return next(u for u in users.values() if u.id == match.player(match.current_seat()).user_id)


def shown_deadlines(text: str) -> list[int]:
    return [int(t) for t in re.findall(r"<t:(\d+):R>", text)]


# -- clocks across a crash ---------------------------------------------------------------------


@pytest.mark.parametrize("moved_just_before", [True, False], ids=["playing", "idle"])
async def test_after_a_crash_every_deadline_moves_by_the_downtime_and_every_board_shows_it(
        world, tmp_path, moved_just_before):
    fake, guild, ddz_channel, reversi_channel, users = world
    clock, db = FakeClock(), tmp_path / "g.db"
    async with timed_bot(fake, db, guild, clock) as bot:
        ddz, board = await open_matches(fake, bot, ddz_channel, reversi_channel, users)
        await later(fake, clock, 61)  # heartbeats meanwhile
        await later(fake, clock, HEARTBEAT * 0.75)  # between two heartbeats
        if moved_just_before:  # the last thing the bot did: a move
            square = str(reversi.legal_moves(board.state, board.current_seat())[0])
            await fake.slash(user_to_move(board, users), reversi_channel, "reversi move",
                             square=square)
        before = {m.id: (await bot.service.get(m.id)).turn_due for m in (ddz, board)}
        died_at = clock.now()
        await crash(bot)
    counts = {c.id: len(fake.messages(c)) for c in (ddz_channel, reversi_channel)}
    clock.advance(DOWN)

    async with timed_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        assert clock.now() == died_at + DOWN  # all of it done at start-up
        for match_id, due in before.items():
            match = await bot.service.get(match_id)
            moved = match.turn_due - due
            if moved_just_before:
                assert moved == pytest.approx(DOWN)  # exactly the downtime
            else:
                assert DOWN <= moved <= DOWN + HEARTBEAT  # to within a heartbeat
            shown = fake.get_message(match.row.board_message_id).text()
            assert shown_deadlines(shown) == [int(match.turn_due)], shown  # edited
            if match.game == "doudizhu":  # the DM of the player to move too
                dm = fake.dm_messages(user_to_move(match, users))[-1].text()
                assert f"Your time runs out <t:{int(match.turn_due)}:R>" in dm
        for channel in (ddz_channel, reversi_channel):  # edits, not new posts
            assert len(fake.messages(channel)) == counts[channel.id]
            assert not any("offline" in m.text() for m in fake.messages(channel))


# -- moves saved but never announced ------------------------------------------------------------


async def commit_unannounced(bot, match, users, count):
    """`count` moves committed through the service, as a command would, but the process
    dies before announcing them: their boards are never posted."""
    for _ in range(count):
        match = await bot.service.get(match.id)
        mover = user_to_move(match, users)
        if match.game == "reversi":
            text = str(reversi.legal_moves(match.state, match.current_seat())[0])
        else:
            text = "bid pass" if match.state.bids else "bid 1"
        await bot.service.act(match.channel_id, mover.id, text)
    return await bot.service.get(match.id)


def boards_in(fake, channel):
    """The board posts of a channel (every post after the lobby card and the joins)."""
    return [m for m in fake.messages(channel) if m.embeds and "joined" not in m.text()
            and "started" not in m.text()]


async def test_moves_saved_but_not_announced_get_their_board_once_at_start_up(world, tmp_path):
    fake, guild, ddz_channel, reversi_channel, users = world
    clock, db = FakeClock(), tmp_path / "g.db"
    async with timed_bot(fake, db, guild, clock) as bot:
        ddz, board = await open_matches(fake, bot, ddz_channel, reversi_channel, users)
        shown = {m.id: (await bot.store.board(m.id)) for m in (ddz, board)}
        posts = {c.id: len(fake.messages(c)) for c in (ddz_channel, reversi_channel)}
        saved = {m.id: await commit_unannounced(bot, m, users, 2) for m in (ddz, board)}
        await fake.wait_idle()
        for match in (ddz, board):  # nothing shown: the process dies now
            assert await bot.store.board(match.id) == shown[match.id]
        assert {c.id: len(fake.messages(c)) for c in (ddz_channel, reversi_channel)} == posts
        await crash(bot)
    clock.advance(DOWN)

    async with timed_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        for match_id, match in saved.items():
            recorded = await bot.store.board(match_id)
            assert recorded.version == match.row.version  # the board shows the saved state
            message = fake.get_message(recorded.message_id)
            due = (await bot.service.get(match_id)).turn_due
            assert shown_deadlines(message.text()) == [int(due)]
            if match.game == "reversi":
                channel = reversi_channel
                new = fake.messages(channel)[posts[channel.id]:]
                assert [m.id for m in new] == [recorded.message_id]  # one new board, once
                assert f"<@{user_to_move(match, users).id}>" in message.text()  # pinged now
            else:  # a bid edits the live table (the bidder to act is told by DM)
                channel = ddz_channel
                assert "bid" in message.text().lower()
                assert len(fake.messages(channel)) <= posts[channel.id] + 1
                dm = fake.dm_messages(user_to_move(match, users))[-1].text()
                assert "Your turn to bid" in dm or "Your turn" in dm

        # in order: the next move's board comes below the board caught up
        caught_up = (await bot.store.board(board.id)).message_id
        match = await bot.service.get(board.id)
        square = str(reversi.legal_moves(match.state, match.current_seat())[0])
        await fake.slash(user_to_move(match, users), reversi_channel, "reversi move",
                         square=square)
        newest = await bot.store.board(board.id)
        assert newest.message_id > caught_up and newest.version == match.row.version + 1

        # nothing more is posted later (the re-scans find nothing owed)
        count = len(fake.messages(reversi_channel))
        await later(fake, clock, 5 * 60)
        assert len(fake.messages(reversi_channel)) == count


@asynccontextmanager
async def two_bots(fake, guild, db, clock):
    shard = (guild.id >> 22) % 2

    def bot(shard_id):
        return make_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock,
                        shards="2", shard_ids=str(shard_id))

    async with run_bot(bot(1 - shard), fake) as keeper, run_bot(bot(shard), fake) as server:
        yield keeper, server


async def test_with_two_processes_an_owed_board_is_posted_once(world, pg_location):
    fake, guild, ddz_channel, reversi_channel, users = world
    clock = FakeClock()
    async with two_bots(fake, guild, pg_location, clock) as (keeper, server):
        ddz, board = await open_matches(fake, server, ddz_channel, reversi_channel, users)
        posts = len(fake.messages(reversi_channel))
        saved = await commit_unannounced(server, board, users, 3)
        await fake.wait_idle()
        for bot in (keeper, server):  # both die
            await crash(bot)
    clock.advance(DOWN)

    async with two_bots(fake, guild, pg_location, clock) as (keeper, server):
        await fake.wait_idle()
        clock.advance(LEASE_SECONDS * 3)  # the dead holder's lease lapses; re-scans run
        await fake.wait_idle()
        new = fake.messages(reversi_channel)[posts:]
        recorded = await server.store.board(board.id)
        assert [m.id for m in new] == [recorded.message_id]  # once, by one of the two
        assert recorded.version == saved.row.version
