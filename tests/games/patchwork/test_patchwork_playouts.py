"""Seeded random Patchwork games to the end: invariants, replay and JSON round trips."""

import json
import random
from dataclasses import replace

import pytest

from games.patchwork import (
    LEATHER_ID,
    PATCHES,
    Buy,
    Pass,
    Place,
    State,
    apply,
    current_seat,
    legal_moves,
    new_game,
    outcome,
    parse_move,
    view,
)
from games.patchwork.patches import INCOME_SPACES, SEVEN_SQUARES, TRACK_END, mask_at, square_index


def _expected(state, seat, move):
    """Independent bookkeeping of buttons and token position for one action."""
    pos = state.positions[seat]
    buttons = state.buttons[seat]
    income = sum(PATCHES[p.patch].income for p in state.quilts[seat] if p.patch != LEATHER_ID)
    if isinstance(move, Place):
        return pos, buttons
    if isinstance(move, Buy):
        bought = PATCHES[state.circle[move.choice - 1]]
        buttons -= bought.cost
        income += bought.income
        end = min(pos + bought.time, TRACK_END)
    else:
        end = min(state.positions[1 - seat] + 1, TRACK_END)
        buttons += end - pos
    buttons += income * sum(1 for s in INCOME_SPACES if pos < s <= end)
    return end, buttons


def play(seed, chooser=None):
    rng = random.Random(seed)
    s = new_game(2, seed=seed)
    log = []
    while current_seat(s) is not None:
        seat = current_seat(s)
        moves = legal_moves(s, seat)
        assert moves and legal_moves(s, 1 - seat) == []
        move = chooser(s, moves, rng) if chooser else rng.choice(moves)
        pos, buttons = _expected(s, seat, move)
        nxt = apply(s, seat, move)
        assert nxt.positions[seat] == pos and nxt.buttons[seat] == buttons
        assert nxt.positions[1 - seat] == s.positions[1 - seat]
        check_invariants(nxt)
        log.append(str(move))
        s = nxt
    return s, log


def check_invariants(s):
    bought = [p.patch for q in s.quilts for p in q if p.patch != LEATHER_ID]
    assert sorted(bought + list(s.circle)) == list(range(33))  # patches conserved
    leather = sum(1 for q in s.quilts for p in q if p.patch == LEATHER_ID)
    assert leather + len(s.leather_spaces) + s.pending_leather == 5
    for seat in (0, 1):
        assert 0 <= s.positions[seat] <= TRACK_END
        assert s.buttons[seat] >= 0
        cells = sum(len(PATCHES[p.patch].cells) if p.patch != LEATHER_ID else 1 for p in s.quilts[seat])
        assert cells == 81 - s.empty_squares(seat)  # no overlaps
    assert State.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def _filled_7x7(state, seat, move):
    """How full the fullest 7x7 square of the quilt would be after the move."""
    quilt = state.quilt_mask(seat)
    if isinstance(move, Buy):
        pid = state.circle[move.choice - 1]
        quilt |= mask_at(pid, move.orientation, square_index(move.square))
    elif isinstance(move, Place):
        quilt |= 1 << square_index(move.square)
    return max((quilt & sq).bit_count() for sq in SEVEN_SQUARES)


def greedy(state, moves, rng):
    """Buy most of the time, packing each patch into the fullest 7x7 square (to reach the bonus)."""
    seat = current_seat(state)
    buys = [m for m in moves if isinstance(m, Buy)]
    if isinstance(moves[0], Place):
        return max(moves, key=lambda m: _filled_7x7(state, seat, m))
    if buys and rng.random() < 0.9:
        choice = rng.choice(sorted({m.choice for m in buys}))
        return max((m for m in buys if m.choice == choice), key=lambda m: _filled_7x7(state, seat, m))
    return rng.choice(moves)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_reach_the_end(seed):
    s, log = play(seed, greedy if seed % 2 else None)
    out = outcome(s)
    assert s.positions == (TRACK_END, TRACK_END) and len(s.finished) == 2
    assert out.scores == (s.score(0), s.score(1))
    assert len(out.winners) == 1
    # replay from the text log gives the same final state
    r = new_game(2, seed=seed)
    for text in log:
        r = apply(r, current_seat(r), parse_move(text))
    assert r == s


def test_bonus_and_leather_occur_in_greedy_games():
    bonus = leather = 0
    for seed in range(30, 40):
        s, _ = play(seed, greedy)
        bonus += s.bonus_seat is not None
        leather += sum(1 for q in s.quilts for p in q if p.patch == LEATHER_ID)
    assert bonus > 0 and leather > 0


def test_view_is_public_and_complete():
    s, log = play(4, greedy)
    r = new_game(2, seed=4)
    for text in log[:25]:
        r = apply(r, current_seat(r), parse_move(text))
    public = view(r, None)
    for seat in (0, 1):
        mine = view(r, seat)
        assert mine.seat == seat and mine.players[seat].you and not mine.players[1 - seat].you
        unmarked = replace(mine, seat=None, players=tuple(replace(p, you=False) for p in mine.players))
        assert unmarked == public
    assert [p.id for p in public.circle] == list(r.circle)
    assert public.offer == public.circle[:3]
    assert public.turn == current_seat(r)
    for seat in (0, 1):
        pv = public.players[seat]
        assert pv.buttons == r.buttons[seat] and pv.position == r.positions[seat]
        assert pv.income == r.income(seat) and pv.score == r.score(seat)
        grid = pv.quilt.cells
        filled = sum(1 for row in grid for c in row if c is not None)
        assert filled == pv.quilt.filled == 81 - r.empty_squares(seat)
        for placed in pv.quilt.patches:
            assert all(grid[rr][cc] == placed.index for rr, cc in placed.cells)
            assert len(placed.button_cells) == placed.patch.income
            assert set(placed.button_cells) <= set(placed.cells)
        assert sum(len(p.button_cells) for p in pv.quilt.patches) == pv.income
    end = view(s, None)
    assert end.over and end.outcome == outcome(s) and end.turn is None


def test_pass_always_legal_and_first_move_is_deterministic():
    for seed in range(5):
        s = new_game(2, seed=seed)
        moves = legal_moves(s, s.start_seat)
        assert moves[-1] == Pass()
        assert moves == legal_moves(new_game(2, seed=seed), s.start_seat)
