"""The four actions and their text forms.

- `Play`: `H8 across QUIZ` - the first square of the main word, its direction, and the whole
  word as it will read on the board. Letters already on the board are written as they stand;
  a lower-case letter on an empty square is a blank from the rack.
- `Exchange`: `exchange ABC?` - the tiles to put back (`?` is a blank).
- `Pass`: `pass`.
- `Challenge`: `challenge` - dispute the play that was just made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.common import BadNotation, shown, unreadable

from .tiles import BLANK, SIZE, is_letter, parse_square, sort_tiles, square_name

ACROSS = "across"
DOWN = "down"
_DIRECTIONS = {"across": ACROSS, "a": ACROSS, "down": DOWN, "d": DOWN}


@dataclass(frozen=True)
class Play:
    """Lay tiles so that `word` reads from (`row`, `col`) in `direction`."""

    row: int
    col: int
    direction: str
    word: str

    def __post_init__(self) -> None:
        if self.direction not in (ACROSS, DOWN):
            raise BadNotation("scrabble.bad_direction", direction=shown(self.direction))
        if not (0 <= self.row < SIZE and 0 <= self.col < SIZE):
            raise BadNotation("scrabble.off_board")
        if len(self.word) < 2:
            raise BadNotation("scrabble.short_word")
        if not all(is_letter(ch) for ch in self.word):
            raise BadNotation("scrabble.letters_only", word=shown(self.word))

    @property
    def across(self) -> bool:
        return self.direction == ACROSS

    @property
    def square(self) -> str:
        return square_name(self.row, self.col)

    def squares(self) -> list[tuple[int, int]]:
        """The squares the word covers, in reading order (may run off the board)."""
        dr, dc = (0, 1) if self.across else (1, 0)
        return [(self.row + i * dr, self.col + i * dc) for i in range(len(self.word))]

    @classmethod
    def parse(cls, text: str) -> Play:
        parts = text.split()
        if parts and parts[0].lower() == "play":
            parts = parts[1:]
        if len(parts) != 3:
            raise BadNotation("scrabble.play_form")
        square, direction, word = parts
        row, col = parse_square(square)
        if direction.lower() not in _DIRECTIONS:
            raise BadNotation("scrabble.bad_direction", direction=shown(direction))
        return cls(row, col, _DIRECTIONS[direction.lower()], word)

    def __str__(self) -> str:
        return f"{self.square} {self.direction} {self.word}"


@dataclass(frozen=True)
class Exchange:
    """Put `tiles` back in the bag and draw as many new ones."""

    tiles: str

    def __post_init__(self) -> None:
        if not self.tiles:
            raise BadNotation("scrabble.exchange_what")
        _check_exchangeable(self.tiles)
        object.__setattr__(self, "tiles", sort_tiles(self.tiles.upper()))

    @classmethod
    def parse(cls, text: str) -> Exchange:
        parts = text.split(maxsplit=1)
        if not parts or parts[0].lower() not in ("exchange", "swap"):
            raise BadNotation("scrabble.exchange_form")
        typed = parts[1] if len(parts) > 1 else ""
        _check_exchangeable(typed)  # before the spaces go, so the error quotes what was typed
        return cls("".join(typed.split()))

    def __str__(self) -> str:
        return f"exchange {self.tiles}"


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn."""

    @classmethod
    def parse(cls, text: str) -> Pass:
        if text.strip().lower() != "pass":
            raise BadNotation("scrabble.pass_form")
        return cls()

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Challenge:
    """Dispute the play just made, before the next player acts."""

    @classmethod
    def parse(cls, text: str) -> Challenge:
        if text.strip().lower() != "challenge":
            raise BadNotation("scrabble.challenge_form")
        return cls()

    def __str__(self) -> str:
        return "challenge"


def _check_exchangeable(tiles: str) -> None:
    bad = unreadable(tiles, lambda t: t == BLANK or is_letter(t))
    if bad:
        raise BadNotation("scrabble.unexchangeable", tiles=shown(bad))


Move = Play | Exchange | Pass | Challenge

_SQUARE_FIRST = re.compile(r"^(play\s+)?[A-Oa-o]\d{1,2}\s", re.IGNORECASE)


def parse_move(text: str) -> Move:
    """Read any action: a play, `exchange ...`, `pass` or `challenge`."""
    stripped = text.strip()
    first = stripped.split()[0].lower() if stripped else ""
    if first in ("exchange", "swap"):
        return Exchange.parse(stripped)
    if first == "pass":
        return Pass.parse(stripped)
    if first == "challenge":
        return Challenge.parse(stripped)
    if _SQUARE_FIRST.match(stripped + " "):
        return Play.parse(stripped)
    raise BadNotation("scrabble.not_a_move", text=shown(stripped))


def move_key(move: Move) -> tuple[int, str]:
    """Sort order for move lists: plays, exchanges, pass, challenge; then by text."""
    rank = {Play: 0, Exchange: 1, Pass: 2, Challenge: 3}[type(move)]
    return rank, str(move)
