"""The games' engines, by the name used in commands and in the database (from `bot.registry`).

The bot sees each as an `Engine` (games/engine.py): what it may use of an engine package."""

from __future__ import annotations

from importlib import import_module

from bot.registry import GAMES
from games.engine import Engine

ENGINES: dict[str, Engine] = {
    engine.NAME: engine for engine in (import_module(game.engine) for game in GAMES)
}


def engine_for(game: str) -> Engine:
    try:
        return ENGINES[game]
    except KeyError:
        raise LookupError(f"no engine for game {game!r}") from None
