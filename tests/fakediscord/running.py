"""Running a discord.py bot against the fake."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from tests.fakediscord.core import FakeDiscord
from tests.fakediscord.errors import BotError, IdleTimeout

log = logging.getLogger("fakediscord")


@contextlib.asynccontextmanager
async def run_bot(bot: Any, fake: FakeDiscord, *, token: str | None = None, timeout: float = 30.0,
                  fast_ready: bool = True):
    """Start ``bot`` (a discord.py Client/Bot, not yet started) against ``fake``; stop it on exit.

    Waits until on_ready fired, every fake guild is available in the bot's cache and the bot is
    idle (so commands synced in setup_hook/on_ready are stored).  ``fast_ready`` lowers
    discord.py's ``guild_ready_timeout`` (2 s of waiting for more GUILD_CREATEs) to 0.05 s; the fake
    sends all GUILD_CREATEs right after READY and a late one would still arrive as guild_available.
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    if fast_ready:
        bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.05)
    fake.attach(bot)
    er0 = len(fake.errors)
    task = asyncio.create_task(bot.start(token or fake.token), name="bot.start")
    try:
        ready = asyncio.create_task(bot.wait_until_ready(), name="fakediscord: wait_until_ready")
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()
            raise RuntimeError("bot.start() returned before the bot became ready")
        if ready not in done:
            ready.cancel()
            raise IdleTimeout(f"bot not ready after {timeout}s; errors: {fake.errors[er0:]}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        shards = getattr(bot, "shard_ids", None) or range(getattr(bot, "shard_count", None) or 1)
        count = getattr(bot, "shard_count", None) or 1
        ours = [g for g in fake.guilds if (g >> 22) % count in shards]  # the bot's shards' guilds
        while any(bot.get_guild(g) is None or bot.get_guild(g).unavailable for g in ours):
            if loop.time() > deadline:
                raise IdleTimeout("bot did not receive all guilds")
            await asyncio.sleep(0.005)
        await fake.wait_idle()
        if fake.errors[er0:] and fake.raise_bot_errors and not fake._expect_errors:
            raise BotError("the bot reported errors during startup:\n" + "\n".join(fake.errors[er0:]))
        yield bot
    finally:
        with contextlib.suppress(Exception):
            await bot.close()
        try:
            await asyncio.wait_for(task, timeout)
        except (asyncio.CancelledError, Exception) as e:  # noqa: BLE001
            if not isinstance(e, asyncio.CancelledError):
                log.warning("fakediscord: bot.start() ended with %r", e)
        fake.detach(bot)
        if not fake._bots:  # another bot still running keeps talking to the fake
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
