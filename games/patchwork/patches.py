"""Patchwork's patches, quilt squares and placement geometry.

The quilt is 9x9. A square is named by its column letter `a`..`i` (left to right) and its row
number `1`..`9`, **row 1 being the top row** (like the Reversi board), e.g. `c4`. Inside the
engine a square is the index `row * 9 + column` (0 = a1, 8 = i1, 80 = i9) and a quilt is an
81-bit integer with bit `index` set when that square is covered.

A patch is placed in one of eight orientations:
`0`, `90`, `180`, `270` (clockwise rotations of the printed shape) and
`0 mirrored` ... `270 mirrored` (the shape flipped left-right first, then rotated clockwise).
Symmetric patches have fewer *distinct* orientations; `orientations(patch)` lists only those,
each under the first name above that produces it. The position of a placed patch is the square
of the top-left cell of its bounding box.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SIZE = 9
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
COLUMNS = "abcdefghi"

_DATA = json.loads((Path(__file__).parent / "data" / "patchwork.json").read_text(encoding="utf-8"))

TRACK_END: int = _DATA["track_length"]  # the final (central) space; spaces are 0..TRACK_END
INCOME_SPACES: tuple[int, ...] = tuple(_DATA["income_spaces"])
LEATHER_SPACES: tuple[int, ...] = tuple(_DATA["leather_patch_spaces"])
START_BUTTONS: int = _DATA["start_buttons"]
EMPTY_PENALTY: int = _DATA["empty_square_penalty"]
BONUS_POINTS: int = _DATA["bonus_7x7"]
STARTING_PATCH: int = _DATA["starting_patch_id"]

ORIENTATIONS: tuple[str, ...] = (
    "0", "90", "180", "270", "0 mirrored", "90 mirrored", "180 mirrored", "270 mirrored",
)
_ORIENTATION_INDEX = {name: i for i, name in enumerate(ORIENTATIONS)}

Cell = tuple[int, int]  # (row, column)


@dataclass(frozen=True)
class Patch:
    """One patch: its cells as printed ((row, column), top-left origin) and its prices."""

    id: int
    cells: tuple[Cell, ...]
    cost: int
    time: int
    income: int
    button_cells: tuple[Cell, ...]
    leather: bool = False


PATCHES: tuple[Patch, ...] = tuple(
    Patch(
        id=p["id"],
        cells=tuple((r, c) for r, c in p["cells"]),
        cost=p["buttons_cost"],
        time=p["time_cost"],
        income=p["income"],
        button_cells=tuple((r, c) for r, c in p["button_cells"]),
    )
    for p in _DATA["patches"]
)
assert [p.id for p in PATCHES] == list(range(len(PATCHES)))

LEATHER_ID = len(PATCHES)  # 33: every 1x1 leather patch from the time track
LEATHER = Patch(id=LEATHER_ID, cells=((0, 0),), cost=0, time=0, income=0, button_cells=(), leather=True)


def patch(patch_id: int) -> Patch:
    """The patch with this id (0..32, or LEATHER_ID for a leather patch)."""
    return LEATHER if patch_id == LEATHER_ID else PATCHES[patch_id]


# --- squares ---------------------------------------------------------------------------------

SQUARES: tuple[str, ...] = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}


def square_name(index: int) -> str:
    """`0` -> `a1`, `80` -> `i9`."""
    return SQUARES[index]


def square_index(name: str) -> int:
    """`a1` -> 0, `i9` -> 80; raises KeyError for anything else (use `is_square` first)."""
    return _SQUARE_INDEX[name.strip().lower()]


def is_square(name: str) -> bool:
    return name.strip().lower() in _SQUARE_INDEX


def bits(mask: int) -> list[int]:
    """The square indices set in a quilt mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- orientations -----------------------------------------------------------------------------


