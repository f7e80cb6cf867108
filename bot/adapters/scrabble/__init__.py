"""Scrabble's adapter: `/scrabble ...` (commands.py), the engine's events, refusals and outcomes
and the board's lines in words (words.py), and how the board and each player's rack are shown
(presenter.py).

Racks are private: the public board post is drawn from the public view (no rack at all), and a
player's rack is only ever sent to that player (by DM, or ephemerally).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.adapters.scrabble.commands import ScrabbleCommands
from bot.adapters.scrabble.presenter import ScrabblePresenter
from bot.commands.game import add_game

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ScrabbleCommands(bot, ScrabblePresenter(bot)))
