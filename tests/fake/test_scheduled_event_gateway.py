"""Scheduled events on the fake gateway: what a bot hears of them (only with the
GUILD_SCHEDULED_EVENTS intent), what people and Discord itself do to them (the driving
helpers), and the events a bot finds in GUILD_CREATE when it connects."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest
from discord.ext import commands

from tests.fake.test_scheduled_events import EVENTS_BOT, night, tomorrow
from tests.fakediscord import FakeDiscord, Perm, run_bot


class Listening(commands.Bot):
    """A tiny bot that writes down every scheduled-event event it hears."""

    def __init__(self, *, scheduled_events: bool = True) -> None:
        intents = discord.Intents.default()
        intents.members = True  # the users of USER_ADD / USER_REMOVE are cached
        intents.guild_scheduled_events = scheduled_events
        super().__init__(command_prefix="!", intents=intents)
        self.heard: list[tuple] = []

    async def on_scheduled_event_create(self, event: discord.ScheduledEvent) -> None:
        self.heard.append(("create", event.name))

    async def on_scheduled_event_update(self, before: discord.ScheduledEvent,
                                        after: discord.ScheduledEvent) -> None:
        self.heard.append(("update", before.status.name, after.status.name, after.name))

    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:
        self.heard.append(("delete", event.name))

    async def on_scheduled_event_user_add(self, event: discord.ScheduledEvent, user: discord.User) -> None:
        self.heard.append(("interested", event.name, user.name))

    async def on_scheduled_event_user_remove(self, event: discord.ScheduledEvent, user: discord.User) -> None:
        self.heard.append(("not interested", event.name, user.name))


@pytest.fixture
async def club():
    async with FakeDiscord(bot_permissions=EVENTS_BOT) as fake:
        guild = fake.add_guild("Game Night Club")
        alice, mod = fake.add_user("alice"), fake.add_user("mod")
        fake.add_member(guild, alice)
        fake.add_member(guild, mod, permissions=Perm.CREATE_EVENTS)
        yield fake, guild, alice, mod


async def test_a_bot_with_the_intent_hears_every_change(club):
    fake, g, alice, mod = club
    async with run_bot(Listening(), fake) as bot:
        made = await night(bot.get_guild(g.id))
        event = fake.scheduled_event(made.id)
        await fake.mark_interested(alice, event)
        await fake.mark_interested(alice, event)  # already: nothing sent
        await fake.mark_uninterested(alice, event)
        await fake.mark_uninterested(alice, event)  # no longer: nothing sent
        await made.edit(name="Reversi night")
        theirs = await fake.add_scheduled_event(g, mod, "Mod night", start=tomorrow(), end=tomorrow(2),
                                                location="Hall")
        await fake.remove_scheduled_event(theirs)
        await made.delete()
        await fake.wait_idle()
    assert bot.heard == [
        ("create", "Game night"),
        ("interested", "Game night", "alice"),
        ("not interested", "Game night", "alice"),
        ("update", "scheduled", "scheduled", "Reversi night"),
        ("create", "Mod night"),
        ("delete", "Mod night"),
        ("delete", "Reversi night"),
    ]


async def test_a_bot_without_the_intent_hears_none_of_it(club):
    fake, g, alice, _ = club
    async with run_bot(Listening(scheduled_events=False), fake) as bot:
        made = await night(bot.get_guild(g.id))
        event = fake.scheduled_event(made.id)
        await fake.mark_interested(alice, event)
        await fake.start_scheduled_event(event)
        await made.delete()
        await fake.wait_idle()
        assert bot.heard == [] and bot.get_guild(g.id).get_scheduled_event(made.id) is None
    sent = [m["t"] for s in fake._sessions.values() for m in s.buffer]
    assert "GUILD_CREATE" in sent and not any(t.startswith("GUILD_SCHEDULED_EVENT") for t in sent)


async def test_discord_starts_and_ends_an_external_event_at_its_times(club):
    fake, g, alice, _ = club
    async with run_bot(Listening(), fake) as bot:
        made = await night(bot.get_guild(g.id))
        event = fake.scheduled_event(made.id)
        await fake.start_scheduled_event(event)
        cached = bot.get_guild(g.id).get_scheduled_event(made.id)
        assert event.status == 2 and cached.status is discord.EventStatus.active
        with pytest.raises(ValueError):
            await fake.start_scheduled_event(event)  # already started
        await fake.end_scheduled_event(event)
        assert cached.status is discord.EventStatus.completed
        with pytest.raises(ValueError):
            await fake.mark_interested(alice, event)  # nobody joins a night that is over
        with pytest.raises(ValueError):
            await fake.end_scheduled_event(event)
        assert (await bot.get_guild(g.id).fetch_scheduled_event(made.id)).status is discord.EventStatus.completed
    assert [h[:3] for h in bot.heard[1:]] == [("update", "scheduled", "active"),
                                              ("update", "active", "completed")]


async def test_the_driving_helpers_follow_discords_rules_too(club):
    fake, g, alice, mod = club
    outsider = fake.add_user("outsider")
    with pytest.raises(Exception) as past:  # a member's event is checked as the bot's are
        await fake.add_scheduled_event(g, mod, "Too late", start=tomorrow(-48), end=tomorrow(),
                                       location="Hall")
    assert getattr(past.value, "code", None) == 50035
    with pytest.raises(Exception) as no_right:
        await fake.add_scheduled_event(g, alice, "Alice's night", start=tomorrow(), end=tomorrow(2),
                                       location="Hall")
    assert getattr(no_right.value, "code", None) == 50013
    event = await fake.add_scheduled_event(g, mod, "Mod night", start=tomorrow(), end=tomorrow(2),
                                           location="Hall", description="Bring a board")
    with pytest.raises(ValueError):
        await fake.mark_interested(outsider, event)
    await fake.mark_interested(alice, event)
    assert event.user_count == 1 and fake.scheduled_event(event.id) is event
    assert fake.scheduled_events(g) == [event]
    with pytest.raises(LookupError):
        fake.scheduled_event(12345)


async def test_a_bot_that_connects_finds_the_events_in_guild_create(club):
    fake, g, _, mod = club
    event = await fake.add_scheduled_event(g, mod, "Mod night", start=tomorrow(), end=tomorrow(2),
                                           location="Hall")
    fake.clock = lambda: discord.utils.utcnow() + timedelta(days=3)  # Discord's "now", moved on
    async with run_bot(Listening(), fake) as bot:
        (found,) = bot.get_guild(g.id).scheduled_events
        assert (found.id, found.name, found.location, found.creator_id) == (event.id, "Mod night", "Hall", mod.id)
        with pytest.raises(discord.HTTPException) as past:  # tomorrow is in the past now
            await night(bot.get_guild(g.id))
        assert past.value.code == 50035
