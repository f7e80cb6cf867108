"""Opening a round: each table a thread of the night's channel with its players added, and in
it a normal Gamenight match with its board (and hands by DM). A few tables open at a time, so
a round of many keeps within Discord's rate limits (discord.py waits out a 429 by itself)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.matches.titles import title
from bot.nights.model import Night
from bot.nights.rounds import PENDING, is_computer
from bot.nights.service import NightService
from bot.storage.rows import NightTable, PlaceNames
from i18n import _

log = logging.getLogger(__name__)

AT_ONCE = 4  # tables opened at the same time
THREAD_DAY = 1440  # minutes a quiet thread stays unarchived


class TableOpener:
    def __init__(self, bot: Any, nights: NightService) -> None:
        self.bot = bot
        self.nights = nights
        self.gate = asyncio.Semaphore(AT_ONCE)

    async def open_all(self, night: Night) -> Night:
        """Open every pending table of the round; the night as it is after."""
        pending = [t for t in night.round_tables() if t.status == PENDING]
        await asyncio.gather(*(self._open_one(night, t) for t in pending))
        return await self.nights.require(night.id)

    async def _open_one(self, night: Night, table: NightTable) -> None:
        async with self.gate:
            try:
                await self.open_table(night, table)
            except Exception:  # this table stays pending: the next start-up opens it
                log.exception("could not open table %s of night %s round %s", table.number,
                              night.id, table.round)

    async def open_table(self, night: Night, table: NightTable) -> None:
        voice = await self.bot.languages.server(night.row.guild_id)
        parent = self.bot.get_channel(night.row.channel_id)
        if parent is None:
            parent = await self.bot.fetch_channel(night.row.channel_id)
        thread = None
        if table.thread_id is not None:  # the process died after making it
            thread = self.bot.get_channel(table.thread_id)
        if thread is None:
            thread = await parent.create_thread(
                name=voice(_("Night #{id} · round {round} · table {table}", id=str(night.id),
                             round=table.round, table=table.number))[:100],
                type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_DAY,
                reason=voice(_("{game} game night", game=title(night.row.game))))
            await self.nights.note_thread(night.id, table, thread.id)
        for player in table.players:
            if not is_computer(player):
                try:
                    await thread.add_user(discord.Object(player))
                except discord.HTTPException as error:  # a mention in the round card reaches them
                    log.info("could not add %s to night %s's thread: %s", player, night.id, error)
        place = PlaceNames(getattr(parent.guild, "name", None), thread.name)
        match = await self.nights.open_table(night.id, table, thread.id, place)
        if match is None:
            return
        presenter = self.bot.presenters[match.game]
        await presenter.post_board_in_channel(match, match.state.events)
        if getattr(presenter, "has_private", False):
            await presenter.send_privates(match, range(len(match.seats)))
