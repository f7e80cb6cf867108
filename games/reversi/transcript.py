"""A Reversi match as a move transcript (`f5d6c3...`) and as a GGF game record.

The transcript is the squares played in order, with passes left implicit as is usual. GGF
(the Generic Game Format of the GGS game server) writes the players, the result from Black's
side (`RE[+10.000]`, `:r` after a resignation), the starting board (`BO[8 ... *]`: `*` black,
`O` white, `-` empty, then the colour to move) and every move, a forced pass as `PA`.
Pure: the replayed steps and the players' names go in, the text comes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.replay import Step

from .engine import BLACK, outcome

BOARD_SIZE = 8


def transcript(steps: Sequence[Step]) -> str:
    """The squares played, in order: `f5d6c3d3c4`."""
    return "".join(step.action.strip().lower() for step in steps if step.action != "resign")


def board_text(state: Any) -> str:
    """The board as GGF's BO property writes it: rows of `*`, `O` and `-`, then who moves."""
    rows = []
    for row in range(BOARD_SIZE):
        cells = ""
        for column in range(BOARD_SIZE):
            square = row * BOARD_SIZE + column
            cells += ("*" if state.black >> square & 1 else
                      "O" if state.white >> square & 1 else "-")
        rows.append(cells)
    mover = state.to_move if state.to_move is not None else state.black_seat
    return f"{BOARD_SIZE} {' '.join(rows)} {'*' if state.colour_of(mover) == BLACK else 'O'}"


def _value(text: str) -> str:
    """A property value: GGF ends a value at `]`, so names lose their brackets."""
    return " ".join(text.replace("[", "(").replace("]", ")").split())


def result_text(state: Any) -> str | None:
    """`+10.000`: Black's discs less White's; after a resignation the whole board goes to
    the winner (`+64.000:r`). None while the game is on."""
    result = outcome(state)
    if result is None:
        return None
    if result.reason == "resigned":
        black_won = state.colour_of(result.winners[0]) == BLACK
        return f"{'+' if black_won else '-'}{BOARD_SIZE * BOARD_SIZE}.000:r"
    difference = state.black.bit_count() - state.white.bit_count()
    return f"{difference:+d}.000"


def to_ggf(steps: Sequence[Step], players: Sequence[str], *, first: Any = None) -> str:
    """The GGF record of the match: players by seat order in `players`. `first`: the state
    the match started from, needed only when there are no steps."""
    start = steps[0].before if steps else first
    black, white = start.black_seat, 1 - start.black_seat
    props = ["GM[Othello]", "PC[Gamenight]", f"PB[{_value(players[black])}]",
             f"PW[{_value(players[white])}]", "TY[8]"]
    final = steps[-1].after if steps else start
    result = result_text(final)
    if result is not None:
        props.append(f"RE[{result}]")
    props.append(f"BO[{board_text(start)}]")
    for step in steps:
        for event in step.after.events:
            colour = "B" if event.seat is not None and event.seat == black else "W"
            if event.kind == "move":
                props.append(f"{colour}[{event.values['square'].upper()}]")
            elif event.kind == "pass":
                props.append(f"{colour}[PA]")
    return "(;" + "".join(props) + ";)\n"
