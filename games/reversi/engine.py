"""Reversi (Othello) for two seats: state, moves, rules and the per-seat view.

Columns a-h run left to right and rows 1-8 top to bottom. White starts on d4 and e5, black on
d5 and e4, and black moves first. Which seat plays black is drawn from the match seed.
A player with no legal move passes automatically; the game ends when neither side can move.
Discs never run out here: the rule that the opponent hands over a disc is always satisfied.

No sentences for players here: errors carry a key (`reversi.occupied`...) and events a kind,
both with plain values, and the outcome's reason is one of REASONS; the bot's adapter
(bot/adapters/reversi/) words them in each reader's language.
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
    shown,
)
from games.reversi import bitboard as bb
from games.serial import Serial

NAME = "reversi"
MIN_SEATS = 2
MAX_SEATS = 2
OPTIONS: dict[str, Any] = {}

BLACK, WHITE = "black", "white"
RESIGNED, BOARD_FULL, NO_MOVES = "resigned", "board_full", "no_moves"
REASONS = (RESIGNED, BOARD_FULL, NO_MOVES)  # why a game ended (Outcome.reason)
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
            raise BadNotation("reversi.off_board_index", square=shown(square))

    @classmethod
    def parse(cls, text: str) -> Move:
        match = _SQUARE_RE.match(text or "")
        if not match:
            raise BadNotation("reversi.not_a_square", text=shown(text))
        column = match.group(1).lower()
        row = int(match.group(2))
        if column not in COLUMNS or not 1 <= row <= 8:
            raise BadNotation("reversi.off_board", text=shown(text.strip()))
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
    event = Event("start", seat=black_seat, values={"black": black_seat, "white": 1 - black_seat})
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


def _illegal(state: State, seat: int, move: Move) -> IllegalMove:
    """Why `move` flips nothing: `reversi.occupied` (the colour on the square) or
    `reversi.no_flip` (the opponent's colour and the seat's legal squares)."""
    name = square_name(move.square)
    if (state.black | state.white) >> move.square & 1:
        taken = BLACK if state.black >> move.square & 1 else WHITE
        return IllegalMove("reversi.occupied", square=name, colour=taken)
    other = WHITE if state.colour_of(seat) == BLACK else BLACK
    return IllegalMove("reversi.no_flip", square=name, colour=other,
                       legal=[str(m) for m in legal_moves(state, seat)])


def apply(state: State, seat: int, move: Move) -> State:
    """Place a disc for `seat`, flip what it outflanks, and pass or end the game if needed."""
    if state.to_move is None:
        raise GameOver("reversi.over")
    if seat != state.to_move:
        raise NotYourTurn("reversi.not_your_turn",
                          colour=state.colour_of(seat) if seat in (0, 1) else None)
    if not isinstance(move, Move):
        raise IllegalMove("reversi.not_a_move", move=shown(repr(move)))
    own, opp = _own_opp(state, seat)
    flipped = bb.flips(own, opp, move.square) if not (own | opp) >> move.square & 1 else 0
    if not flipped:
        raise _illegal(state, seat, move)
    own |= flipped | (1 << move.square)
    opp &= ~flipped
    black, white = (own, opp) if state.colour_of(seat) == BLACK else (opp, own)
    colour = state.colour_of(seat)
    events = [Event("move", seat=seat, values={"colour": colour, "square": str(move),
                                                "flipped": flipped.bit_count()})]
    other = 1 - seat
    if bb.legal_squares(opp, own):
        to_move: int | None = other
    elif bb.legal_squares(own, opp):
        to_move = seat
        events.append(Event("pass", seat=other))
    else:
        to_move = None
    after = State(black, white, state.black_seat, to_move, move.square, events=())
    if to_move is None:
        events.append(_end_event(after))
    return State(black, white, state.black_seat, to_move, move.square, events=tuple(events))


def resign(state: State, seat: int) -> State:
    if state.to_move is None:
        raise GameOver("reversi.over")
    if seat not in (0, 1):
        raise NotYourTurn("reversi.no_seat", seat=shown(seat))
    event = Event("resign", seat=seat)
    return State(state.black, state.white, state.black_seat, None, state.last_move,
                 resigned=seat, events=(event,))


def outcome(state: State) -> Outcome | None:
    if state.to_move is not None:
        return None
    scores = tuple(state.discs(seat).bit_count() for seat in (0, 1))
    if state.resigned is not None:
        return Outcome(scores, (1 - state.resigned,), RESIGNED)
    reason = BOARD_FULL if (state.black | state.white) == bb.FULL else NO_MOVES
    if scores[0] == scores[1]:
        return Outcome(scores, (0, 1), reason, draw=True)
    return Outcome(scores, (0 if scores[0] > scores[1] else 1,), reason)


def _end_event(state: State) -> Event:
    """The game is over by the rules: why (a REASON), the counts, and the winner (None: a
    draw) with their colour."""
    result = outcome(state)
    assert result is not None
    winner = None if result.draw else result.winners[0]
    return Event("end", values={
        "reason": result.reason, "black": state.black.bit_count(),
        "white": state.white.bit_count(), "winner": winner,
        "colour": None if winner is None else state.colour_of(winner)})


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
