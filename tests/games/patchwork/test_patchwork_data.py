"""Patchwork data integrity and placement geometry (orientations, bounds, overlap)."""

import json
from pathlib import Path

import pytest

from games.patchwork import ORIENTATIONS, PATCHES, legal_placements, orientations
from games.patchwork.patches import (
    INCOME_SPACES,
    LEATHER_SPACES,
    LEATHER_ID,
    SEVEN_SQUARES,
    SQUARES,
    STARTING_PATCH,
    TRACK_END,
    bits,
    has_seven_square,
    mask_at,
    oriented_buttons,
    oriented_cells,
    placement_problem,
    shape_size,
    square_index,
)

DATA = Path(__file__).resolve().parents[3] / "games" / "patchwork" / "data"


def test_package_data_is_the_reference_copy():
    ours = json.loads((DATA / "patchwork.json").read_text())
    assert len(ours["patches"]) == 33
    assert ours["sources"], "the provenance list must travel with the data"
    readme = (DATA / "README.md").read_text()
    for source in ours["sources"]:
        name = source["repo"]
        if "/" in name and " " not in name:
            assert name in readme


def test_33_patches_166_cells_38_income():
    assert len(PATCHES) == 33
    assert sum(len(p.cells) for p in PATCHES) == 166
    assert sum(p.income for p in PATCHES) == 38
    assert sum(p.cost for p in PATCHES) == 133
    assert sum(p.time for p in PATCHES) == 107


def test_each_patch_is_well_formed():
    for p in PATCHES:
        assert len(set(p.cells)) == len(p.cells)
        assert min(r for r, _ in p.cells) == 0 and min(c for _, c in p.cells) == 0
        assert len(p.button_cells) == p.income
        assert set(p.button_cells) <= set(p.cells)
        assert p.cost >= 0 and p.time >= 1
        # connected: every patch is one piece of cloth
        cells = set(p.cells)
        seen, todo = set(), [p.cells[0]]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells]
        assert seen == cells, p.id


def test_starting_patch_is_the_only_1x2():
    twos = [p.id for p in PATCHES if len(p.cells) == 2]
    assert twos == [STARTING_PATCH] == [0]
    assert PATCHES[0].cost == 2 and PATCHES[0].time == 1 and PATCHES[0].income == 0


def test_track():
    assert TRACK_END == 53
    assert INCOME_SPACES == (5, 11, 17, 23, 29, 35, 41, 47, 53)
    assert LEATHER_SPACES == (20, 26, 32, 44, 50)


def test_squares_row_1_is_the_top():
    assert SQUARES[0] == "a1" and SQUARES[8] == "i1" and SQUARES[9] == "a2" and SQUARES[80] == "i9"
    assert square_index("c4") == 3 * 9 + 2


def _shape_key(cells):
    return tuple(sorted(cells))


def _all_symmetries(cells):
    out = set()
    pts = list(cells)
    for mirror in (False, True):
        cur = [(r, -c) if mirror else (r, c) for r, c in pts]
        for _ in range(4):
            top = min(r for r, _ in cur)
            left = min(c for _, c in cur)
            out.add(_shape_key((r - top, c - left) for r, c in cur))
            cur = [(c, -r) for r, c in cur]
    return out


def test_distinct_orientations_match_the_symmetry_group():
    for p in PATCHES:
        names = orientations(p.id)
        shapes = {_shape_key(oriented_cells(p.id, n)) for n in names}
        assert len(shapes) == len(names)
        assert shapes == _all_symmetries(p.cells)
        assert names[0] == "0"
        assert all(n in ORIENTATIONS for n in names)
        # every one of the 8 names gives one of the distinct shapes
        for n in ORIENTATIONS:
            assert _shape_key(oriented_cells(p.id, n)) in shapes


