"""What every game's command group (`/<game> ...`) shares: `/<game> new` (written once: each
game declares only its own options), acting for the caller, and adding a game to the bot."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_type_hints

import discord
from discord import app_commands

from bot.matches.errors import WrongGame
from bot.matches.model import HINTS_OPTION, ActionResult, Match
from bot.matches.service import MatchService
from bot.matches.titles import TITLES
from bot.matches.turn_time import TURN_OPTION, TURN_TIMES, duration
from bot.ui.opening import open_lobby
from bot.ui.persistent import PersistentItem
from bot.ui.presenter import Presenter

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


TURN_TIME_TEXT = "How long each turn may take (default: the server's setting, else 24h)"
TURN_TIME_CHOICES = [app_commands.Choice(name="off: no clock", value="off")] + [
    app_commands.Choice(name=f"{duration(seconds)} a turn", value=value)
    for value, seconds in TURN_TIMES.items()
]


HINTS_TEXT = "on: players may ask for the computer's move (/match hint); the match is then unrated"
HINTS_CHOICES = [app_commands.Choice(name="on", value="on"),
                 app_commands.Choice(name="off", value="off")]


def turn_option(turn_time: str | None) -> dict[str, str]:
    """The lobby option for a `turn_time` chosen with `/<game> new` (none: the default)."""
    return {} if turn_time is None else {TURN_OPTION: turn_time}


def hints_option(hints: str | None) -> dict[str, str]:
    """The lobby option for `hints: on` (off, or none: no option)."""
    return {HINTS_OPTION: "on"} if hints == "on" else {}


@dataclass(frozen=True)
class NewLobby:
    """The lobby a game's `/<game> new` options ask for."""

    options: dict[str, Any] = field(default_factory=dict)  # the engine's options
    invited: discord.User | discord.Member | None = None  # only they may take a seat


LobbyOptions = Callable[..., NewLobby]


def new_command(description: str) -> Callable[[LobbyOptions], app_commands.Command[Any, ..., None]]:
    """`/<game> new`, whose body is written once, here. It decorates a method of the game's
    commands whose parameters are the game's own options (described and given choices as for
    any command, by decorators below this one) and which returns the lobby they ask for.
    Every game's `turn_time` and `hints` options come after them; then the lobby opens in this channel,
    or a thread is offered where a match is open."""
    def command(lobby: LobbyOptions) -> app_commands.Command[Any, ..., None]:
        async def new(self: GameCommands, interaction: discord.Interaction,
                      **chosen: Any) -> None:
            turn_time = chosen.pop("turn_time", None)
            hints = chosen.pop("hints", None)
            asked = lobby(self, **chosen)
            await open_lobby(self.bot, interaction, self.game, invited=asked.invited,
                             options={**asked.options, **turn_option(turn_time),
                                      **hints_option(hints)})

        # discord.py reads the command's options from the signature, that its first parameter
        # is `self` from its qualified name, and their descriptions and choices from what the
        # game's decorators noted on `lobby`
        new.__signature__ = new_signature(lobby)  # type: ignore[attr-defined]
        new.__qualname__, new.__module__ = lobby.__qualname__, lobby.__module__
        new.__dict__.update({key: dict(value) for key, value in vars(lobby).items()
                             if key.startswith("__discord_app_commands_param_")})
        app_commands.describe(turn_time=TURN_TIME_TEXT, hints=HINTS_TEXT)(new)
        app_commands.choices(turn_time=TURN_TIME_CHOICES, hints=HINTS_CHOICES)(new)
        return app_commands.command(name="new", description=description)(new)

    return command


def new_signature(lobby: LobbyOptions) -> inspect.Signature:
    """`(self, interaction, <the game's options>, turn_time=None, hints=None)`, the options'
    annotations read in the game's module."""
    signature = inspect.signature(lobby)
    hints = get_type_hints(lobby)
    me, *options = signature.parameters.values()
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return signature.replace(return_annotation=None, parameters=[
        me, inspect.Parameter("interaction", kind, annotation=discord.Interaction),
        *(option.replace(annotation=hints[option.name]) for option in options),
        inspect.Parameter("turn_time", kind, default=None, annotation=str | None),
        inspect.Parameter("hints", kind, default=None, annotation=str | None)])


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
        """The open match in this channel, which must be of this group's game."""
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
                   controls: Iterable[type[PersistentItem[Any]]] = ()) -> None:
    """What a game's `setup` does: register its presenter, add its command group, and its
    persistent controls (buttons and menus that work across restarts)."""
    presenter = cog.presenter
    bot.presenters[presenter.game] = presenter
    await bot.add_cog(cog)  # type: ignore[arg-type]  # each game's commands are also a GroupCog
    TITLES[presenter.game] = presenter.help.title
    bot.add_dynamic_items(*controls)
