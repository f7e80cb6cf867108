"""A rack's tiles as one number, 4 bits a letter and the blanks' count above them: the move
generator takes a play's tiles off by subtraction as it places them, and the number names
the tiles a play keeps (its leave)."""

from __future__ import annotations

import functools

from .tiles import BLANK, LETTERS

WEIGHT = {letter: 1 << (4 * i) for i, letter in enumerate(LETTERS)}
WEIGHT[BLANK] = 1 << (4 * len(LETTERS))


def rack_number(rack: str) -> int:
    return sum(WEIGHT[tile] for tile in rack)


@functools.lru_cache(maxsize=4096)
def rack_of(number: int) -> str:
    """The tiles a `rack_number` stands for, in `sort_tiles` order (blanks last)."""
    letters = "".join(letter * ((number >> (4 * i)) & 15) for i, letter in enumerate(LETTERS))
    return letters + BLANK * (number >> (4 * len(LETTERS)))
