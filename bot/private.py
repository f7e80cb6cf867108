"""Private information (hands, racks) by DM, with an in-channel notice when DMs are closed.

The notice never reveals anything: it tells the player to use the game's private command,
which answers ephemerally and always works.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.errors import jump_url
from bot.present import Reply
from bot.service import Match

if TYPE_CHECKING:
    from bot.client import GamenightBot

log = logging.getLogger(__name__)

DMS_CLOSED = 50007


def where(bot: GamenightBot, match: Match) -> str:
    """Which server, channel and match a private message belongs to, with a link."""
    guild = bot.get_guild(match.guild_id) if match.guild_id else None
    channel = bot.get_channel(match.channel_id)
    server = guild.name if guild else "a server"
    place = f"#{channel.name}" if channel is not None and hasattr(channel, "name") else "a channel"
    link = jump_url(match.guild_id, match.channel_id, None)
    return f"**{server}** › [{place}]({link}) · {match.title} match #{match.id}"


class LiveControls:
    """The DMs per match and seat whose menus and buttons still look usable.

    Every accepted action makes all of a match's older controls stale (a click would only be
    refused), so they are taken off when the next action is announced. Each DM is kept with
    the match version its controls were built for: announcements may overlap, and one that
    runs late must neither strip newer controls nor leave its own stale ones up. Kept in
    memory: after a restart older controls stay up and are refused politely when used.
    """

    def __init__(self) -> None:
        self._messages: dict[int, dict[int, tuple[int, discord.Message]]] = {}
        self._newest: dict[int, int] = {}  # the newest version announced, per match

    async def keep(self, match_id: int, seat: int, version: int,
                   message: discord.Message) -> None:
        """Remember a DM with controls, unless a newer action already made them stale."""
        seats = self._messages.setdefault(match_id, {})
        older = seats.get(seat)
        if version < self._newest.get(match_id, 0) or (older and older[0] > version):
            await self._strip(match_id, message)
            return
        seats[seat] = (version, message)
        if older is not None:
            await self._strip(match_id, older[1])

    def forget(self, match_id: int, message_id: int) -> None:
        """A control on this message was used, and the message already says so."""
        seats = self._messages.get(match_id, {})
        for seat in [s for s, (_, message) in seats.items() if message.id == message_id]:
            del seats[seat]

    async def retire(self, match_id: int, version: int) -> None:
        """The match is at `version` now: take the controls off every older remembered DM."""
        self._newest[match_id] = max(version, self._newest.get(match_id, 0))
        seats = self._messages.get(match_id, {})
        stale = [seat for seat, (built, _) in seats.items() if built < version]
        messages = [seats.pop(seat)[1] for seat in stale]
        await asyncio.gather(*(self._strip(match_id, message) for message in messages))

    @staticmethod
    async def _strip(match_id: int, message: discord.Message) -> None:
        try:
            await message.edit(view=None)
        except discord.HTTPException as error:  # a stale control is refused anyway
            log.info("could not take the old controls off a DM of match %s: %s",
                     match_id, error)


async def send_private(bot: GamenightBot, match: Match, seat: int, reply: Reply,
                       controls: LiveControls | None = None) -> bool:
    """DM the player in `seat`; False when Discord refuses because their DMs are closed.
    A DM with controls is remembered in `controls`, to be retired once the game moves on."""
    row = match.player(seat)
    if row.kind != "user" or row.user_id is None:
        return True
    try:
        user = bot.get_user(row.user_id) or await bot.fetch_user(row.user_id)
        message = await user.send(**reply.kwargs())
        if controls is not None and reply.view is not None:
            await controls.keep(match.id, seat, match.row.version, message)
    except discord.HTTPException as error:
        if isinstance(error, discord.Forbidden) and error.code == DMS_CLOSED:
            return False
        # Anything else (a deleted account, Discord having a bad moment) must not undo the
        # move's announcement; the private command still shows the hand.
        log.warning("DM to seat %s of match %s failed: %s", seat, match.id, error)
    return True


async def notify_closed_dms(bot: GamenightBot, match: Match, seats: list[int],
                            command: str, thing: str) -> None:
    """Tell players in the channel (once per match) to use `command` instead of DMs."""
    fresh = [seat for seat in seats if not await bot.store.dm_notice_sent(match.id, seat)]
    if not fresh:
        return
    users = [match.player(seat).user_id for seat in fresh]
    mentions = ", ".join(f"<@{user_id}>" for user_id in users)
    text = (f"{mentions}: I could not send you your {thing} by DM (your DMs are closed to me). "
            f"Use `{command}` here to see it privately; it always works.")
    channel = bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in users]))
    except discord.HTTPException as error:
        log.warning("could not post the closed-DM notice for match %s: %s", match.id, error)
        return
    for seat in fresh:
        await bot.store.record_dm_notice(match.id, seat)
