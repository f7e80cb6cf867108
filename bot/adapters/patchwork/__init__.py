"""Patchwork's adapter: `/patchwork ...` (commands.py), the engine's events and refusals and the
table's lines in words (words.py), and how the table and a purchase's preview are shown
(presenter.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.adapters.patchwork.commands import PatchworkCommands
from bot.adapters.patchwork.presenter import PatchworkPresenter
from bot.commands.game import add_game

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, PatchworkCommands(bot, PatchworkPresenter(bot)))
