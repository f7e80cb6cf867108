"""The games the bot hosts, by the name used in commands and in the database."""

from __future__ import annotations

from types import ModuleType

import games.reversi

ENGINES: dict[str, ModuleType] = {
    games.reversi.NAME: games.reversi,
}


def engine_for(game: str) -> ModuleType:
    try:
        return ENGINES[game]
    except KeyError:
        raise LookupError(f"no engine for game {game!r}") from None
