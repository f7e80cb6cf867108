"""The board as an immutable value with a FEN-like text form.

The text form is 15 lines of 15 characters, top row (row 1) first: `.` an empty square, an
upper-case letter a tile, a lower-case letter a blank standing for that letter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.common import BadNotation
from games.serial import unwrapped

from .tiles import SIZE, is_letter

EMPTY = "."


@unwrapped
@dataclass(frozen=True)
class Board:
    rows: tuple[str, ...] = (EMPTY * SIZE,) * SIZE

    def __post_init__(self) -> None:
        if len(self.rows) != SIZE or any(len(row) != SIZE for row in self.rows):
            raise BadNotation("scrabble.board_size", size=SIZE)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read the text form; blank lines and surrounding spaces are ignored."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if len(lines) != SIZE:
            raise BadNotation("scrabble.board_rows", size=SIZE, rows=len(lines))
        for number, line in enumerate(lines, start=1):
            if len(line) != SIZE:
                raise BadNotation("scrabble.board_row_size", row=number, squares=len(line),
                                  size=SIZE)
            for char in line:
                if char != EMPTY and not is_letter(char):
                    raise BadNotation("scrabble.board_char", row=number, char=char)
        return cls(tuple(lines))

    def text(self) -> str:
        return "\n".join(self.rows)

    def __str__(self) -> str:
        return self.text()

    def __getitem__(self, square: tuple[int, int]) -> str | None:
        """The tile on `(row, col)` (lower case for a blank), or None when empty."""
        row, col = square
        char = self.rows[row][col]
        return None if char == EMPTY else char

    def tile(self, square: tuple[int, int]) -> str:
        """The tile on a covered `(row, col)`; ValueError for an empty square."""
        tile = self[square]
        if tile is None:
            raise ValueError(f"no tile on {square}")
        return tile

    def is_empty(self) -> bool:
        return all(row == EMPTY * SIZE for row in self.rows)

    def occupied(self, row: int, col: int) -> bool:
        return 0 <= row < SIZE and 0 <= col < SIZE and self.rows[row][col] != EMPTY

    def tiles(self) -> Iterator[tuple[int, int, str]]:
        """Every tile on the board as `(row, col, char)`, row by row."""
        for r, row in enumerate(self.rows):
            for c, char in enumerate(row):
                if char != EMPTY:
                    yield r, c, char

    def place(self, placements: Iterable[tuple[int, int, str]]) -> Board:
        """A new board with `(row, col, char)` tiles added (or, with char '.', removed)."""
        grid = [list(row) for row in self.rows]
        for row, col, char in placements:
            grid[row][col] = char
        return Board(tuple("".join(row) for row in grid))

    def transpose(self) -> Board:
        return Board(tuple("".join(row[c] for row in self.rows) for c in range(SIZE)))

