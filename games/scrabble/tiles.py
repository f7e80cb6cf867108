"""The fixed furniture of Scrabble: tiles, their values and counts, squares and premiums.

Squares are named as in the rules: column letter A-O (left to right) then row number 1-15
(top to bottom), so `H8` is the centre star. Internally a square is `(row, col)`, both 0-14.
A tile is an upper-case letter, or `?` for a blank while it is on a rack or in the bag; on the
board a blank is the lower-case letter it stands for.
"""

from __future__ import annotations

import re

from games.common import BadNotation, shown

SIZE = 15
CENTRE = (7, 7)
BLANK = "?"
COLUMNS = "ABCDEFGHIJKLMNO"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SQUARE_RE = re.compile(r"([A-Oa-o])([0-9]{1,2})")


def is_letter(char: str) -> bool:
    """An ASCII letter A-Z or a-z (`str.upper` maps some other letters onto A-Z: 'ß', 'ı')."""
    return len(char) == 1 and (char in LETTERS or char in LETTERS.lower())

VALUES: dict[str, int] = {
    BLANK: 0,
    **dict.fromkeys("AEILNORSTU", 1),
    **dict.fromkeys("DG", 2),
    **dict.fromkeys("BCMP", 3),
    **dict.fromkeys("FHVWY", 4),
    "K": 5,
    **dict.fromkeys("JX", 8),
    **dict.fromkeys("QZ", 10),
}

COUNTS: dict[str, int] = {
    "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9, "J": 1,
    "K": 1, "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6, "S": 4, "T": 6,
    "U": 4, "V": 2, "W": 2, "X": 1, "Y": 2, "Z": 1, BLANK: 2,
}  # fmt: skip

FULL_SET = "".join(tile * n for tile, n in COUNTS.items())
assert len(FULL_SET) == 100

BINGO_BONUS = 50


def square_name(row: int, col: int) -> str:
    """`(7, 7)` -> `"H8"`."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """`"H8"` (any case) -> `(7, 7)`; raises BadNotation for anything else."""
    text = text.strip()
    match = _SQUARE_RE.fullmatch(text)
    if match:
        row = int(match.group(2))
        if 1 <= row <= SIZE:
            return row - 1, COLUMNS.index(match.group(1).upper())
    raise BadNotation("scrabble.bad_square", square=shown(text))


def _squares(names: str) -> frozenset[tuple[int, int]]:
    return frozenset(parse_square(name) for name in names.split())


# Premium squares, exactly as listed in the rules.
TRIPLE_WORD = _squares("A1 H1 O1 A8 O8 A15 H15 O15")
DOUBLE_WORD = _squares(
    "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8"
)
TRIPLE_LETTER = _squares("F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14")
DOUBLE_LETTER = _squares(
    "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15"
)


def premium(row: int, col: int) -> str | None:
    """The premium of a square: `"TW"`, `"DW"`, `"TL"`, `"DL"` or None."""
    square = (row, col)
    if square in TRIPLE_WORD:
        return "TW"
    if square in DOUBLE_WORD:
        return "DW"
    if square in TRIPLE_LETTER:
        return "TL"
    if square in DOUBLE_LETTER:
        return "DL"
    return None


LETTER_MULTIPLIER = {"DL": 2, "TL": 3}
WORD_MULTIPLIER = {"DW": 2, "TW": 3}

PREMIUMS: tuple[tuple[str | None, ...], ...] = tuple(
    tuple(premium(r, c) for c in range(SIZE)) for r in range(SIZE)
)


def tile_value(tile: str) -> int:
    """The value of a tile as it stands: lower case (a blank on the board) and `?` are 0."""
    if tile == BLANK or tile.islower():
        return 0
    return VALUES[tile]


def rack_value(rack: str) -> int:
    return sum(tile_value(t) for t in rack)


def sort_tiles(tiles: str) -> str:
    """Canonical order: letters A-Z, then blanks."""
    return "".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def order_rank(tile: str) -> int:
    """Rank for the opening draw: lower goes first; a blank beats every letter."""
    return -1 if tile == BLANK else LETTERS.index(tile)
