"""What a worker process runs for `/match replay` (bot/ui/replays.py): a match's animation from
its move log.

Drawing dozens to hundreds of frames takes seconds of CPU, so it runs in the computer players'
process pool (`bot.computers.executor()`), never on the event loop. Like `bot.think.decide`
it takes plain data only: the game's name, the seats, the seed and options, the logged
actions, the players' names already worded for the reader, and the reader's language.
"""

from __future__ import annotations

from typing import Any

from bot.matches.engines import engine_for
from games.replay import steps
from i18n import PSEUDO, Voice, voice
from render.replay import animation


def animate(game: str, players: int, seed: int, options: dict[str, Any] | None,
            actions: list[tuple[int | None, str]], names: list[str], language: str) -> bytes:
    """The match replayed as GIF bytes, one frame per action, captioned in `language`."""
    engine = engine_for(game)
    return animation(engine, list(steps(engine, players, seed, options, actions)), names,
                     voice(language))


def language_code(reader: Voice) -> str:
    """The code that gives `reader` back in a worker process (the pseudo-locale included)."""
    return PSEUDO if reader is voice(PSEUDO) else reader.lang
