"""`/match replay id`: a match's whole game as an animated GIF, privately to the one who asks.

The match is looked up by number; one of another server, one in a channel the person may not
see and an unknown number are refused alike (as if it did not exist). The frames show only the
public table (render/replay.py), so a running match can be replayed without leaking a hand.
The drawing runs in the computer players' process pool (bot/workers/replay_animation.py), after the
interaction is deferred: it takes seconds for a long series.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Protocol

import discord

from bot.workers.replay_animation import animate, language_code
from bot.ui.exports import seat_names, visible_match
from bot.matches.errors import LobbyError
from bot.matches.service import MatchService
from bot.matches.titles import title
from bot.ui.watch import WatchHost, with_watch_button
from bot.storage.rows import MoveRow
from i18n import _, n_
from render.replay import ReplayTooLarge

if TYPE_CHECKING:
    from bot.ui.computer_players import ComputerPlayers
    from bot.ui.language import Languages


class MoveStore(Protocol):
    """The slice of the store a replay reads: the match's move log."""

    async def moves(self, match_id: int) -> list[MoveRow]: ...


class ReplayHost(WatchHost, Protocol):
    """What a replay uses of the bot: the match, its move log, the asker's language, and the
    computers' worker processes, one replay at a time; its web pages, to link the replay
    page."""

    @property
    def service(self) -> MatchService: ...
    @property
    def store(self) -> MoveStore: ...
    @property
    def languages(self) -> Languages: ...
    @property
    def replay_gate(self) -> asyncio.Semaphore: ...
    @property
    def computers(self) -> ComputerPlayers: ...


async def send_replay(bot: ReplayHost, interaction: discord.Interaction, match_id: int) -> None:
    """Check that the person may see match `match_id` and that it has moves, then draw its
    replay off the event loop and send it as an ephemeral reply."""
    match = await visible_match(bot.service, interaction, match_id)
    moves = await bot.store.moves(match.id)
    if match.state is None or not moves:
        raise LobbyError(_("Match #{id} has no moves yet, so there is nothing to replay.",
                           id=str(match.id)))
    voice = await bot.languages.reader(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        async with bot.replay_gate:
            gif = await asyncio.get_running_loop().run_in_executor(
                bot.computers.executor(), animate, match.game, len(match.seats),
                match.row.seed, match.engine_options, [(move.seat, move.action) for move in moves],
                seat_names(match, voice), language_code(voice))
    except ReplayTooLarge:  # thousands of moves: more than Discord takes in one file
        raise LobbyError(n_("Match #{id} is too long to replay in one picture ({n} move).",
                            "Match #{id} is too long to replay in one picture ({n} moves).",
                            len(moves), id=str(match.id))) from None
    line = voice(n_("Replay of {game} match #{id}: {n} move, one frame each.",
                    "Replay of {game} match #{id}: {n} moves, one frame each.", len(moves),
                    game=title(match.game), id=str(match.id)))
    picture = discord.File(io.BytesIO(gif), filename=f"replay-{match.id}.gif", description=line)
    view = await with_watch_button(bot, match, None, voice)  # step through it on the web
    await interaction.followup.send(line, file=picture, ephemeral=True,
                                    **({"view": view} if view is not None else {}))
