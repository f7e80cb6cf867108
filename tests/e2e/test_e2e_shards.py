"""Two bots (two processes, each on one of two Discord shards) sharing one PostgreSQL database,
against one fake Discord and one clock the test moves: one keeps time for both, a computer's
turn after a move made through the other is played once, and when the timekeeper dies the
other takes over and acts once on a turn that ran out meanwhile."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

import games.reversi as reversi
from bot.matches.timekeeper import LEASE, LEASE_SECONDS, RENEW_EVERY
from tests.e2e_helpers import FakeClock, InlineExecutor, fake_world, make_bot
from tests.fakediscord import run_bot

pytestmark = pytest.mark.e2e

MINUTE = 60.0


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob")) as world:
        yield world


@asynccontextmanager
async def two_bots(fake, guild, db, clock):
    """The timekeeper first (on the shard the server is not on), then the bot that serves the
    server's channel. Yields (timekeeper, channel bot, queue of the match ids the timekeeper
    heard of from the other)."""
    shard = (guild.id >> 22) % 2

    def bot(shard_id):
        return make_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock,
                        shards="2", shard_ids=str(shard_id))

    async with run_bot(bot(1 - shard), fake) as keeper, run_bot(bot(shard), fake) as server:
        heard: asyncio.Queue[int] = asyncio.Queue()
        listen = keeper.timekeeper.heard

        async def heard_and_told(match_id):
            await listen(match_id)
            heard.put_nowait(match_id)

        keeper.timekeeper.heard = heard_and_told
        yield keeper, server, heard


async def until(fake, heard, check):
    """Wait, on what the timekeeper hears and not on time, until `check()` holds."""
    await fake.wait_idle()
    while not await check():
        await asyncio.wait_for(heard.get(), 10)  # a safety limit, never reached when it works
        await fake.wait_idle()


def counting(bot, method):
    """Count the calls of the bot's service's `method`."""
    calls = []
    original = getattr(bot.service, method)

    async def counted(*args, **kwargs):
        calls.append(args)
        return await original(*args, **kwargs)

    setattr(bot.service, method, counted)
    return calls


async def later(fake, clock, seconds):
    clock.advance(seconds)
    await fake.wait_idle()


def texts(fake, channel):
    return [m.text() for m in fake.messages(channel)]


async def test_one_bot_keeps_time_and_plays_the_computer_after_the_others_move(
        world, pg_location):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with two_bots(fake, guild, pg_location, clock) as (keeper, server, heard):
        assert keeper.timekeeper.holding and not server.timekeeper.holding
        assert (await server.store.lease(LEASE))[0] == keeper.timekeeper.owner
        played = {bot: counting(bot, "act_for_computer") for bot in (keeper, server)}

        alice = users["alice"]
        await fake.slash(alice, channel, "reversi new")  # in the server's channel: its bot
        await fake.slash(alice, channel, "match addbot", level="easy")
        match = await server.service.current(channel.id)
        person = match.seat_of(alice.id)

        async def computer_to_move_is_done():
            current = await server.service.get(match.id)
            return current.current_seat() == person or current.status != "active"

        await until(fake, heard, computer_to_move_is_done)  # it may open the game
        for _ in range(3):  # alice moves through the server's bot; the keeper answers
            current = await server.service.get(match.id)
            if current.status != "active":
                break
            square = str(reversi.legal_moves(current.state, person)[0])
            before = len(await server.store.moves(match.id))
            await fake.slash(alice, channel, "reversi move", square=square)
            await until(fake, heard, computer_to_move_is_done)
            moves = await server.store.moves(match.id)
            assert [m.actor for m in moves[before:]] == ["person", "computer"]

        assert played[server] == []  # the server's bot never played the computer
        assert len(played[keeper]) == len([m for m in await server.store.moves(match.id)
                                          if m.actor == "computer"])
        assert not server.clocks.deadlines.due((match.id, "abandon"))  # not its clocks
        assert keeper.clocks.deadlines.due((match.id, "abandon"))


async def test_when_the_timekeeper_dies_the_other_takes_over_and_times_the_turn_out_once(
        world, pg_location):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with two_bots(fake, guild, pg_location, clock) as (keeper, server, heard):
        timeouts = {bot: counting(bot, "time_out") for bot in (keeper, server)}
        await fake.slash(users["alice"], channel, "reversi new", turn_time="10m")
        await fake.slash(users["bob"], channel, "match join")
        match = await server.service.current(channel.id)

        async def armed():
            return keeper.clocks.deadlines.due((match.id, "turn")) is not None

        await until(fake, heard, armed)
        due = keeper.clocks.deadlines.due((match.id, "turn"))
        await later(fake, clock, due - clock.now() - 5)  # the keeper renews meanwhile

        await keeper.timekeeper.stop(release=False)  # dies: no renewal, the lease lapses
        taken_at = None
        for _ in range(int((LEASE_SECONDS + RENEW_EVERY) / RENEW_EVERY) + 1):
            await later(fake, clock, RENEW_EVERY)
            if server.timekeeper.holding:
                taken_at = clock.now()
                break
        assert taken_at is not None and taken_at > due  # the turn ran out while nobody kept time
        assert (await server.store.lease(LEASE))[0] == server.timekeeper.owner

        ran_out = [t for t in texts(fake, channel) if "ran out of time" in t]
        assert len(ran_out) == 1  # handled once, by the bot that took over
        assert len(timeouts[server]) == 1 and timeouts[keeper] == []
        after = await server.service.get(match.id)
        moves = await server.store.moves(match.id)
        assert [m.actor for m in moves] == ["computer"]  # the computer moved for them, once
        assert any(seat.away == "away" for seat in after.seats)

        await later(fake, clock, 2 * RENEW_EVERY)  # nothing more happens
        assert [t for t in texts(fake, channel) if "ran out of time" in t] == ran_out
        assert len(await server.store.moves(match.id)) == 1


async def test_a_bot_on_given_shards_asks_the_api_for_its_gateway():
    """discord.py would connect to Discord's own gateway when told the shard count; the bot
    asks the API it is pointed at (a proxy, or this fake) instead."""
    from bot.app.config import Settings
    from bot.app.client import GamenightBot

    bot = GamenightBot(Settings.from_mapping({
        "DISCORD_TOKEN": "t", "GAMENIGHT_DB": "postgresql://x@h/d", "GAMENIGHT_SHARDS": "4",
        "GAMENIGHT_SHARD_IDS": "1,3"}))
    launched = []

    async def bot_gateway():
        return 1, "ws://127.0.0.1:9/gateway", {}

    async def launch_shard(gateway, shard_id, *, initial=False):
        launched.append((str(gateway), shard_id, initial))

    bot.http.get_bot_gateway = bot_gateway
    bot.launch_shard = launch_shard
    await bot.launch_shards()
    assert launched == [("ws://127.0.0.1:9/gateway", 1, True), ("ws://127.0.0.1:9/gateway", 3, False)]
    assert bot._connection.shard_count == 4  # (never logged in: nothing to close)
