"""What a computer player's worker process runs: one decision of a game's `ai.choose_move`.

Kept free of Discord and of the bot's state so a `ProcessPoolExecutor` can run it: the match
travels as plain data (the state's dict) and the move comes back as the text the move log
keeps, which the service parses and applies like a person's.
"""

from __future__ import annotations

import hashlib
import os
import time
from importlib import import_module

from bot.matches.engines import engine_for


def decide(game: str, state: dict, seat: int, level: str, seed: int) -> tuple[str, float]:
    """The move `seat` makes at `level`, as text, and the seconds spent choosing it."""
    engine = engine_for(game)
    ai = import_module(f"{engine.__name__}.ai")
    decoded = engine.State.from_dict(state)
    started = time.perf_counter()
    move = ai.choose_move(decoded, seat, level, seed=seed)
    return str(move), time.perf_counter() - started


def decision_seed(match_seed: int, version: int, seat: int) -> int:
    """A seed for one decision: the same match, version and seat give the same move (so a
    decision replayed after a restart is the one that was being thought about)."""
    digest = hashlib.blake2b(f"{match_seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


WORKER_NICENESS = 10  # how much lower a worker's CPU priority is than the bot's


def warm_up() -> None:
    """Set up a fresh worker process (the process pool's `initializer`): a lower CPU priority,
    so on a busy machine the bot's event loop (replies in every channel) runs first and the
    computers think with what is left; and every game's engine and computer player imported,
    so the first decision does not pay for it."""
    from bot.matches.engines import ENGINES

    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)

    for engine in ENGINES.values():
        try:
            import_module(f"{engine.__name__}.ai")
        except ImportError:  # a game without computer players: its seats stay people's
            pass
