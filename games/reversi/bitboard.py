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


_INNER = 0x7E7E7E7E7E7E7E7E  # columns b-g: a run along a row or diagonal never wraps through them


def legal_squares(own: int, opp: int) -> int:
    """Bitboard of the empty squares where `own` may play (outflanking at least one disc).

    A run of opponent discs grows from `own` in each direction, one square twice and then two
    squares at a time (through pairs of opponent discs), up to the longest run of six. Along
    rows and diagonals the run is kept to columns b-g, so no shift wraps round the board.
    """
    moves = 0
    inner = opp & _INNER
    for run_of, step in ((inner, 1), (opp, 8), (inner, 7), (inner, 9)):
        two = step + step
        pairs = run_of & (run_of << step)
        run = run_of & (own << step)
        run |= run_of & (run << step)
        run |= pairs & (run << two)
        run |= pairs & (run << two)
        moves |= run << step
        pairs = run_of & (run_of >> step)
        run = run_of & (own >> step)
        run |= run_of & (run >> step)
        run |= pairs & (run >> two)
        run |= pairs & (run >> two)
        moves |= run >> step
    return moves & ~(own | opp) & FULL


def _rays(square: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The rays of at least two squares leaving `square`: (towards higher indices, lower)."""
    up: list[int] = []
    down: list[int] = []
    for step, mask in DIRECTIONS:
        ray, cursor = 0, shift(1 << square, step, mask)
        while cursor:
            ray |= cursor
            cursor = shift(cursor, step, mask)
        if ray.bit_count() >= 2:
            (up if step > 0 else down).append(ray)
    return tuple(up), tuple(down)


_RAYS = tuple(_rays(square) for square in range(64))


def flips(own: int, opp: int, square: int) -> int:
    """Bitboard of the opponent discs that a disc placed on `square` outflanks.

    Along each ray the first square that is not an opponent disc ends the run; the run flips if
    that square holds one of `own`'s discs.
    """
    flipped = 0
    up, down = _RAYS[square]
    for ray in up:  # the nearest square of the ray is its lowest bit
        stop = ray & ~opp
        first = stop & -stop
        if first & own:
            flipped |= ray & (first - 1)
    for ray in down:  # the nearest square is its highest bit
        stop = ray & ~opp
        if stop:
            first = 1 << (stop.bit_length() - 1)
            if first & own:
                flipped |= ray & -(first << 1)
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
