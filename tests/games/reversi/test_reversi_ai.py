"""Reversi computer players: legal moves at every level, determinism, exact endgames."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import games.reversi as reversi
from games.common import GameOver, IllegalMove, NotYourTurn
from games.reversi import ai
from games.reversi import bitboard as bb


def random_positions(count: int, seed: int, most_empties: int = 60) -> list[reversi.State]:
    """Positions reached by random play, from the opening to the last empty square."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        stop = rng.randint(0, most_empties)
        state = reversi.new_game(2, seed=rng.randrange(1 << 30))
        while (seat := reversi.current_seat(state)) is not None:
            if 64 - (state.black | state.white).bit_count() <= stop:
                found.append(state)
                break
            state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    return found


def sides(state: reversi.State) -> tuple[int, int]:
    own = state.discs(state.to_move)
    return own, (state.white if own == state.black else state.black)


def brute_force(own: int, opp: int) -> int:
    """Minimax final disc difference for `own` to move, visiting every line."""
    moves = bb.legal_squares(own, opp)
    if not moves:
        if not bb.legal_squares(opp, own):
            return own.bit_count() - opp.bit_count()
        return -brute_force(opp, own)
    values = []
    for sq in bb.squares(moves):
        flipped = bb.flips(own, opp, sq)
        values.append(-brute_force(opp & ~flipped, own | flipped | (1 << sq)))
    return max(values)


def value_of_move(own: int, opp: int, square: int) -> int:
    flipped = bb.flips(own, opp, square)
    return -brute_force(opp & ~flipped, own | flipped | (1 << square))


# 3 levels x 350 positions: 1,050 decisions, with small node budgets for the searching levels.
@pytest.mark.parametrize("level", reversi.LEVELS)
def test_every_level_plays_a_legal_move_anywhere_in_the_game(level):
    for index, state in enumerate(random_positions(350, seed=reversi.LEVELS.index(level))):
        seat = reversi.current_seat(state)
        move = reversi.choose_move(state, seat, level, seed=index, _nodes=40)
        assert move in reversi.legal_moves(state, seat)
        reversi.apply(state, seat, move)


@pytest.mark.parametrize("level", reversi.LEVELS)
def test_same_state_seat_level_and_seed_give_the_same_move(level):
    for index, state in enumerate(random_positions(25, seed=7, most_empties=50)):
        seat = reversi.current_seat(state)
        first = reversi.choose_move(state, seat, level, seed=index, _nodes=300)
        assert reversi.choose_move(state, seat, level, seed=index, _nodes=300) == first


def test_easy_draws_its_noise_from_the_seed():
    state = next(s for s in random_positions(50, seed=3, most_empties=40)
                 if len(reversi.legal_moves(s, s.to_move)) >= 6)
    moves = {reversi.choose_move(state, state.to_move, "easy", seed=seed) for seed in range(40)}
    assert len(moves) > 1


def test_a_worker_process_chooses_the_same_move():
    state = random_positions(1, seed=11, most_empties=40)[0]
    here = reversi.choose_move(state, state.to_move, "normal", seed=5, _nodes=200)
    with ProcessPoolExecutor(max_workers=1) as pool:
        there = pool.submit(reversi.choose_move, state, state.to_move, "normal", seed=5,
                            _nodes=200).result()
    assert there == here


def test_endgame_solver_equals_brute_force_minimax():
    for state in random_positions(60, seed=21, most_empties=7):
        own, opp = sides(state)
        best = brute_force(own, opp)
        assert ai.Search(ai.INFINITY).solve(own, opp, -ai.INFINITY, ai.INFINITY) == best
        value, square = ai.Search(ai.INFINITY).solve_root(own, opp)
        assert value == best == value_of_move(own, opp, square)


def test_endgame_solver_bounds_hold_in_narrow_windows():
    rng = random.Random(4)
    for state in random_positions(30, seed=22, most_empties=7):
        own, opp = sides(state)
        exact = brute_force(own, opp)
        search = ai.Search(ai.INFINITY)  # one table across windows, as in a real search
        for _ in range(4):
            alpha = rng.randint(-20, 18)
            beta = alpha + rng.randint(1, 6)
            found = search.solve(own, opp, alpha, beta)
            if found <= alpha:
                assert exact <= found
            elif found >= beta:
                assert exact >= found
            else:
                assert found == exact


def test_hard_plays_the_best_move_when_the_end_is_near():
    for index, state in enumerate(random_positions(30, seed=23, most_empties=7)):
        own, opp = sides(state)
        move = reversi.choose_move(state, state.to_move, "hard", seed=index)
        assert value_of_move(own, opp, move.square) == brute_force(own, opp)


def test_midgame_search_to_the_end_is_exact():
    for state in random_positions(25, seed=24, most_empties=7):
        own, opp = sides(state)
        empties = 64 - (own | opp).bit_count()
        value = ai.Search(ai.INFINITY).negamax(own, opp, empties, -ai.INFINITY, ai.INFINITY)
        assert value == ai.WIN * brute_force(own, opp)


def test_the_solver_sees_through_a_pass():
    # White's g8 leaves black without a move, so white plays again.
    state = reversi.position(
        """
        WBBB.B..
        WBBBBBBB
        WWWBBWWB
        WWWBWBWB
        WBWBBWBB
        BBBWBWWB
        ..BBBBBW
        ..W.BW.B
        """,
        black_seat=0,
        to_move=reversi.WHITE,
    )
    own, opp = sides(state)
    move = reversi.choose_move(state, 1, "hard", seed=0)
    assert value_of_move(own, opp, move.square) == brute_force(own, opp)
    assert reversi.current_seat(reversi.apply(state, 1, reversi.Move.parse("g8"))) == 1


def test_evaluation_is_the_same_on_every_symmetry_of_the_board():
    def transform(bits: int, mapping) -> int:
        return sum(1 << mapping(sq // 8, sq % 8) for sq in bb.squares(bits))

    symmetries = [
        lambda r, c: r * 8 + (7 - c), lambda r, c: (7 - r) * 8 + c,
        lambda r, c: c * 8 + r, lambda r, c: (7 - c) * 8 + (7 - r),
        lambda r, c: (7 - r) * 8 + (7 - c),
    ]
    for state in random_positions(40, seed=25, most_empties=55):
        own, opp = sides(state)
        value = ai.evaluate(own, opp)
        assert ai.evaluate(opp, own) == -value
        for mapping in symmetries:
            assert ai.evaluate(transform(own, mapping), transform(opp, mapping)) == value


def test_a_corner_is_worth_more_than_the_square_that_gives_it_away():
    middle = "........ ........ ..WB.... ...WB... ...BW... ........ ........ ........"
    corner = reversi.position("B......." + middle[8:])
    x_square = reversi.position(middle[:9] + ".B......" + middle[17:])
    assert corner.to_move == x_square.to_move == corner.black_seat
    assert ai.evaluate(*sides(corner)) > ai.evaluate(*sides(x_square))


def test_refuses_a_seat_that_is_not_to_move_and_a_finished_game():
    state = reversi.new_game(2, seed=1)
    with pytest.raises(NotYourTurn):
        reversi.choose_move(state, 1 - state.to_move, "hard", seed=0)
    over = reversi.resign(state, 0)
    with pytest.raises(GameOver):
        reversi.choose_move(over, 1, "hard", seed=0)
    with pytest.raises(ValueError):
        reversi.choose_move(state, state.to_move, "expert", seed=0)
    stuck = reversi.State(state.black, 0, state.black_seat, state.black_seat)
    with pytest.raises(IllegalMove):
        reversi.choose_move(stuck, state.black_seat, "easy", seed=0)
