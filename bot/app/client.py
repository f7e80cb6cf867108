"""The bot: an AutoShardedBot that opens the store, sets up the games registered
in `bot.registry`, and syncs the commands."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from concurrent.futures import Executor
from importlib import import_module
from typing import Any

import discord
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.app.buckets import prune_at_most_every
from bot.matches.deadlines import Clock
from bot.ui.computer_players import ComputerPlayers, RetryComputerButton
from bot.app.config import DEFAULT_API_BASE, Settings
from bot.app.events import guard_parsers
from bot.storage.database import safe_url
from bot.storage.errors import StoreOutage
from bot.ui.dm_channels import DMChannels
from bot.ui.error_replies import GamenightTree
from bot.ui.language import CommandTranslator, Languages
from bot.app.metrics import Metrics
from bot.app.readiness import Readiness
from bot.ui.permissions import ChannelPerms
from bot.ui.presenter import Presenter
from bot.matches import log_context
from bot.matches.records import backfill
from bot.operations.schedule import BackupSchedule
from bot.registry import GAMES, SHARED
from bot.workers.pictures import RENDERS
from bot.matches.reviews import Reviews
from bot.matches.service import MatchService
from bot.matches.model import Match
from bot.storage.store import Store
from bot.matches.timekeeper import Timekeeper
from bot.nights.service import NightService
from bot.ui.nights.runner import NightRunner
from bot.ui.turn_clocks import BackButton, TurnClocks
from bot.ui.unreadable import answer_unclaimed
from bot.ui.activity import ActivityMoves, OpenBoardButton
from bot.web.activity import Activity
from bot.web.server import WebPages

log = logging.getLogger(__name__)


def point_at_api(api_base: str) -> None:
    """Send every REST call (and so the gateway lookup) to `api_base`."""
    discord.http.Route.BASE = api_base


def noting_ids(parse: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """discord.py's parser of interactions, noting the server and channel ids for the log
    lines of every task it starts (the command or component handler, the listeners)."""

    def parse_noting_ids(data: dict[str, Any]) -> None:
        channel = data.get("channel_id") or (data.get("channel") or {}).get("id")
        guild = data.get("guild_id")
        token = log_context.only(guild_id=int(guild) if guild else None,
                                 channel_id=int(channel) if channel else None)
        try:
            parse(data)
        finally:
            log_context.forget(token)

    return parse_noting_ids


# The bot never joins voice, so discord.py's warnings about missing voice libraries are noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class GamenightBot(commands.AutoShardedBot):
    # made once the store is open (setup_hook)
    store: Store
    service: MatchService
    languages: Languages
    clocks: TurnClocks
    computers: ComputerPlayers
    timekeeper: Timekeeper
    nights: NightService
    night_runner: NightRunner
    backups: BackupSchedule  # only with GAMENIGHT_BACKUP_DIR

    def __init__(self, settings: Settings, *, computer_executor: Executor | None = None,
                 clock: Clock | None = None, **options: Any) -> None:
        """`computer_executor` runs the computers' decisions (default: a process pool of
        `settings.computer_workers`); tests may pass one that runs them in this process, and
        a `clock` they move themselves."""
        intents = discord.Intents.none()
        intents.guilds = True
        self.metrics: Metrics | None = None if settings.metrics_port is None else Metrics(settings.api_base)
        if self.metrics is not None:
            options.setdefault("http_trace", self.metrics.trace_config())
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=GamenightTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.presenters: dict[str, Presenter] = {}  # each game's, by its name
        self._computer_executor = computer_executor
        self.clock = clock or Clock()
        self.web: WebPages | None = None  # the match pages, with GAMENIGHT_WEB_PORT
        # one replay drawn at a time: the others wait, and the computers keep a worker free
        self.replay_gate = asyncio.Semaphore(1)
        self.add_listener(answer_unclaimed, "on_interaction")  # clicks nothing takes any more
        self.perms = ChannelPerms(self)  # what the bot may post where, without being refused
        self.dm_channels = DMChannels(self)  # a DM is one request, not three
        self.add_listener(self.perms.remember, "on_interaction")
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = noting_ids(parsers["INTERACTION_CREATE"])
        guard_parsers(self._connection)  # a malformed event is dropped, not fatal
        prune_at_most_every(self.http)
        if self.metrics is not None:
            self.metrics.count_dm_refusals(self.http)
        # the gateway per shard, for /readyz and gamenight_gateway_connected
        self.readiness = Readiness(self, None if self.metrics is None
                                   else self.metrics.gateway_connected)
        self.readiness.expect(settings.shard_ids or ())
        # Not on_shard_ready: discord.py sends it up to 2 s after READY (once the servers have
        # loaded), so it can come after the connection has dropped again.
        for event in ("on_shard_connect", "on_shard_resumed"):
            self.add_listener(self.readiness.connected, event)
        self.add_listener(self.readiness.disconnected, "on_shard_disconnect")

    async def launch_shards(self) -> None:
        """discord.py asks the API for the gateway only when it chooses the shard count, and
        after an invalid session (or a failed reconnection) it identifies at Discord's default
        gateway: both past a DISCORD_API_BASE proxy (or fake). So the gateway is always asked of
        the API, and with such a base it is the default for reconnections too."""
        if self.is_closed():
            return
        advised, url, _limits = await self.http.get_bot_gateway()
        gateway = yarl.URL(url)
        if self.settings.api_base != DEFAULT_API_BASE:
            DiscordWebSocket.DEFAULT_GATEWAY = gateway
        if self.shard_count is None:
            self.shard_count = advised
        self._connection.shard_count = self.shard_count
        shard_ids = self.shard_ids or range(self.shard_count)
        self._connection.shard_ids = shard_ids
        for shard_id in shard_ids:
            await self.launch_shard(gateway, shard_id, initial=shard_id == shard_ids[0])

    async def login(self, token: str) -> None:
        point_at_api(self.settings.api_base)
        await super().login(token)

    async def setup_hook(self) -> None:
        RENDERS.use(self.settings.render_workers)
        self._renders_started = asyncio.create_task(RENDERS.start())  # while it connects
        self.store = await Store.open(self.settings.db_path)
        self.store.clock = self.clock.now
        self.service = MatchService(self.store)
        self.languages = Languages(self, self.store)
        self.computers = ComputerPlayers(self.store, self.service, self.presenters,
                                         self.languages, self, delay=self.settings.computer_delay,
                                         workers=self.settings.computer_workers,
                                         executor=self._computer_executor, metrics=self.metrics)
        self.clocks = TurnClocks(self.store, self.service, self.presenters, self.languages, self,
                                 self.clock)
        self.reviews = Reviews(self.store, self.computers.executor)
        self.add_listener(self.clocks.back_by_command, "on_interaction")  # an away player acts
        self.add_listener(self._note_language, "on_interaction")  # for DMs in their language
        if self.metrics is not None:
            self.add_listener(self._interaction_received, "on_interaction")
        # runs the clocks and the computers, or not
        on_lease = None if self.metrics is None else self.metrics.lease
        self.nights = NightService(self.store, self.service, self.clock)
        self.night_runner = NightRunner(self, self.nights, self.clock)
        self.timekeeper = Timekeeper(self.store, self.service, self.clocks, self.computers,
                                     self.clock, on_lease=on_lease, nights=self.night_runner)
        self.service.on_commit = self._committed
        for adapter in (SHARED, *(game.adapter for game in GAMES)):
            # imported, not load_extension'ed: that would execute a second copy of a module
            # already imported elsewhere, with its own classes
            await import_module(adapter).setup(self)
        if self.metrics is not None and self.settings.metrics_port is not None:
            self.service.on_write = self.metrics.db_write
            await self.metrics.start(self.settings.metrics_port, self.store.open_counts,
                                     self.settings.metrics_host, self.readiness.problems)
        if self.settings.web_port is not None and self.settings.public_url is not None:
            self.web = WebPages(self.store, public_url=self.settings.public_url,
                                trusted_proxies=self.settings.web_trusted_proxies)
            if self.settings.activity:
                self.web.activity = self.activity_pages(self.web)
            await self.web.start(self.settings.web_host, self.settings.web_port)
        self.add_dynamic_items(RetryComputerButton, BackButton, OpenBoardButton)
        recorded = await backfill(self.service)  # matches that finished before records
        if recorded:
            log.info("recorded %d match(es) that finished before records were kept", recorded)
        restored = await self.service.open_matches()
        log.info("restored %d open match(es) from %s", len(restored),
                 safe_url(str(self.settings.db_path)))
        # The clocks, then the computers' turns pending when the bot stopped, if this process
        # keeps time for all that share the database (bot/matches/timekeeper.py).
        await self.timekeeper.start()
        self.start_backups()
        if self.settings.review_finished and (self.shard_ids is None or 0 in self.shard_ids):
            await self.reviews.catch_up(self.service.get)  # one process of several does
        await self.tree.set_translator(CommandTranslator())
        if self.shard_ids is None or 0 in self.shard_ids:  # one process of several syncs
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

    def activity_pages(self, pages: WebPages) -> Activity:
        """The Discord Activity's routes (DISCORD_CLIENT_SECRET), moves made as by command."""
        settings = self.settings
        return Activity(pages, ActivityMoves(self), api_base=settings.api_base,
                        client_id=lambda: settings.client_id or self.application_id,
                        client_secret=settings.client_secret, bot_token=settings.token)

    def start_backups(self) -> None:
        """Scheduled backups (GAMENIGHT_BACKUP_DIR), taken in a thread of their own; of
        several processes sharing a database, the one running shard 0 takes them."""
        settings = self.settings
        if settings.backup_dir is None or not (self.shard_ids is None or 0 in self.shard_ids):
            return
        self.backups = BackupSchedule(settings.db_path, settings.backup_dir,
                                      settings.backup_every, settings.backup_keep, self.clock,
                                      self.metrics)
        self.backups.start()

    def _committed(self, match: Match) -> None:
        """Every commit: a computer's turn to schedule, the match's clocks to set, if this
        process keeps time (else the one that does hears of the commit from the database);
        the match's open pages told."""
        if self.web is not None:
            self.web.committed(match)
        if self.timekeeper.holding:
            self.computers.schedule(match)
            self.clocks.arm(match.row)
        if match.status == "finished" and self.settings.review_finished:
            self.reviews.queue(match)  # the coach's review, ready when asked for
        if match.status in ("finished", "cancelled"):  # a game night's table, maybe
            self.night_runner.spawn(self.night_runner.match_ended(match),
                                    f"match {match.id} ended")

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d server(s)", self.user, self.user.id if self.user
                 else "?", len(self.guilds))

    async def _note_language(self, interaction: discord.Interaction) -> None:
        """Note the language of each person's Discord client as they use the bot, so what it
        later sends them unasked (DMs, reminders) is in their language."""
        await self.languages.reader(interaction)

    async def _interaction_received(self, interaction: discord.Interaction) -> None:
        if self.metrics is not None:
            self.metrics.interaction_received(interaction)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """A listener that met the database out of reach (an interaction's own command answers
        its player): one line, not a traceback; anything else as discord.py logs it."""
        error = sys.exc_info()[1]
        if isinstance(error, StoreOutage):
            log.warning("%s skipped: the database is out of reach (%s)", event_method, error)
            return
        await super().on_error(event_method, *args, **kwargs)

    async def close(self) -> None:
        if self.metrics is not None:
            await self.metrics.stop()  # first: a scrape reads the store
        if self.web is not None:
            await self.web.stop()  # so do the pages
        if hasattr(self, "backups"):
            await self.backups.stop()
        if hasattr(self, "timekeeper"):
            await self.timekeeper.stop()  # gives the lease up: another process takes over
        if hasattr(self, "reviews"):
            await self.reviews.stop()
        if hasattr(self, "computers"):
            self.computers.close()
        RENDERS.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
