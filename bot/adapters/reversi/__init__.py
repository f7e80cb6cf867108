"""Reversi's adapter: `/reversi new` and `/reversi move` (commands.py), the engine's events,
refusals and outcomes in words (words.py), and how a Reversi board is posted (presenter.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.adapters.reversi.commands import ReversiCommands
from bot.adapters.reversi.presenter import ReversiPresenter
from bot.commands.game import add_game

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ReversiCommands(bot, ReversiPresenter(bot)))
