"""After a Scrabble match: for each seat, the turn where it missed the most points.

For every turn a seat took (a play, an exchange or a pass), the move generator the computer
players use (movegen.py) finds the best-scoring play the seat's rack allowed on the board as it
stood; the miss is that score less what the turn scored as it stands after challenges (0 for
a pass, an exchange, or a play taken back). The turn with the largest miss is the seat's
missed play. Scores only: the value of the tiles kept, and what the play would have opened to
the opponents, are not weighed. A pass that only accepts a play ending the game is not a turn
here (the seat could not play then).

Pure, and CPU-heavy (one move generation per turn): the bot runs `analyse` in the computer
players' process pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import games.scrabble as engine
from games.replay import Step, steps as replay_steps

from . import movegen
from .lexicon import Lexicon, default_lexicon
from .movegen import Option
from .records import TURNS, plays_made


def missed_plays(steps: Sequence[Step], players: int, *,
                 lexicon: Lexicon | None = None) -> list[dict[str, Any] | None]:
    """Per seat: {"ply", "played", "best", "move", "word"} of the turn where the best play
    beat the seat's move by the most points (the earliest of equal misses), or None when the
    seat never scored less than the best play it had."""
    lex = lexicon if lexicon is not None else default_lexicon()
    stood = {play.ply: play.score for play in plays_made(steps)}
    missed: list[dict[str, Any] | None] = [None] * players
    for step in steps:
        seat = step.seat
        if seat is None or not _is_turn(step):
            continue
        found = movegen.best_options(step.before.board, step.before.racks[seat], lex,
                                     _no_value)
        if not found:
            continue
        best = _best(found)
        played = stood.get(step.ply, 0)
        gap = best.score - played
        current = missed[seat]
        if gap > 0 and (current is None or gap > current["best"] - current["played"]):
            play = best.play()
            missed[seat] = {"ply": step.ply, "played": played, "best": best.score,
                            "move": str(play), "word": play.word}
    return missed


def _is_turn(step: Step) -> bool:
    """Whether the step is the seat's turn: a play, an exchange or a pass of its own."""
    return step.seat is not None and any(
        event.kind in TURNS and event.seat == step.seat for event in step.after.events)


def _no_value(kept: str) -> float:
    """Scores only: the tiles kept are not weighed."""
    return 0.0


def _best(found: list[Option]) -> Option:
    """The highest-scoring play; among equals, the first by its text."""
    top = max(option.score for option in found)
    return min((option for option in found if option.score == top),
               key=lambda option: str(option.play()))


def analyse(players: int, seed: int, options: dict[str, Any] | None,
            actions: Iterable[tuple[int | None, str]]) -> list[dict[str, Any] | None]:
    """`missed_plays` of a match given as plain data (its seed, options and logged actions):
    the process pool's worker function."""
    return missed_plays(list(replay_steps(engine, players, seed, options, list(actions))),
                        players)
