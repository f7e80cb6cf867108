"""What every game's command group (`/<game> ...`) shares: acting for the caller, the turn clock
option of `/<game> new`, and adding a game to the bot."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.matches.errors import WrongGame
from bot.matches.model import ActionResult, Match
from bot.matches.service import MatchService
from bot.matches.titles import TITLES
from bot.matches.turn_time import TURN_OPTION, TURN_TIMES, duration
from bot.ui.presenter import Presenter

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


TURN_TIME_TEXT = "How long each turn may take (default: the server's setting, else 24h)"
TURN_TIME_CHOICES = [app_commands.Choice(name="off: no clock", value="off")] + [
    app_commands.Choice(name=f"{duration(seconds)} a turn", value=value)
    for value, seconds in TURN_TIMES.items()
]


def turn_option(turn_time: str | None) -> dict[str, str]:
    """The lobby option for a `turn_time` chosen with `/<game> new` (none: the default)."""
    return {} if turn_time is None else {TURN_OPTION: turn_time}


class GameCommands:
    """Mixed into each game's `commands.GroupCog` (bot/adapters/<game>/commands.py): its slash
    commands act through the match service, and the game's presenter shows what happened."""

    presenter: Presenter

    def __init__(self, bot: GamenightBot, presenter: Presenter) -> None:
        self.bot = bot
        self.presenter = presenter

    @property
    def game(self) -> str:
        return self.presenter.game

    @property
    def service(self) -> MatchService:
        return self.bot.service

    async def match_here(self, interaction: discord.Interaction) -> Match:
        """The open match in this channel, which must be of this cog's game."""
        match = await self.service.require(interaction.channel_id)
        if match.game != self.game:
            raise WrongGame(match, self.game)
        return match

    async def act(self, interaction: discord.Interaction, text: str) -> ActionResult:
        """Apply one action for the caller, post the new board, and update private views."""
        result = await self.service.act(interaction.channel_id, interaction.user.id, text,
                                        game=self.game)
        await self.presenter.announce(result, interaction)
        return result

    async def act_read_here(self, interaction: discord.Interaction,
                            read: Callable[[], object]) -> ActionResult:
        """`act` for a move the command reads from its options: the game and the caller's seat
        are checked first, so a bystander hears that, not what was wrong with the move."""
        await self.service.seated(interaction.channel_id, interaction.user.id, game=self.game)
        return await self.act(interaction, str(read()))


async def add_game(bot: GamenightBot, cog: GameCommands,
                   controls: Iterable[type[discord.ui.DynamicItem[Any]]] = ()) -> None:
    """What a game's `setup` does: register its presenter, add its command group, and its
    persistent controls (buttons and menus that work across restarts)."""
    presenter = cog.presenter
    bot.presenters[presenter.game] = presenter
    await bot.add_cog(cog)  # type: ignore[arg-type]  # each game's commands are also a GroupCog
    TITLES[presenter.game] = presenter.help.title
    controls = tuple(controls)
    if controls:
        bot.add_dynamic_items(*controls)
