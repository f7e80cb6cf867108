"""The Patchwork computer player: legal moves in every phase, determinism, the placement
heuristic and the search's model of the rules."""

import pickle
import random
from dataclasses import replace

import pytest

from games.common import NotYourTurn
from games.patchwork import (
    LEATHER_ID,
    LEVELS,
    PATCHES,
    TURN_BEHIND,
    TURN_LEATHER,
    TURN_ON_TOP,
    Buy,
    Pass,
    Place,
    Placed,
    apply,
    choose_move,
    current_seat,
    legal_moves,
    new_game,
    turn_reason,
)
from games.patchwork.ai import to_sim
from games.patchwork.patches import FULL, SQUARES, square_index
from games.patchwork.placement import best_placement, best_square, ranked_placements, region_sizes
from games.patchwork.search import PASS

POSITIONS = 1000
SMALL_SEARCH = 12  # hard-level iterations in tests: the search runs, quickly


def random_positions(count: int, seed: int) -> list:
    """Positions from seeded random games: every phase (buying, passing, leather, the end
    game), a pass one time in three so the games last."""
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        state = new_game(2, seed=seed * 1000 + game)
        game += 1
        while current_seat(state) is not None and len(out) < count:
            out.append(state)
            seat = current_seat(state)
            moves = legal_moves(state, seat)
            buys = [m for m in moves if isinstance(m, Buy)]
            move = rng.choice(buys) if buys and rng.random() < 0.67 else rng.choice(moves)
            state = apply(state, seat, move)
    return out


@pytest.fixture(scope="module")
def positions():
    return random_positions(POSITIONS, seed=7)


def test_positions_cover_every_phase(positions):
    reasons = {turn_reason(s) for s in positions}
    assert reasons == {TURN_BEHIND, TURN_ON_TOP, TURN_LEATHER}
    assert any(not any(isinstance(m, Buy) for m in legal_moves(s, current_seat(s))) for s in positions)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move(level, positions):
    kinds = set()
    for i, state in enumerate(positions):
        seat = current_seat(state)
        move = choose_move(state, seat, level, seed=i, iterations=SMALL_SEARCH)
        assert move in legal_moves(state, seat), (level, i, move)
        apply(state, seat, move)
        kinds.add(type(move))
    assert kinds == {Buy, Pass, Place}


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_move(level, positions):
    for i, state in enumerate(positions[::25]):
        seat = current_seat(state)
        first = choose_move(state, seat, level, seed=i, iterations=60)
        copy = pickle.loads(pickle.dumps(state))  # as a worker process receives it
        assert choose_move(copy, seat, level, seed=i, iterations=60) == first


def test_easy_depends_on_its_seed(positions):
    state = next(s for s in positions[200:] if turn_reason(s) != TURN_LEATHER
                 and sum(isinstance(m, Buy) for m in legal_moves(s, current_seat(s))) > 50)
    seat = current_seat(state)
    moves = {choose_move(state, seat, "easy", seed=seed) for seed in range(30)}
    assert len(moves) > 1


def test_wrong_seat_and_unknown_level_are_refused():
    state = new_game(2, seed=3)
    seat = current_seat(state)
    with pytest.raises(NotYourTurn):
        choose_move(state, 1 - seat, "easy", seed=1)
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(state, seat, "expert", seed=1)


# --- the placement heuristic -------------------------------------------------------------


def quilt_from(empty_squares: str) -> int:
    """A quilt covered everywhere except the squares named (e.g. "a1 b1 c1")."""
    mask = FULL
    for name in empty_squares.split():
        mask &= ~(1 << square_index(name))
    return mask


def test_region_sizes():
    assert sorted(region_sizes(quilt_from("a1 b1 d1 i9 h9 i8"))) == [1, 2, 3]
    assert region_sizes(FULL) == []
    assert region_sizes(0) == [81]


def test_placement_prefers_fewer_holes():
    # a1-d1 empty: the 1x2 patch on a1 or c1 leaves a 2-square gap, on b1 two 1-square holes
    quilt = quilt_from("a1 b1 c1 d1")
    starting = next(p.id for p in PATCHES if len(p.cells) == 2)
    ranked = ranked_placements(quilt, starting, keep=10)
    costs = {square: cost for cost, name, square in ranked if name == "0"}
    assert costs["a1"] < costs["b1"] and costs["c1"] < costs["b1"]
    assert best_placement(quilt, starting)[1] in ("a1", "c1")


def test_placement_fills_from_the_edges():
    # on an empty quilt, the 2x2 square goes into a corner, not the middle
    square_patch = next(p.id for p in PATCHES if sorted(p.cells) == [(0, 0), (0, 1), (1, 0), (1, 1)])
    assert best_placement(0, square_patch) in {("0", sq) for sq in ("a1", "h1", "a8", "h8")}


def test_leather_patch_fills_an_isolated_hole():
    # rows 1-2 covered except a1: a leather patch there removes a hole no patch can fill
    quilt = ((1 << 18) - 1) & ~1
    assert best_square(quilt) == "a1"


def test_leather_phase_places_in_the_hole():
    # rows 1-2 covered by leather patches except a1, a leather patch to place: every level
    # puts it in the hole
    state = new_game(2, seed=5)
    seat = current_seat(state)
    placed = tuple(Placed(LEATHER_ID, "0", SQUARES[i]) for i in range(1, 18))
    quilts = (placed, ()) if seat == 0 else ((), placed)
    state = replace(state, quilts=quilts, pending_seat=seat, pending_leather=1)
    assert state.quilt_mask(seat) == ((1 << 18) - 1) & ~1
    assert turn_reason(state) == TURN_LEATHER
    for level in LEVELS:
        assert choose_move(state, seat, level, seed=1) == Place("a1")


# --- the search's model --------------------------------------------------------------------


def test_search_model_follows_the_rules():
    """Play random games in the engine and in the model side by side: same tokens, buttons,
    income, covered squares and finishing order after every turn."""
    rng = random.Random(11)
    for game in range(20):
        state = new_game(2, seed=game)
        sim = to_sim(state)
        while current_seat(state) is not None:
            seat = current_seat(state)
            move = rng.choice(legal_moves(state, seat))
            state = apply(state, seat, move)
            if isinstance(move, Buy):
                sim.play(seat, move.choice - 1)
            elif isinstance(move, Pass):
                sim.play(seat, PASS)
            if state.pending_seat is None:
                expected = to_sim(state)
                assert (sim.positions, sim.buttons, sim.income, sim.finished, sim.circle) == (
                    expected.positions, expected.buttons, expected.income, expected.finished,
                    expected.circle)
                assert sim.leather == list(state.leather_spaces)
                assert sim.filled == expected.filled or state.quilt_mask(seat) == FULL


@pytest.mark.parametrize("seed", [909, 912, 917])
def test_two_normal_players_do_not_pass_in_turn_to_the_end(seed):
    """Deals where two normal players, each fearing the patches the other would be offered,
    used to pass in turn until the end with their quilts almost empty."""
    state = new_game(2, seed=seed)
    turn = 0
    while current_seat(state) is not None:
        seat = current_seat(state)
        state = apply(state, seat, choose_move(state, seat, "normal", seed=turn))
        turn += 1
    assert max(state.empty_squares(0), state.empty_squares(1)) <= 30
