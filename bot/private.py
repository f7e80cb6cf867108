"""Private information (hands, racks) by DM, with an in-channel notice when DMs are closed.

The notice never reveals anything: it tells the player to use the game's private command,
which answers ephemerally and always works.
"""

from __future__ import annotations

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


async def send_private(bot: GamenightBot, match: Match, seat: int, reply: Reply) -> bool:
    """DM the player in `seat`; False when Discord refuses because their DMs are closed."""
    row = match.player(seat)
    if row.kind != "user" or row.user_id is None:
        return True
    try:
        user = bot.get_user(row.user_id) or await bot.fetch_user(row.user_id)
        await user.send(**reply.kwargs())
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
