"""The games Gamenight hosts, one line each.

A game is a pure engine package (`games/<game>/`, an `Engine` of games/engine.py) and an adapter
module in `bot/adapters/` whose `async setup(bot)` adds the game's cog and its persistent
controls. Adding a game means writing those two, a renderer, and one line here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameEntry:
    engine: str  # the engine package, importable without discord
    adapter: str  # the module whose `setup(bot)` adds the game's commands and controls


GAMES: tuple[GameEntry, ...] = (
    GameEntry("games.reversi", "bot.adapters.reversi"),
    GameEntry("games.scrabble", "bot.adapters.scrabble"),
    GameEntry("games.doudizhu", "bot.adapters.doudizhu"),
    GameEntry("games.patchwork", "bot.adapters.patchwork"),
)

SHARED = "bot.commands.match"  # `/match` and `/gamenight`, with the lobby and rematch buttons