def _normalise(cells: list[Cell]) -> tuple[Cell, ...]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def _transform(cells: tuple[Cell, ...], orientation: str, anchor: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Transform `cells` the way `orientation` transforms the shape `anchor` (for button cells)."""
    index = _ORIENTATION_INDEX[orientation]
    turns, mirrored = index % 4, index >= 4

    def move(points: tuple[Cell, ...]) -> list[Cell]:
        pts = [(r, -c) if mirrored else (r, c) for r, c in points]
        for _ in range(turns):
            pts = [(c, -r) for r, c in pts]  # a quarter turn clockwise
        return pts

    moved_anchor = move(anchor)
    top = min(r for r, _ in moved_anchor)
    left = min(c for _, c in moved_anchor)
    return tuple(sorted((r - top, c - left) for r, c in move(cells)))


@lru_cache(maxsize=None)
def oriented_cells(patch_id: int, orientation: str) -> tuple[Cell, ...]:
    """The cells of a patch turned to `orientation`, top-left of the bounding box at (0, 0)."""
    p = patch(patch_id)
    return _transform(p.cells, orientation, p.cells)


@lru_cache(maxsize=None)
def oriented_buttons(patch_id: int, orientation: str) -> tuple[Cell, ...]:
    """The button cells of a patch turned to `orientation` (same frame as `oriented_cells`)."""
    p = patch(patch_id)
    return _transform(p.button_cells, orientation, p.cells) if p.button_cells else ()


@lru_cache(maxsize=None)
def orientations(patch_id: int) -> tuple[str, ...]:
    """The distinct orientations of a patch, each under its first name in ORIENTATIONS."""
    seen: set[tuple[Cell, ...]] = set()
    names = []
    for name in ORIENTATIONS:
        shape = oriented_cells(patch_id, name)
        if shape not in seen:
            seen.add(shape)
            names.append(name)
    return tuple(names)


# --- placement masks --------------------------------------------------------------------------


@lru_cache(maxsize=None)
def placement_masks(patch_id: int, orientation: str) -> tuple[tuple[int, int], ...]:
    """Every in-bounds placement of a patch in one orientation: (square index, quilt mask)."""
    shape = oriented_cells(patch_id, orientation)
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    base = 0
    for r, c in shape:
        base |= 1 << (r * SIZE + c)
    out = []
    for row in range(SIZE - height + 1):
        for col in range(SIZE - width + 1):
            out.append((row * SIZE + col, base << (row * SIZE + col)))
    return tuple(out)


@lru_cache(maxsize=None)
def _mask_at(patch_id: int, orientation: str) -> dict[int, int]:
    return dict(placement_masks(patch_id, orientation))


def shape_size(patch_id: int, orientation: str) -> tuple[int, int]:
    """(height, width) of the oriented patch's bounding box."""
    shape = oriented_cells(patch_id, orientation)
    return max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1


def mask_at(patch_id: int, orientation: str, square: int) -> int | None:
    """The quilt mask of the patch placed at `square`, or None if it sticks out of the quilt."""
    return _mask_at(patch_id, orientation).get(square)


def placement_problem(quilt: int, patch_id: int, orientation: str,
                      square: int) -> tuple[str, dict[str, object]] | None:
    """Why the patch cannot go there, or None if it can: `("sticks_out", {"past": ...})`
    with `past` one of `column` (past column i), `row` (past row 9) or `both`, or
    `("overlap", {"squares": [...]})` with the filled squares it would cover."""
    mask = mask_at(patch_id, orientation, square)
    if mask is None:
        height, width = shape_size(patch_id, orientation)
        row, col = divmod(square, SIZE)
        right, below = col + width > SIZE, row + height > SIZE
        return "sticks_out", {"past": "both" if right and below else "column" if right else "row"}
    overlap = quilt & mask
    if overlap:
        return "overlap", {"squares": [square_name(i) for i in bits(overlap)]}
    return None


def legal_placements(quilt: int, patch_id: int, orientation: str) -> list[str]:
    """The squares where the patch, in this orientation, fits on the quilt (reading order).

    `quilt` is the 81-bit mask of covered squares (see `State.quilt_mask(seat)`).
    """
    return [SQUARES[sq] for sq, mask in placement_masks(patch_id, orientation) if not quilt & mask]


def _square_masks(side: int) -> tuple[int, ...]:
    out = []
    for row in range(SIZE - side + 1):
        for col in range(SIZE - side + 1):
            mask = 0
            for r in range(side):
                for c in range(side):
                    mask |= 1 << ((row + r) * SIZE + col + c)
            out.append(mask)
    return tuple(out)


SEVEN_SQUARES: tuple[int, ...] = _square_masks(7)


def has_seven_square(quilt: int) -> bool:
    """True if some 7x7 square of the quilt is completely covered."""
    return any(quilt & m == m for m in SEVEN_SQUARES)
