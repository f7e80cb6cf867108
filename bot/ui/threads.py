"""A busy channel is not a dead end: `/<game> new` where a match is open offers to open the new
lobby in a thread the bot creates (bot/ui/opening.py), and `/match list` shows the server's open
matches. Here: what a thread needs (permissions, the lobby options in a custom id) and the list.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.error_replies import jump_url
from bot.ui.present import COLOUR
from bot.matches.model import Match, player_name
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, Voice, Words, _, listed, n_

THREAD_DAY = 1440  # minutes of quiet before Discord archives the thread
LIST_LIMIT = 20  # matches `/match list` shows; the rest are counted
LIST_CHARS = 3900  # of the 4096 an embed description may hold, leaving room for the count
NO_THREAD_PERMISSION = _(
    "I cannot open a thread here: I need the **Create Public Threads** and **Send Messages in "
    "Threads** permissions in this channel. Ask a moderator to grant them.")
_OPTION = re.compile(r"([a-z_]+)=([a-z0-9]+)")


def encode_options(options: dict[str, Any] | None) -> str:
    """`{"players": 4, "finish": "expert"}` -> `players=4,finish=expert` (custom id safe)."""
    return ",".join(f"{key}={value}" for key, value in (options or {}).items())


def decode_options(text: str) -> dict[str, Any]:
    return {key: int(value) if value.isdigit() else value
            for key, value in _OPTION.findall(text)}


def can_thread(interaction: discord.Interaction) -> bool:
    """A thread can be opened from here: a server text channel (threads do not nest)."""
    channel = interaction.channel
    return interaction.guild_id is not None and getattr(channel, "type", None) == \
        discord.ChannelType.text


def thread_permissions_missing(interaction: discord.Interaction) -> bool:
    perms = interaction.app_permissions
    return not (perms.create_public_threads and perms.send_messages_in_threads)


# -- /match list ----------------------------------------------------------------------------

def match_line(match: Match) -> Words:
    """One open match for `/match list`: game, where (a link), status and players."""
    row = match.row
    link = jump_url(row.guild_id, row.channel_id, row.board_message_id or row.lobby_message_id)
    if match.status == "lobby":
        status = _("waiting for players ({seated}/{target})", seated=len(match.seats),
                   target=match.seat_target)
    else:
        seat = match.current_seat()
        status = _("in play") if seat is None else _(
            "in play, {player} to move", player=player_name(match.player(seat)))
    return _("**{game}** [#{id}]({link}) in {channel} · {status} · {players}",
             game=title(match.game), id=str(match.id), link=link,
             channel=f"<#{row.channel_id}>", status=status,
             players=listed(player_name(seat) for seat in match.seats))


def match_list_embed(matches: list[Match], voice: Voice = ENGLISH_VOICE) -> discord.Embed:
    """The server's open matches in the reader's `voice`: at most LIST_LIMIT lines and
    LIST_CHARS characters."""
    if not matches:
        description = voice(_("No open matches in this server. Start one with a game's `new` "
                              "command (`/gamenight help` lists them)."))
    else:
        lines: list[str] = []
        for match in matches[:LIST_LIMIT]:
            line = voice(match_line(match))[:300]
            if sum(len(kept) + 1 for kept in lines) + len(line) > LIST_CHARS:
                break
            lines.append(line)
        hidden = len(matches) - len(lines)
        if hidden:
            lines.append(voice(n_("…and {n} more match not shown.",
                                  "…and {n} more matches not shown.", hidden)))
        description = "\n".join(lines)
    heading = (_("Open matches ({n})", n=len(matches)) if matches else _("Open matches"))
    return discord.Embed(title=voice(heading), description=description, colour=COLOUR)


def visible_to(interaction: discord.Interaction, match: Match) -> bool:
    """Whether the member may see the match's channel (unknown channels are listed)."""
    return channel_visible(interaction, match.channel_id)


def channel_visible(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether the member may see a channel of this server (unknown channels: yes)."""
    guild = interaction.guild
    channel = guild.get_channel_or_thread(channel_id) if guild else None
    member = interaction.user
    if channel is None or not isinstance(member, discord.Member):
        return True
    return channel.permissions_for(member).view_channel
