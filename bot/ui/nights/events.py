"""The night's Discord scheduled event (EXTERNAL, located in its channel, ending when the
planned rounds should be over) and the people on it: those marked Interested are read from
Discord's event-users endpoint when check-in opens and at the start (discord.py sees live RSVPs
only of users it has cached, so they are never relied on alone), and the check-in pings."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.nights.model import Night
from bot.nights.service import NightService
from bot.ui.nights.cards import card_link
from bot.ui.nights.controls import CheckInButton
from bot.ui.nights.words import night_title, plan_line
from i18n import Text, _, lines

log = logging.getLogger(__name__)

PAGE = 100  # users Discord gives per request


def may_create_events(guild: discord.Guild) -> bool:
    perms = guild.me.guild_permissions
    return perms.create_events or perms.manage_events


class NightEvents:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def _guild(self, night: Night) -> discord.Guild | None:
        return self.bot.get_guild(night.row.guild_id)

    async def create(self, night: Night) -> int | None:
        """The Discord event for the night; None when the bot may not create one (or
        Discord refused it): the night runs with its card alone."""
        guild = self._guild(night)
        if guild is None or not may_create_events(guild):
            return None
        voice = await self.bot.languages.server(night.row.guild_id)
        start = datetime.fromtimestamp(night.row.start_at, UTC)
        minutes = night.plan.planned_minutes(max(8, len(night.signed_up)))
        channel = guild.get_channel(night.row.channel_id)
        location = f"#{channel.name}" if channel is not None else f"<#{night.row.channel_id}>"
        try:
            event = await guild.create_scheduled_event(
                name=voice(night_title(night))[:100], start_time=start,
                end_time=start + timedelta(minutes=minutes),
                entity_type=discord.EntityType.external, location=location[:100],
                privacy_level=discord.PrivacyLevel.guild_only,
                description=voice(lines((plan_line(night), _(
                    "Sign up on the card in {channel}, or mark yourself Interested here.",
                    channel=location))))[:1000])
        except discord.HTTPException as error:
            log.info("no Discord event for night %s: %s", night.id, error)
            return None
        return event.id

    async def edit(self, night: Night) -> None:
        guild = self._guild(night)
        if guild is None or night.row.event_id is None:
            return
        start = datetime.fromtimestamp(night.row.start_at, UTC)
        minutes = night.plan.planned_minutes(max(8, len(night.signed_up)))
        try:
            event = await guild.fetch_scheduled_event(night.row.event_id)
            await event.edit(start_time=start, end_time=start + timedelta(minutes=minutes))
        except discord.HTTPException as error:
            log.info("could not move night %s's Discord event: %s", night.id, error)

    async def cancel(self, night: Night) -> None:
        guild = self._guild(night)
        if guild is None or night.row.event_id is None:
            return
        try:
            event = await guild.fetch_scheduled_event(night.row.event_id)
            if event.status is discord.EventStatus.scheduled:
                await event.cancel()
        except discord.HTTPException as error:
            log.info("could not cancel night %s's Discord event: %s", night.id, error)

    async def read_interested(self, nights: NightService, night: Night) -> None:
        """Sign up those Interested on the Discord event (all pages of them)."""
        if night.row.event_id is None:
            return
        try:
            users = await self.interested(night.row.guild_id, night.row.event_id)
        except discord.HTTPException as error:
            log.info("could not read who is interested in night %s: %s", night.id, error)
            return
        await nights.event_interest(night.id, users)

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        """Everyone marked Interested, with their names. Paged here by `after` (the users
        come in ascending id order): discord.py's `ScheduledEvent.users()` pages as if they
        came newest first, and past 100 it repeats some and misses others."""
        found: list[tuple[int, str]] = []
        after = 0
        while True:
            page = await self.bot.http.get_scheduled_event_users(
                guild_id, event_id, limit=PAGE, with_member=True, after=after)
            for entry in page:
                user, member = entry["user"], entry.get("member") or {}
                if not user.get("bot"):
                    name = member.get("nick") or user.get("global_name") or user["username"]
                    found.append((int(user["id"]), name))
            if len(page) < PAGE:
                return found
            after = int(page[-1]["user"]["id"])

    async def ping(self, nights: NightService, night: Night) -> None:
        """Each one signed up gets one ping with **Check in**: a DM, else (DMs closed) a
        mention in the channel, all of them in one message."""
        unreached = []
        for player in night.signed_up:
            if player.pinged or player.checked_in:
                continue
            voice = await self.bot.languages.person(player.user_id, night.row.guild_id)
            text = _("Check-in is open for {night} in {channel}: it starts <t:{start}:R>. "
                     "Press **Check in** to play.", night=night_title(night),
                     channel=f"<#{night.row.channel_id}>", start=str(int(night.row.start_at)))
            view = discord.ui.View(timeout=None)
            view.add_item(CheckInButton(night.id, voice))
            try:
                channel = await self.bot.dm_channels.of(player.user_id)
                await channel.send(voice(text), view=view)
            except discord.HTTPException as error:
                log.info("no check-in DM for %s: %s", player.user_id, error)
                unreached.append(player.user_id)
            await nights.mark_pinged(night.id, player.user_id, player.name)
        if unreached:
            voice = await self.bot.languages.server(night.row.guild_id)
            mentions = " ".join(f"<@{u}>" for u in unreached)
            channel = self.bot.get_partial_messageable(night.row.channel_id,
                                                       guild_id=night.row.guild_id)
            try:
                await channel.send(voice(_(
                    "{mentions}: check-in is open for {night}. Press **Check in** on [the "
                    "card]({link}).", mentions=mentions, night=night_title(night),
                    link=card_link(night))))
            except discord.HTTPException as error:
                log.warning("could not post night %s's check-in mentions: %s", night.id, error)

    @staticmethod
    def too_few(night: Night) -> Text:
        return _("{night} is called off: fewer than two players checked in.",
                 night=night_title(night))

