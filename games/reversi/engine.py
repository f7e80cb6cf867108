"""Reversi (Othello) for two seats: state, moves, rules and the per-seat view.

Columns a-h run left to right and rows 1-8 top to bottom. White starts on d4 and e5, black on
d5 and e4, and black moves first. Which seat plays black is drawn from the match seed.
A player with no legal move passes automatically; the game ends when neither side can move.
Discs never run out here: the rule that the opponent hands over a disc is always satisfied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from games.common import (
    BadNotation,
    Event,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Outcome,
    seeded_rng,
    quoted,
    shown,
)
from games.reversi import bitboard as bb
from games.serial import Serial

NAME = "reversi"
MIN_SEATS = 2
MAX_SEATS = 2
OPTIONS: dict[str, Any] = {}

BLACK, WHITE = "black", "white"
COLUMNS = "abcdefgh"
_SQUARE_RE = re.compile(r"^\s*([a-zA-Z])\s*([0-9]{1,2})\s*$")


def square_name(index: int) -> str:
    """`0` -> `a1`, `63` -> `h8`."""
    return f"{COLUMNS[index % 8]}{index // 8 + 1}"


@dataclass(frozen=True, order=True)
class Move:
    """A disc placed on one square."""

    square: int

    def __post_init__(self) -> None:
        square = self.square
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 64:
            raise BadNotation(
                f"{quoted(square)} is off the board: squares run from 0 (a1) to 63 (h8)."
            )

    @classmethod
    def parse(cls, text: str) -> Move:
        match = _SQUARE_RE.match(text or "")
        if not match:
            raise BadNotation(
                f"{quoted(text)} is not a square: give a column a-h and a row 1-8, like d3."
            )
        column = match.group(1).lower()
        row = int(match.group(2))
        if column not in COLUMNS or not 1 <= row <= 8:
            raise BadNotation(
                f"{quoted(text.strip())} is off the board: squares run from a1 to h8."
            )
        return cls((row - 1) * 8 + COLUMNS.index(column))

    def __str__(self) -> str:
        return square_name(self.square)


START_BLACK = (1 << Move.parse("d5").square) | (1 << Move.parse("e4").square)
START_WHITE = (1 << Move.parse("d4").square) | (1 << Move.parse("e5").square)


@dataclass(frozen=True)
class State(Serial):
    """A Reversi position with whose turn it is and which seat plays which colour."""

    black: int
    white: int
    black_seat: int
    to_move: int | None
    last_move: int | None = None
    resigned: int | None = None
    events: tuple[Event, ...] = field(default_factory=tuple)

    def colour_of(self, seat: int) -> str:
        return BLACK if seat == self.black_seat else WHITE

    def seat_of(self, colour: str) -> int:
        return self.black_seat if colour == BLACK else 1 - self.black_seat

    def discs(self, seat: int) -> int:
        return self.black if self.colour_of(seat) == BLACK else self.white


@dataclass(frozen=True)
class View:
    """Everything on a Reversi board is public, so every seat sees the same."""

    cells: str  # 64 characters, row by row from a1: "B", "W" or "."
    black_seat: int
    to_move: int | None
    to_move_colour: str | None
    legal: tuple[int, ...]
    last_move: int | None
    black_count: int
    white_count: int
    events: tuple[Event, ...]
    outcome: Outcome | None
    seat: int | None = None


def new_game(seats: int = 2, *, seed: int, options: dict[str, Any] | None = None) -> State:
    """A fresh board; the seed decides which seat plays black (and so moves first)."""
    if seats != 2:
        raise ValueError("Reversi is played by exactly two players.")
    black_seat = seeded_rng(seed, "colours").randrange(2)
    event = Event("start", f"{{seat{black_seat}}} plays black and moves first; "
                  f"{{seat{1 - black_seat}}} plays white.", black_seat)
    return State(START_BLACK, START_WHITE, black_seat, black_seat, events=(event,))


def _own_opp(state: State, seat: int) -> tuple[int, int]:
    own = state.discs(seat)
    return own, (state.white if own == state.black else state.black)


def legal_moves(state: State, seat: int) -> list[Move]:
    if state.to_move != seat:
        return []
    own, opp = _own_opp(state, seat)
    return [Move(square) for square in bb.squares(bb.legal_squares(own, opp))]


def current_seat(state: State) -> int | None:
    return state.to_move


def parse_move(text: str) -> Move:
    return Move.parse(text)


def _explain_illegal(state: State, seat: int, move: Move) -> str:
    name = square_name(move.square)
    other = WHITE if state.colour_of(seat) == BLACK else BLACK
    if (state.black | state.white) >> move.square & 1:
        taken = BLACK if state.black >> move.square & 1 else WHITE
        return f"{name} is already taken by a {taken} disc: play on an empty square."
    hint = ", ".join(str(m) for m in legal_moves(state, seat))
    return (f"A disc on {name} would not outflank any {other} disc: it must close a straight line "
            f"of {other} discs against one of yours. Your legal squares: {hint}.")


def apply(state: State, seat: int, move: Move) -> State:
    """Place a disc for `seat`, flip what it outflanks, and pass or end the game if needed."""
    if state.to_move is None:
        raise GameOver("The game is over.")
    if seat != state.to_move:
        yours = f": you play {state.colour_of(seat)}" if seat in (0, 1) else ""
        raise NotYourTurn(f"It is not your turn{yours}.")
    if not isinstance(move, Move):
        raise IllegalMove(f"{shown(repr(move))} is not a Reversi move: name a square, like d3.")
    own, opp = _own_opp(state, seat)
    flipped = bb.flips(own, opp, move.square) if not (own | opp) >> move.square & 1 else 0
    if not flipped:
        raise IllegalMove(_explain_illegal(state, seat, move))
    own |= flipped | (1 << move.square)
    opp &= ~flipped
    black, white = (own, opp) if state.colour_of(seat) == BLACK else (opp, own)
    colour = state.colour_of(seat)
    events = [Event("move", f"{{seat{seat}}} ({colour}) played {move}, flipping "
                    f"{flipped.bit_count()} disc{'s' if flipped.bit_count() != 1 else ''}.", seat)]
    other = 1 - seat
    if bb.legal_squares(opp, own):
        to_move: int | None = other
    elif bb.legal_squares(own, opp):
        to_move = seat
        events.append(Event("pass", f"{{seat{other}}} has no legal move and passes.", other))
    else:
        to_move = None
    after = State(black, white, state.black_seat, to_move, move.square, events=())
    if to_move is None:
        events.append(Event("end", _result_sentence(after), None))
    return State(black, white, state.black_seat, to_move, move.square, events=tuple(events))


def resign(state: State, seat: int) -> State:
    if state.to_move is None:
        raise GameOver("The game is over.")
    if seat not in (0, 1):
        raise NotYourTurn(f"There is no seat {shown(seat)} in this game.")
    event = Event("resign", f"{{seat{seat}}} resigned.", seat)
    return State(state.black, state.white, state.black_seat, None, state.last_move,
                 resigned=seat, events=(event,))


def outcome(state: State) -> Outcome | None:
    if state.to_move is not None:
        return None
    scores = tuple(state.discs(seat).bit_count() for seat in (0, 1))
    if state.resigned is not None:
        return Outcome(scores, (1 - state.resigned,), f"{{seat{state.resigned}}} resigned")
    if (state.black | state.white) == bb.FULL:
        reason = "the board is full"
    else:
        reason = "neither player can move"
    if scores[0] == scores[1]:
        return Outcome(scores, (0, 1), reason, draw=True)
    return Outcome(scores, (0 if scores[0] > scores[1] else 1,), reason)


def _result_sentence(state: State) -> str:
    result = outcome(state)
    assert result is not None
    tally = f"{result.scores[state.black_seat]}-{result.scores[1 - state.black_seat]}"
    if result.draw:
        return f"Game over, {result.reason}: a draw, {tally} (black-white)."
    winner = result.winners[0]
    return (f"Game over, {result.reason}: {{seat{winner}}} ({state.colour_of(winner)}) wins "
            f"{tally} (black-white).")


def view(state: State, seat: int | None = None) -> View:
    cells = "".join(
        "B" if state.black >> i & 1 else "W" if state.white >> i & 1 else "." for i in range(64)
    )
    legal = tuple(m.square for m in legal_moves(state, state.to_move)) if state.to_move is not None else ()
    return View(
        cells=cells,
        black_seat=state.black_seat,
        to_move=state.to_move,
        to_move_colour=state.colour_of(state.to_move) if state.to_move is not None else None,
        legal=legal,
        last_move=state.last_move,
        black_count=state.black.bit_count(),
        white_count=state.white.bit_count(),
        events=state.events,
        outcome=outcome(state),
        seat=seat,
    )


def position(text: str, *, black_seat: int = 0, to_move: str = BLACK) -> State:
    """A position from text, for tests: 8 rows of 8 characters `B`, `W` or `.` (whitespace ignored).

    If the side named cannot move, the turn passes as in play; if neither can, the game is over.
    """
    cells = "".join(text.split())
    if len(cells) != 64 or set(cells) - set("BW."):
        raise ValueError("a position is 64 cells of B, W or .")
    black = sum(1 << i for i, c in enumerate(cells) if c == "B")
    white = sum(1 << i for i, c in enumerate(cells) if c == "W")
    mover = black_seat if to_move == BLACK else 1 - black_seat
    probe = State(black, white, black_seat, mover)
    own, opp = _own_opp(probe, mover)
    if bb.legal_squares(own, opp):
        return probe
    if bb.legal_squares(opp, own):
        return State(black, white, black_seat, 1 - mover)
    return State(black, white, black_seat, None)
