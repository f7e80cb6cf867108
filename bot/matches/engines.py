"""The games' engines, by the name used in commands and in the database (from `bot.registry`)."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from bot.registry import GAMES

ENGINES: dict[str, ModuleType] = {
    engine.NAME: engine for engine in (import_module(game.engine) for game in GAMES)
}


def engine_for(game: str) -> ModuleType:
    try:
        return ENGINES[game]
    except KeyError:
        raise LookupError(f"no engine for game {game!r}") from None
