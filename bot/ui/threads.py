"""A busy channel is not a dead end: `/<game> new` where a match is open offers to open the new
lobby in a thread the bot creates, and `/match list` shows the server's open matches.

The offer's button is a persistent `DynamicItem`: its custom id carries the game, the invited
player and the lobby options, so it works the same after a restart and keeps nothing in memory.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.ui.error_replies import explain, jump_url, report_error
from bot.ui.present import COLOUR
from bot.matches.errors import ChannelTaken, LobbyError
from bot.matches.model import Match, Player, player_name
from bot.matches.titles import title
from bot.ui.unreadable import voice_of
from i18n import ENGLISH_VOICE, Voice, Words, _, listed, n_

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

log = logging.getLogger(__name__)

THREAD_DAY = 1440  # minutes of quiet before Discord archives the thread
LIST_LIMIT = 20  # matches `/match list` shows; the rest are counted
LIST_CHARS = 3900  # of the 4096 an embed description may hold, leaving room for the count
NO_THREAD_PERMISSION = _(
    "I cannot open a thread here: I need the **Create Public Threads** and **Send Messages in "
    "Threads** permissions in this channel. Ask a moderator to grant them.")
_OPTION = re.compile(r"([a-z]+)=([a-z0-9]+)")


def encode_options(options: dict[str, Any] | None) -> str:
    """`{"players": 4, "finish": "expert"}` -> `players=4,finish=expert` (custom id safe)."""
    return ",".join(f"{key}={value}" for key, value in (options or {}).items())


def decode_options(text: str) -> dict[str, Any]:
    return {key: int(value) if value.isdigit() else value
            for key, value in _OPTION.findall(text)}


class ThreadButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gn:thread:(?P<game>[a-z]+):(?P<invited>[0-9]+):(?P<options>[a-z0-9=,]*)",
):
    """On the ephemeral "a match is already here" answer: open the lobby in a new thread."""

    def __init__(self, game: str, invited: int | None, options: dict[str, Any] | None,
                 voice: Voice = ENGLISH_VOICE) -> None:
        custom_id = f"gn:thread:{game}:{invited or 0}:{encode_options(options)}"
        super().__init__(discord.ui.Button(label=voice(_("Open it in a thread")),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=custom_id))
        self.game, self.invited, self.options = game, invited, options

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> ThreadButton:
        invited = int(match["invited"]) or None
        return cls(match["game"], invited, decode_options(match["options"]) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            bot: GamenightBot = interaction.client  # type: ignore[assignment]
            cog = bot.presenters.get(self.game)
            if cog is None:
                raise LobbyError(_("That button is from an older version of the bot: use the "
                                   "game's `new` command again."))
            invited = await _player(interaction, self.invited)
            await cog.open_in_thread(interaction, invited, self.options)
        except Exception as error:  # one place decides what the user sees
            await report_error(interaction, error)


async def _player(interaction: discord.Interaction, user_id: int | None) -> Player | None:
    if user_id is None or interaction.guild is None:
        return None
    member = interaction.guild.get_member(user_id)
    if member is None:
        try:
            member = await interaction.guild.fetch_member(user_id)
        except discord.HTTPException:
            raise LobbyError(_("{mention}, whom you invited, is no longer in this server: open "
                               "the lobby again with someone else.",
                               mention=f"<@{user_id}>")) from None
    return Player(member.id, member.display_name)


def can_thread(interaction: discord.Interaction) -> bool:
    """A thread can be opened from here: a server text channel (threads do not nest)."""
    channel = interaction.channel
    return interaction.guild_id is not None and getattr(channel, "type", None) == \
        discord.ChannelType.text


async def offer_thread(interaction: discord.Interaction, taken: ChannelTaken, game: str,
                       invited: Player | None, options: dict[str, Any] | None) -> None:
    """Answer `/<game> new` in a taken channel: where the match is, and (in a text channel) a
    button to open the new lobby in a thread instead (in the asker's language: only they see
    it)."""
    voice = await voice_of(interaction)
    text = voice(explain(taken) or taken.key)
    view = None
    if can_thread(interaction) and thread_permissions_missing(interaction):
        text += "\n" + voice(NO_THREAD_PERMISSION)
    elif can_thread(interaction):
        text += "\n" + voice(_("Or press **Open it in a thread**: I start a thread here with "
                               "your lobby in it."))
        view = discord.ui.View(timeout=None)
        view.add_item(ThreadButton(game, None if invited is None else invited.user_id, options,
                                   voice))
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    await interaction.response.send_message(text, **kwargs)


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
