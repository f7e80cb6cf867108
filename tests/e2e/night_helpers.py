"""What the game-night tests through the fake Discord share: a server with a host who may
schedule nights, the bot with a clock the test moves, and the steps of a night."""

from __future__ import annotations

from contextlib import asynccontextmanager
from collections.abc import Iterable

from tests.e2e_helpers import InlineExecutor, fake_world, running_bot
from tests.fakediscord import Perm

MINUTE = 60.0
NAMES = ("host", "ann", "ben", "cat", "dan", "eve", "fay")


@asynccontextmanager
async def night_world(names: Iterable[str] = NAMES, *, dms_closed: Iterable[str] = ()):
    """The fake Discord with a server where `host` has Manage Events and the bot may create
    events: (fake, guild, channel, users by name)."""
    async with fake_world("nights", names, dms_closed=dms_closed) as world:
        fake, guild, channel, users = world
        guild.members[users["host"].id].roles.append(
            fake.add_role(guild, "hosts", Perm.MANAGE_EVENTS))
        fake.set_bot_permissions(guild, Perm.BOT_DEFAULT | Perm.CREATE_EVENTS)
        yield world


def night_bot(fake, db, guild, clock):
    return running_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock)


async def later(fake, clock, seconds):
    clock.advance(seconds)
    await fake.wait_idle()


def card_of(fake, channel):
    """The sign-up card of the first night still taking sign-ups or check-ins."""
    return next(m for m in fake.messages(channel) if any(
        b.get("custom_id", "").startswith("gn:night:") for b in m.buttons))


async def schedule(fake, users, channel, **options):
    return await fake.slash(users["host"], channel, "gamenight night schedule",
                            start="in 1h", **options)


async def sign_and_check_in(fake, clock, users, channel, names):
    """`names` press I'm in, check-in opens, they check in, and the night starts."""
    card = card_of(fake, channel)
    for name in names:
        if name != "host":
            await fake.click(users[name], card, label="I'm in")
    await later(fake, clock, 45 * MINUTE + 1)
    card = card_of(fake, channel)
    for name in names:
        await fake.click(users[name], card, label="Check in")
    await later(fake, clock, 15 * MINUTE)


async def end_table(fake, bot, table, users_by_id):
    """The table's players resign one after another, the last seated first, until its match
    is over: the first seated wins."""
    thread = fake.channels[table.thread_id]
    for player in reversed(table.players[1:]):
        match = await bot.service.get(table.match_id)
        if match.status != "active" or player < 0:
            continue
        await fake.slash(users_by_id[player], thread, "match resign")
    await fake.wait_idle()


async def finish_round(fake, bot, night_id, users_by_id):
    """Every table of the night's round still in play ends: the first seated wins."""
    night = await bot.nights.require(night_id)
    for table in night.round_tables():
        if table.match_id is not None:
            await end_table(fake, bot, table, users_by_id)
