"""Where to sew a patch: a heuristic that scores the empty part of a quilt.

A quilt is the engine's 81-bit mask (bit `row * 9 + column` set = covered). The cost of a
quilt (lower is better) counts what makes the empty squares hard to fill later:

- the *perimeter* of the empty area (edges between an empty square and a covered square or
  the quilt's border): a compact empty area takes big patches, a ragged one does not. Since
  the border counts as covered, this fills from the edges and corners inwards;
- small empty regions (1-4 squares), which only small patches or leather patches can fill;
- while the 7x7 bonus is free, how far the fullest 7x7 window is from full.

`best_placement` tries every orientation at every square where the patch fits, ranks them by a
cheap form of the cost (perimeter, isolated squares, 7x7 window) and then scores the best few
with the full cost (region sizes, by flood fill), so a decision stays a few milliseconds.
"""

from __future__ import annotations

from functools import lru_cache

from .patches import CELLS, FULL, SEVEN_SQUARES, SIZE, SQUARES, orientations, placement_masks

_COLUMN_A = sum(1 << (r * SIZE) for r in range(SIZE))
_NOT_A = FULL & ~_COLUMN_A  # squares with a neighbour on their left
_NOT_I = FULL & ~(_COLUMN_A << (SIZE - 1))  # squares with a neighbour on their right

PERIMETER_WEIGHT = 1.0
ISOLATED_WEIGHT = 6.0
REGION_PENALTY = {1: 8.0, 2: 6.0, 3: 3.0, 4: 1.5}
"""Extra cost per empty region of that size: a 1-square hole needs a leather patch, a 2-square
hole the single 1x2 patch, 3-4 squares one of a handful of small patches."""
WINDOW_WEIGHT = 0.6
"""Cost per square missing from the fullest 7x7 window (only while the bonus is free)."""
SHORTLIST = 12


def _neighbour_sets(empty: int) -> tuple[int, int, int, int]:
    """For each direction, the squares whose neighbour that way is empty."""
    right = (empty >> 1) & _NOT_I
    left = (empty << 1) & _NOT_A
    down = empty >> SIZE
    up = (empty << SIZE) & FULL
    return right, left, down, up


def _grow(region: int, empty: int) -> int:
    return (region | ((region << 1) & _NOT_A) | ((region >> 1) & _NOT_I)
            | (region << SIZE) | (region >> SIZE)) & empty


def region_sizes(quilt: int) -> list[int]:
    """The sizes of the connected empty regions of a quilt (4-neighbour), in no set order."""
    empty = ~quilt & FULL
    sizes = []
    while empty:
        region = empty & -empty
        while True:
            grown = _grow(region, empty)
            if grown == region:
                break
            region = grown
        sizes.append(region.bit_count())
        empty &= ~region
    return sizes


def _outline(quilt: int, bonus_free: bool) -> tuple[float, int]:
    """(perimeter and 7x7 terms of the cost, isolated empty squares): bit operations only."""
    empty = ~quilt & FULL
    r, l, d, u = _neighbour_sets(empty)
    perimeter = (4 * empty.bit_count() - (empty & r).bit_count() - (empty & l).bit_count()
                 - (empty & d).bit_count() - (empty & u).bit_count())
    cost = PERIMETER_WEIGHT * perimeter
    if bonus_free:
        cost += WINDOW_WEIGHT * (49 - max((quilt & w).bit_count() for w in SEVEN_SQUARES))
    return cost, (empty & ~(r | l | d | u)).bit_count()


def _quick_cost(quilt: int, bonus_free: bool) -> float:
    """The cost with isolated squares standing in for the small regions (no flood fill)."""
    cost, isolated = _outline(quilt, bonus_free)
    return cost + ISOLATED_WEIGHT * isolated


def quilt_cost(quilt: int, *, bonus_free: bool = True) -> float:
    """How hard the quilt's empty squares will be to fill (lower is better; 0 when full)."""
    if quilt == FULL:
        return 0.0
    cost, _ = _outline(quilt, bonus_free)
    return cost + sum(REGION_PENALTY.get(size, 0.0) for size in region_sizes(quilt))


@lru_cache(maxsize=None)
def _all_masks(patch_id: int) -> tuple[tuple[str, int, int], ...]:
    """(orientation, square, mask) of every in-bounds placement, in legal_moves order."""
    return tuple((name, sq, mask) for name in orientations(patch_id)
                 for sq, mask in placement_masks(patch_id, name))


def ranked_placements(quilt: int, patch_id: int, *, bonus_free: bool = True,
                      keep: int = SHORTLIST) -> list[tuple[float, str, str]]:
    """The best placements of a patch as (cost of the quilt after, orientation, square),
    best first; at most `keep` of them, empty if the patch fits nowhere."""
    quick = [(_quick_cost(quilt | mask, bonus_free), i, name, sq)
             for i, (name, sq, mask) in enumerate(_all_masks(patch_id)) if not quilt & mask]
    quick.sort()
    masks = _all_masks(patch_id)
    full = [(quilt_cost(quilt | masks[i][2], bonus_free=bonus_free), i, name, sq)
            for _, i, name, sq in quick[:keep]]
    full.sort()
    return [(cost, name, SQUARES[sq]) for cost, _, name, sq in full]


def best_placement(quilt: int, patch_id: int, *, bonus_free: bool = True) -> tuple[str, str] | None:
    """(orientation, square) of the best place for the patch, or None if it fits nowhere."""
    ranked = ranked_placements(quilt, patch_id, bonus_free=bonus_free)
    return (ranked[0][1], ranked[0][2]) if ranked else None


def best_square(quilt: int, *, bonus_free: bool = True) -> str:
    """The empty square where a 1x1 (leather) patch helps most. The quilt must not be full."""
    empty = ~quilt & FULL
    options = [(quilt_cost(quilt | (1 << i), bonus_free=bonus_free), i)
               for i in range(CELLS) if empty >> i & 1]
    return SQUARES[min(options)[1]]


__all__ = ["best_placement", "best_square", "quilt_cost", "ranked_placements", "region_sizes"]
