"""The bot: an AutoShardedBot that opens the store, loads the cogs and syncs the commands."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.doudizhu_ui import ActionButton, PlaySelect
from bot.errors import GamenightTree
from bot.lobby import LobbyButton, RematchButton
from bot.service import MatchService
from bot.threads import ThreadButton
from bot.store import Store

log = logging.getLogger(__name__)


def point_at_api(api_base: str) -> None:
    """Send every REST call (and so the gateway lookup) to `api_base`."""
    discord.http.Route.BASE = api_base


# The bot never joins voice, so discord.py's warnings about missing voice libraries are noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class GamenightBot(commands.AutoShardedBot):
    store: Store
    service: MatchService

    def __init__(self, settings: Settings, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=GamenightTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.presenters: dict[str, Any] = {}

    async def login(self, token: str) -> None:
        point_at_api(self.settings.api_base)
        await super().login(token)

    async def setup_hook(self) -> None:
        from bot.cogs.doudizhu import DouDizhuCog
        from bot.cogs.match import HelpCog, MatchCog
        from bot.cogs.patchwork import PatchworkCog
        from bot.cogs.reversi import ReversiCog
        from bot.cogs.scrabble import ScrabbleCog

        self.store = await Store.open(self.settings.db_path)
        self.service = MatchService(self.store)
        for cog in (MatchCog(self), HelpCog(self), ReversiCog(self), ScrabbleCog(self),
                    PatchworkCog(self), DouDizhuCog(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(LobbyButton, RematchButton, PlaySelect, ActionButton, ThreadButton)
        restored = await self.service.open_matches()
        log.info("restored %d open match(es) from %s", len(restored), self.settings.db_path)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.settings.guild_id is not None:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d server(s)", self.user, self.user.id if self.user
                 else "?", len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
