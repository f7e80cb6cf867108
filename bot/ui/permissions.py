"""What the bot may post in a channel, known without a refused request.

Discord counts every refused request (403 50013 Missing Permissions) against the bot's address,
so a post that needs Send Messages or Attach Files is checked first: with the permissions
discord.py caches for the guild (kept current by the gateway), or else the `app_permissions`
of the last interaction in that channel. Interaction responses need no channel permission.
"""

from __future__ import annotations

import logging

import discord

from bot.ui.present import Reply
from i18n import ENGLISH_VOICE, Text, Voice, Words, _

log = logging.getLogger(__name__)

SEND = "Send Messages"
ATTACH = "Attach Files"
NO_PICTURE = _("The picture is not shown: I need the **Attach Files** permission in this channel.")
PERMISSIONS: dict[str, Text] = {  # `missing()`'s names, as Discord shows them in each language
    "View Channel": _("View Channel"),
    SEND: _("Send Messages"),
    "Send Messages in Threads": _("Send Messages in Threads"),
    ATTACH: _("Attach Files"),
}


def permission_words(name: str) -> Words:
    """A permission `missing()` named, in words (as Discord's settings show it)."""
    return PERMISSIONS.get(name, name)  # type: ignore[return-value]  # a name as it is


class ChannelPerms:
    """The bot's permissions per channel, and which missing ones a player was already told."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._seen: dict[int, discord.Permissions] = {}
        self._told: set[tuple[int, str]] = set()

    async def remember(self, interaction: discord.Interaction) -> None:
        """Keep the `app_permissions` of a server interaction (an `on_interaction` listener)."""
        if interaction.guild_id is not None and interaction.channel_id is not None:
            self._seen[interaction.channel_id] = interaction.app_permissions

    def of(self, channel_id: int) -> discord.Permissions | None:
        """The bot's permissions in the channel; None when unknown (a DM or never seen)."""
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if guild is not None and guild.me is not None:
            return channel.permissions_for(guild.me)  # type: ignore[union-attr]
        return self._seen.get(channel_id)

    def missing(self, channel_id: int, *, files: bool = False) -> str | None:
        """The permission a channel post (with a file when `files`) lacks, or None."""
        perms = self.of(channel_id)
        if perms is None:
            return None
        channel = self.client.get_channel(channel_id)
        in_thread = isinstance(channel, discord.Thread)
        if not perms.view_channel:
            return "View Channel"
        if not (perms.send_messages_in_threads if in_thread else perms.send_messages):
            return "Send Messages in Threads" if in_thread else SEND
        if files and not perms.attach_files:
            return ATTACH
        return None

    def first_time(self, channel_id: int, permission: str) -> bool:
        """Whether nobody was told yet that `permission` is missing here (said once)."""
        key = (channel_id, permission)
        if key in self._told:
            return False
        self._told.add(key)
        return True


def drop_picture(reply: Reply, note: Words = NO_PICTURE, *,
                 voice: Voice | None = None) -> None:
    """Leave the picture out of `reply` and say why (where Attach Files is missing), in the
    `voice` of whoever reads the reply (by default the one it was worded in)."""
    if reply.png is None:
        return
    voice = voice or reply.voice or ENGLISH_VOICE
    reply.png = reply.alt = None
    if reply.embed is not None:
        reply.embed.add_field(name=voice(_("Board")), value=voice(note), inline=False)
    else:
        reply.content = f"{reply.content or ''}\n{voice(note)}".strip()
