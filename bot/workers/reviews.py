"""What a worker process runs for the coach: one turn of a finished match judged by its game's
`review.judge` (games/review.py), or the hard computer's hint for a turn. Plain data in and
out, like bot/workers/computer_moves.py, so a `ProcessPoolExecutor` can run it."""

from __future__ import annotations

import time
from importlib import import_module
from typing import Any

from bot.matches.engines import engine_for


def reviewable(game: str) -> bool:
    """Whether the game has a reviewer (games/<game>/review.py)."""
    try:
        import_module(f"{engine_for(game).__name__}.review")
    except ImportError:
        return False
    return True


def judge_turn(game: str, state: dict[str, Any], seat: int, action: str,
               seed: int) -> tuple[dict[str, Any] | None, float]:
    """The turn `seat` took from `state` judged (None: no decision), and the seconds spent."""
    engine = engine_for(game)
    review = import_module(f"{engine.__name__}.review")
    started = time.perf_counter()
    judged = review.judge(engine.State.from_dict(state), seat, action, seed=seed)
    return (None if judged is None else judged.to_dict()), time.perf_counter() - started


def hint_move(game: str, state: dict[str, Any], seat: int,
              seed: int) -> tuple[str, dict[str, Any] | None]:
    """The move the hard computer would make for `seat`, and its judgment (its value and
    win chance; None where the game has no reviewer)."""
    engine = engine_for(game)
    ai = import_module(f"{engine.__name__}.ai")
    decoded = engine.State.from_dict(state)
    move = str(ai.choose_move(decoded, seat, "hard", seed=seed))
    if not reviewable(game):
        return move, None
    judged = import_module(f"{engine.__name__}.review").judge(decoded, seat, move, seed=seed)
    return move, None if judged is None else judged.to_dict()
