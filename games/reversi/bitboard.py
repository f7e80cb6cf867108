"""Reversi move generation on 64-bit bitboards.

Square index = row * 8 + column, with row 0 the top row ("1") and column 0 the left column
("a"), so bit 0 is a1 and bit 63 is h8.
"""

from __future__ import annotations

FULL = (1 << 64) - 1
_NOT_A = 0xFEFEFEFEFEFEFEFE  # every square but column a
_NOT_H = 0x7F7F7F7F7F7F7F7F  # every square but column h

# (shift, mask of squares a shifted disc may land on without wrapping round the board)
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, _NOT_A),    # east
    (-1, _NOT_H),   # west
    (8, FULL),      # south (down the rows)
    (-8, FULL),     # north
    (9, _NOT_A),    # south-east
    (7, _NOT_H),    # south-west
    (-7, _NOT_A),   # north-east
    (-9, _NOT_H),   # north-west
)


def shift(bits: int, step: int, mask: int) -> int:
    """Move every disc in `bits` one square in a direction, dropping those that leave the board."""
    if step > 0:
        return (bits << step) & mask & FULL
    return (bits >> -step) & mask


def legal_squares(own: int, opp: int) -> int:
    """Bitboard of the empty squares where `own` may play (outflanking at least one disc)."""
    empty = ~(own | opp) & FULL
    moves = 0
    for step, mask in DIRECTIONS:
        run = shift(own, step, mask) & opp
        for _ in range(5):  # a run of opponent discs is at most six long
            run |= shift(run, step, mask) & opp
        moves |= shift(run, step, mask) & empty
    return moves


def flips(own: int, opp: int, square: int) -> int:
    """Bitboard of the opponent discs that a disc placed on `square` outflanks."""
    placed = 1 << square
    flipped = 0
    for step, mask in DIRECTIONS:
        line = 0
        cursor = shift(placed, step, mask)
        while cursor & opp:
            line |= cursor
            cursor = shift(cursor, step, mask)
        if cursor & own:
            flipped |= line
    return flipped


def squares(bits: int) -> list[int]:
    """The square indices set in a bitboard, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found


def perft(own: int, opp: int, depth: int) -> int:
    """Count the leaves of the move tree `depth` plies deep, `own` to move.

    A forced pass counts as one ply; a finished game (neither side can move) is a leaf.
    """
    if depth == 0:
        return 1
    moves = legal_squares(own, opp)
    if not moves:
        if not legal_squares(opp, own):
            return 1
        return perft(opp, own, depth - 1)
    if depth == 1:
        return moves.bit_count()
    total = 0
    for square in squares(moves):
        flipped = flips(own, opp, square)
        total += perft(opp & ~flipped, own | flipped | (1 << square), depth - 1)
    return total
