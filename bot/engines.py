"""The games the bot hosts, by the name used in commands and in the database."""

from __future__ import annotations

from types import ModuleType

import games.doudizhu
import games.patchwork
import games.reversi
import games.scrabble

ENGINES: dict[str, ModuleType] = {
    engine.NAME: engine for engine in (games.reversi, games.scrabble, games.doudizhu, games.patchwork)
}


def engine_for(game: str) -> ModuleType:
    try:
        return ENGINES[game]
    except KeyError:
        raise LookupError(f"no engine for game {game!r}") from None
