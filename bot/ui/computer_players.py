"""Computer players: after every commit, a computer whose turn it is thinks and acts.

Thinking is CPU-bound Python, so it runs in a process pool (a thread would hold the GIL and
stall every channel); the event loop only waits on the pool's future. The move comes back as
text and is applied through the service like a person's, so it has the same move log,
announcements, images and commit order. A decision that arrives after the match moved on
(someone resigned, the match was cancelled) is dropped. Nothing is kept that a restart would
need: at start-up every open match whose computer is to act is scheduled again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.ui.error_replies import NotAnnounced
from bot.ui.gone import Host, post_notice
from bot.ui.persistent import PersistentItem
from bot.ui.presenter import Presenter
from bot.workers.pools import process_pool as worker_pool
from bot.matches.errors import Conflict
from bot.matches.model import Match, player_name
from bot.matches.service import MatchService
from bot.workers.computer_moves import decide, decision_seed, warm_up
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, Text, Voice, _

if TYPE_CHECKING:
    from bot.app.metrics import Metrics
    from bot.ui.language import Languages

log = logging.getLogger(__name__)

THINK_TIMEOUT = 30.0  # seconds a decision may take before the computer counts as failed


def process_pool(workers: int) -> ProcessPoolExecutor:
    """The computers' worker processes, each with every game's computer player imported."""
    return worker_pool(workers, warm_up)


class ComputerStore(Protocol):
    """The slice of the store the computers read: the matches where one may have the turn."""

    async def computer_matches(self) -> list[int]: ...


class ComputerHost(Host, Protocol):
    """What the computers use of the bot beside the store: the client they post a failure
    through (named here, not imported: the client imports this module)."""

    async def wait_until_ready(self) -> None: ...


class ComputerPlayers:
    """Schedules and plays the computers' turns of every match (one task per match)."""

    def __init__(self, store: ComputerStore, service: MatchService,
                 presenters: Mapping[str, Presenter], languages: Languages, host: ComputerHost,
                 *, delay: float, workers: int, executor: Executor | None = None,
                 timeout: float = THINK_TIMEOUT, metrics: Metrics | None = None) -> None:
        """`presenters`: each game's, by its name (filled as the games are added); `host`:
        the client that posts a failure; `metrics`: where each decision is counted, if
        anywhere."""
        self.store = store
        self.service = service
        self.presenters = presenters
        self.languages = languages
        self.host = host
        self.metrics = metrics
        self.delay = delay
        self.timeout = timeout
        self.workers = workers
        self._owns_executor = executor is None
        self._executor = executor
        self._tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._failed: set[tuple[int, int]] = set()  # (match id, version) already reported

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self.workers)
        return self._executor

    def schedule(self, match: Match, *, retry: bool = False) -> bool:
        """Play the computer's turn in `match` if it has one now (the service's `on_commit`);
        whether a turn was scheduled. A failed turn is tried again only with `retry`."""
        seat = self._to_act(match)
        if seat is None:
            return False
        key = (match.id, match.row.version)
        pending = self._tasks.get(match.id)
        if pending is not None and pending[0] == match.row.version and not pending[1].done():
            return True
        if key in self._failed and not retry:
            return False
        self._failed.discard(key)
        task = asyncio.get_running_loop().create_task(
            self._turn(match, seat), name=f"gamenight: computer turn in match {match.id}")
        self._tasks[match.id] = (match.row.version, task)
        task.add_done_callback(lambda done: self._forget(match.id, done))
        return True

    def _to_act(self, match: Match) -> int | None:
        return self.presenters[match.game].computer_to_act(match)

    def _forget(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(match_id, (None, None))[1] is task:
            del self._tasks[match_id]

    async def resume(self) -> None:
        """On taking the clocks (at start-up, or from a process that died): the computers'
        turns pending meanwhile. Only matches where a computer may have the turn are read: a
        takeover under load must not decode every open match at once."""
        for match_id in await self.store.computer_matches():
            match = await self.service.get(match_id)
            if match is not None:
                self.schedule(match)

    async def _turn(self, match: Match, seat: int) -> None:
        await self.host.wait_until_ready()
        if self.delay:
            await asyncio.sleep(self.delay)  # people can follow what happens
        level = match.player(seat).level or "normal"
        try:
            async with asyncio.timeout(self.timeout):
                text, seconds = await self._think(match, seat, level)
            result = await self.service.act_for_computer(match.id, seat, match.row.version,
                                                         text)
        except Conflict:  # another process committed first (the move was made, or moved on)
            result = None
        except Exception as error:  # a bug or a timeout: said once, the match stays playable
            log.error("the computer of seat %s in match %s (%s, %s) failed", seat, match.id,
                      match.game, level, exc_info=error)
            self._count(match.game, level, "failed", None)
            await self._report_failure(match, seat, error)
            return
        self._count(match.game, level, "stale" if result is None else "played", seconds)
        if result is None:
            return
        try:
            await self.presenters[match.game].announce(result)
        except NotAnnounced as error:  # saved: the next board or `/match status` shows it
            log.warning("the move of the computer in match %s was saved but not shown: %s",
                        match.id, error)

    async def _think(self, match: Match, seat: int, level: str) -> tuple[str, float]:
        seed = decision_seed(match.row.seed, match.row.version, seat)
        executor = self.executor()
        try:
            future = executor.submit(decide, match.game, match.row.state, seat, level, seed)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool next
            if self._owns_executor and self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise

    def _count(self, game: str, level: str, outcome: str, seconds: float | None) -> None:
        if self.metrics is not None:
            self.metrics.computer_decision(game, level, outcome, seconds)

    async def _report_failure(self, match: Match, seat: int, error: Exception) -> None:
        """Tell the channel once per turn that the computer could not move, with a retry."""
        key = (match.id, match.row.version)
        if key in self._failed:
            return
        self._failed.add(key)
        timed_out = isinstance(error, TimeoutError)
        text = failure_text(match, seat, timed_out=timed_out)
        voice = await self.languages.server(match.guild_id)  # said in the channel
        view = discord.ui.View(timeout=None)
        view.add_item(RetryComputerButton(match.id, match.row.version, voice, seat=seat,
                                          timed_out=timed_out))
        await post_notice(self.host, match, text, what="a computer-failure notice", view=view)

    async def failure_notice(self, match_id: int, seat: int, *,
                             timed_out: bool) -> Text | None:
        """The failure notice again (a Retry press words it anew); None if the match or its
        seat is gone."""
        match = await self.service.get(match_id)
        if match is None or not 0 <= seat < len(match.seats):
            return None
        return failure_text(match, seat, timed_out=timed_out)

    async def retry(self, match_id: int, version: int) -> Text:
        """The failure notice's Retry: what to add to the notice (the channel reads it)."""
        match = await self.service.get(match_id)
        seat = None if match is None or match.row.version != version else self._to_act(match)
        if seat is None:
            return _("The match has moved on since: there is nothing to retry.")
        self.schedule(match, retry=True)
        return _("**{player}** is trying again.", player=player_name(match.player(seat)))

    def stop(self) -> None:
        """Stop playing: another process plays the computers' turns from now on."""
        for _version, task in list(self._tasks.values()):
            task.cancel()

    def close(self) -> None:
        self.stop()
        if self._owns_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def failure_text(match: Match, seat: int, *, timed_out: bool) -> Text:
    """The channel notice of a computer that could not make its move."""
    values = {"player": player_name(match.player(seat)), "game": title(match.game),
              "id": str(match.id)}
    if timed_out:
        return _("**{player}** took too long to decide and has not moved in this {game} match "
                 "(#{id}). The match stays open: press **Retry** to let it try again, or "
                 "`/match cancel` to end the match.", **values)
    return _("**{player}** ran into an error and has not moved in this {game} match (#{id}). "
             "The match stays open: press **Retry** to let it try again, or `/match cancel` to "
             "end the match.", **values)


class RetryComputerButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:computer:retry:(?P<match_id>[0-9]+):(?P<version>[0-9]+)"
             r"(?::(?P<seat>[0-9]+)(?P<why>[te]))?",
):
    """Under a failed computer's notice: let it try its turn again. Its id also names the seat
    and why it failed (t: too slow, e: an error), so the notice can be worded again; buttons
    posted before that have only the match and version."""

    def __init__(self, match_id: int, version: int, voice: Voice = ENGLISH_VOICE, *,
                 seat: int | None = None, timed_out: bool = False) -> None:
        """`voice`: the channel's, for the label (none when Discord's press is read back)."""
        custom_id = f"gn:computer:retry:{match_id}:{version}"
        if seat is not None:
            custom_id += f":{seat}{'t' if timed_out else 'e'}"
        super().__init__(discord.ui.Button(label=voice(_("Retry")),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=custom_id))
        self.match_id = match_id
        self.version = version
        self.seat = seat
        self.timed_out = timed_out

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> RetryComputerButton:
        seat = None if match["seat"] is None else int(match["seat"])
        return cls(int(match["match_id"]), int(match["version"]), seat=seat,
                   timed_out=match["why"] == "t")

    async def use(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client  # the GamenightBot
        computers: ComputerPlayers = bot.computers
        said = await computers.retry(self.match_id, self.version)
        voice = await bot.languages.server(interaction.guild_id)  # a channel notice
        notice = None if self.seat is None else await computers.failure_notice(
            self.match_id, self.seat, timed_out=self.timed_out)
        before = (voice(notice) if notice is not None else
                  interaction.message.content if interaction.message else None)
        await interaction.response.edit_message(
            content=voice(said) if not before else f"{before}\n{voice(said)}", view=None)