def test_orientation_counts_of_known_shapes():
    assert orientations(0) == ("0", "90")  # 1x2
    assert orientations(8) == ("0",)  # 2x2
    assert orientations(13) == ("0", "90")  # 1x5
    assert len(orientations(4)) == 4  # Z tetromino
    assert len(orientations(5)) == 8  # P pentomino
    assert len(orientations(19)) == 1  # plus sign


def test_rotation_is_clockwise_and_mirror_is_left_right():
    # patch 4 is  XX.   90 (clockwise) is  .X   0 mirrored is  .XX
    #             .XX                       XX                  XX.
    #                                       X.
    assert oriented_cells(4, "0") == ((0, 0), (0, 1), (1, 1), (1, 2))
    assert oriented_cells(4, "90") == ((0, 1), (1, 0), (1, 1), (2, 0))
    assert oriented_cells(4, "0 mirrored") == ((0, 1), (0, 2), (1, 0), (1, 1))
    # the L of patch 18 (X.. / XXX) turned 90 clockwise: XX / X. / X.
    assert oriented_cells(18, "90") == ((0, 0), (0, 1), (1, 0), (2, 0))
    # buttons turn with the patch: patch 18 has buttons on its two left cells
    assert oriented_buttons(18, "0") == ((0, 0), (1, 0))
    assert oriented_buttons(18, "90") == ((0, 0), (0, 1))
    assert set(oriented_buttons(18, "180")) == {(1, 2), (0, 2)}


@pytest.mark.parametrize("pid", range(33))
def test_placements_on_empty_quilt_in_every_orientation(pid):
    for name in ORIENTATIONS:
        h, w = shape_size(pid, name)
        squares = legal_placements(0, pid, name)
        assert len(squares) == (10 - h) * (10 - w)
        assert squares[0] == "a1"
        for sq in squares:
            mask = mask_at(pid, name, square_index(sq))
            assert mask.bit_count() == len(PATCHES[pid].cells)
        # one column too far right / one row too low sticks out
        row, col = 0, 9 - w + 1
        if col <= 8:
            assert placement_problem(0, pid, name, row * 9 + col) == (
                "sticks_out", {"past": "column"})
        if 9 - h + 1 <= 8:
            assert placement_problem(0, pid, name, (9 - h + 1) * 9) == (
                "sticks_out", {"past": "row"})


def test_overlap_names_the_filled_squares():
    quilt = 1 << square_index("e5")
    assert placement_problem(quilt, 8, "0", square_index("d4")) == (
        "overlap", {"squares": ["e5"]})
    quilt |= 1 << square_index("d4")
    assert placement_problem(quilt, 8, "0", square_index("d4")) == (
        "overlap", {"squares": ["d4", "e5"]})
    assert "d4" not in legal_placements(quilt, 8, "0")
    assert "f6" in legal_placements(quilt, 8, "0") and "e4" not in legal_placements(quilt, 8, "0")
    assert placement_problem(0, 13, "0", square_index("f1")) == ("sticks_out", {"past": "column"})
    assert placement_problem(0, 8, "0", square_index("i9")) == ("sticks_out", {"past": "both"})


def test_legal_placements_respects_every_filled_square():
    quilt = 0
    for sq in ("a1", "e5", "i9", "b7"):
        quilt |= 1 << square_index(sq)
    for pid in range(33):
        for name in orientations(pid):
            legal = set(legal_placements(quilt, pid, name))
            for sq_index in range(81):
                mask = mask_at(pid, name, sq_index)
                fits = mask is not None and not mask & quilt
                assert (SQUARES[sq_index] in legal) == fits


def test_seven_squares():
    assert len(SEVEN_SQUARES) == 9
    full_a1 = SEVEN_SQUARES[0]
    assert has_seven_square(full_a1)
    assert not has_seven_square(full_a1 & ~(1 << square_index("g7")))
    assert [SQUARES[i] for i in bits(SEVEN_SQUARES[-1])][:2] == ["c3", "d3"]
    assert LEATHER_ID == 33
