"""What a game night does by itself on Discord, at its times and as its games end: check-in
opens (pings), the night starts (round 1), each round's tables open in threads, a round that is
over gives way to the next, and the standings follow each round.

Its times follow from the night's row (`start_at`, the check-in minutes, `round_due`), so they
are armed from the database after every change and at start-up, in the process that keeps
time (bot/matches/timekeeper.py): a restart resumes them, and tables seated but not yet opened
(the process died in between) are opened then.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Any

import discord

from bot.matches.deadlines import Clock, Deadlines
from bot.matches.model import Match
from bot.nights.model import CANCELLED, CHECKIN, FINISHED, RUNNING, SCHEDULED, Night
from bot.nights.rounds import PENDING, is_computer
from bot.nights.service import NightService
from bot.ui.nights.cards import card_message, round_embed, standings_embed
from bot.ui.nights.events import NightEvents
from bot.ui.nights.pictures import standings_file
from bot.ui.nights.tables import TableOpener
from bot.ui.present import answer_privately
from i18n import Words, _

log = logging.getLogger(__name__)

OPENS, STARTS, ROUND_DUE = "check-in opens", "starts", "round due"  # a night's deadlines


class NightRunner:
    def __init__(self, bot: Any, nights: NightService, clock: Clock) -> None:
        self.bot = bot
        self.nights = nights
        self.clock = clock
        self.deadlines = Deadlines(clock, self._fire)
        self.events = NightEvents(bot)
        self.tables = TableOpener(bot, nights)
        self.running = False
        self._tasks: set[asyncio.Task[None]] = set()
        nights.on_change = self.arm

    # -- keeping time (the timekeeper's holder only) -----------------------------------------

    def arm(self, night: Night) -> None:
        if not self.running:
            return
        row = night.row
        due: dict[str, float | None] = dict.fromkeys((OPENS, STARTS, ROUND_DUE))
        if row.status == SCHEDULED:
            due[OPENS] = row.start_at - night.plan.checkin_minutes * 60
        if row.status in (SCHEDULED, CHECKIN):
            due[STARTS] = row.start_at
        if row.status == RUNNING and not row.paused and row.round_due is not None:
            due[ROUND_DUE] = row.round_due
        for kind, when in due.items():
            if when is None:
                self.deadlines.disarm((night.id, kind))
            else:
                self.deadlines.arm((night.id, kind), when)

    async def start(self) -> None:
        self.running = True
        for night in await self.nights.open_nights():
            self.arm(night)
            if night.row.status == RUNNING:  # tables seated but never opened, a round over
                self.spawn(self._resume(night), f"night {night.id} resumed")
        self.deadlines.start()

    async def stop(self) -> None:
        self.running = False
        await self.deadlines.stop()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def rescan(self) -> None:
        for night in await self.nights.open_nights():
            self.arm(night)

    def spawn(self, work: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=f"gamenight: {name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fire(self, key: Hashable) -> None:
        night_id, kind = key  # type: ignore[misc]
        night = await self.nights.get(night_id)
        if night is None:
            return
        if kind == OPENS:
            await self.open_checkin(night)
        elif kind == STARTS:
            await self.begin(night)
        elif kind == ROUND_DUE and night.row.round_due is not None:
            if night.row.round_due <= self.clock.now():
                await self.next_round(night.id, force=True)

    async def _resume(self, night: Night) -> None:
        await self.bot.wait_until_ready()
        if any(t.status == PENDING for t in night.round_tables()):
            await self.open_round(night)
        elif night.round_done:
            await self.next_round(night.id)

    # -- the night's steps -------------------------------------------------------------------

    async def open_checkin(self, night: Night) -> None:
        await self.bot.wait_until_ready()
        await self.events.read_interested(self.nights, night)
        opened = await self.nights.open_checkin(night.id)
        if opened is None:
            return
        await self.refresh_card(opened)
        await self.events.ping(self.nights, opened)

    async def begin(self, night: Night) -> None:
        await self.bot.wait_until_ready()
        if night.row.status == SCHEDULED:  # check-in never opened (scheduled too soon)
            await self.open_checkin(night)
        night = await self.nights.require(night.id)
        await self.events.read_interested(self.nights, night)
        started = await self.nights.begin(night.id)
        if started is None:
            return
        await self.refresh_card(started)
        if started.row.status == CANCELLED:
            await self.say(started, self.events.too_few(started))
            await self.events.cancel(started)
            return
        await self.open_round(started)

    async def open_round(self, night: Night) -> None:
        """Open the round's tables (unless the night is paused), and show them on the round
        card (posted once a round, then edited)."""
        if not night.row.paused:
            night = await self.tables.open_all(night)
        if night.row.round_message_id is None:
            await self.post_round_card(night)
        else:
            await self.edit_round_card(night, night.row.round_message_id, night.row.round)

    async def match_ended(self, match: Match) -> None:
        """Every match that closes: if it is a night's table, its result counts, and a round
        that is over gives way to the next."""
        try:
            night = await self.nights.match_ended(match)
        except Exception:
            log.exception("could not record the night result of match %s", match.id)
            return
        if night is None:
            return
        await self.edit_round_card(night, night.row.round_message_id, night.row.round)
        if night.round_done:
            await self.next_round(night.id)

    async def next_round(self, night_id: int, *, force: bool = False) -> Night | None:
        before = await self.nights.require(night_id)
        night = await self.nights.advance(night_id, force=force)
        if night is None:
            return None
        await self.edit_round_card(night, before.row.round_message_id, before.row.round)
        await self.post_standings(night, before.row.round)
        if night.row.status == FINISHED:
            await self.refresh_card(night)
            return night
        await self.open_round(night)
        return night

    async def seat_substitute(self, night: Night, out_id: int, in_id: int) -> None:
        """Show a substitution at the table: the substitute added to its thread, told there,
        and sent the seat's hand or rack."""
        table = night.table_of(in_id)
        if table is None or table.thread_id is None:
            return
        voice = await self.bot.languages.server(night.row.guild_id)
        thread = self.bot.get_partial_messageable(table.thread_id, guild_id=night.row.guild_id)
        try:
            await self.bot.http.add_user_to_thread(table.thread_id, in_id)
            await thread.send(voice(_("<@{sub}> takes <@{player}>'s seat; the game goes on.",
                                      sub=str(in_id), player=str(out_id))))
        except discord.HTTPException as error:
            log.info("could not show the substitute in night %s: %s", night.id, error)
        match = None if table.match_id is None else await self.bot.service.get(table.match_id)
        if match is not None and match.status == "active":
            presenter = self.bot.presenters[match.game]
            seat = match.seat_of(in_id)
            if getattr(presenter, "has_private", False) and seat is not None:
                await presenter.send_privates(match, [seat])

    # -- messages ----------------------------------------------------------------------------

    async def channel(self, night: Night) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(night.row.channel_id, guild_id=night.row.guild_id)

    async def say(self, night: Night, text: Words) -> None:
        voice = await self.bot.languages.server(night.row.guild_id)
        try:
            await (await self.channel(night)).send(voice(text))
        except discord.HTTPException as error:
            log.warning("could not post in night %s's channel: %s", night.id, error)

    async def post_card(self, night: Night) -> Night:
        voice = await self.bot.languages.server(night.row.guild_id)
        message = await (await self.channel(night)).send(**card_message(night, voice))
        return await self.nights.set_discord(night.id, card_message_id=message.id)

    async def refresh_card(self, night: Night) -> None:
        if night.row.card_message_id is None:
            return
        voice = await self.bot.languages.server(night.row.guild_id)
        channel = await self.channel(night)
        try:
            await channel.get_partial_message(night.row.card_message_id).edit(
                **card_message(night, voice))
        except discord.HTTPException as error:
            log.info("could not edit night %s's card: %s", night.id, error)

    async def answer_on_card(self, interaction: discord.Interaction, night: Night,
                             said: Words) -> None:
        """A button's answer: the card itself updated when pressed there, and a private
        line to the person who pressed it."""
        voice = await self.bot.languages.reader(interaction)
        on_card = (interaction.message is not None
                   and interaction.message.id == night.row.card_message_id)
        if on_card:
            server = await self.bot.languages.server(night.row.guild_id)
            await interaction.response.edit_message(**card_message(night, server))
            await interaction.followup.send(voice(said), ephemeral=True)
            return
        await self.refresh_card(night)
        await answer_privately(interaction, voice(said))

    async def post_round_card(self, night: Night) -> None:
        voice = await self.bot.languages.server(night.row.guild_id)
        mentions = [p for t in night.round_tables() for p in t.players if not is_computer(p)]
        content = " ".join(f"<@{p}>" for p in mentions)[:2000] or None
        try:
            message = await (await self.channel(night)).send(
                content=content, embed=round_embed(night, voice))
        except discord.HTTPException as error:
            log.warning("could not post night %s's round card: %s", night.id, error)
            return
        await self.nights.set_discord(night.id, round_message_id=message.id)

    async def edit_round_card(self, night: Night, message_id: int | None,
                              round_: int) -> None:
        """The round card of `round_` shows its tables' results so far."""
        if message_id is None:
            return
        voice = await self.bot.languages.server(night.row.guild_id)
        channel = await self.channel(night)
        try:
            await channel.get_partial_message(message_id).edit(
                embed=round_embed(night, voice, round_))
        except discord.HTTPException as error:
            log.info("could not edit night %s's round card: %s", night.id, error)

    async def post_standings(self, night: Night, after_round: int) -> None:
        """The standings picture (and its alt text), with the podium in words at the end."""
        voice = await self.bot.languages.server(night.row.guild_id)
        try:
            file = await standings_file(night, voice, after_round)
            await (await self.channel(night)).send(
                embed=standings_embed(night, voice, after_round), file=file)
        except discord.HTTPException as error:
            log.warning("could not post night %s's standings: %s", night.id, error)
