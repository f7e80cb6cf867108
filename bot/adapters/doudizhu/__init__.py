"""Dou Dizhu's adapter, for 3 or 4 players: `/doudizhu ...` (commands.py), the engine's events,
refusals, payments and outcomes and the table's lines in words (words.py), the menus and buttons
under a hand or a round's result (controls.py), how the table and the hands are shown
(presenter.py), and a series' highlights (highlights.py) and round log (export.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.adapters.doudizhu.commands import DouDizhuCommands
from bot.adapters.doudizhu.controls import DYNAMIC_ITEMS
from bot.adapters.doudizhu.presenter import DouDizhuPresenter
from bot.commands.game import add_game

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, DouDizhuCommands(bot, DouDizhuPresenter(bot)), DYNAMIC_ITEMS)
