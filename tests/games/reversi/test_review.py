"""A Reversi turn judged (games/reversi/review.py): legal best moves never worse than the move
played, exact margins in the endgame (checked against a plain solver written here), true
reasons, the same judgement for the same seed, and a whole game reviewed."""

from __future__ import annotations

import random

import pytest

import games.reversi as reversi
from games.common import IllegalMove
from games.review import Judged, accuracy, costliest
from games.reversi import bitboard as bb
from games.reversi import review
from games.reversi.review import judge

CORNERS = {"a1", "h1", "a8", "h8"}


def sides(state: reversi.State) -> tuple[int, int]:
    own = state.discs(state.to_move)
    return own, (state.white if own == state.black else state.black)


def solve(own: int, opp: int, alpha: int = -65, beta: int = 65) -> int:
    """The final disc margin for `own` to move with best play: plain fail-hard alpha-beta
    in square order, passing when a side has no move (independent of ai.Search)."""
    moves = bb.legal_squares(own, opp)
    if not moves:
        if not bb.legal_squares(opp, own):
            return max(alpha, min(beta, own.bit_count() - opp.bit_count()))
        return -solve(opp, own, -beta, -alpha)
    for square in bb.squares(moves):
        flipped = bb.flips(own, opp, square)
        value = -solve(opp & ~flipped, own | flipped | (1 << square), -beta, -alpha)
        if value >= beta:
            return beta
        alpha = max(alpha, value)
    return alpha


def after(own: int, opp: int, square: str) -> int:
    """The exact margin for `own` after playing `square`."""
    index = reversi.parse_move(square).square
    flipped = bb.flips(own, opp, index)
    return -solve(opp & ~flipped, own | flipped | (1 << index))


def positions(count: int, seed: int, least: int, most: int) -> list[reversi.State]:
    """Positions of random games with `least` to `most` empty squares, spread evenly."""
    rng = random.Random(seed)
    found: list[reversi.State] = []
    while len(found) < count:
        empties = least + len(found) % (most - least + 1)
        state = reversi.new_game(2, seed=rng.randrange(1 << 30))
        while (seat := reversi.current_seat(state)) is not None:
            if 64 - (state.black | state.white).bit_count() <= empties:
                found.append(state)
                break
            state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    return found


def judged(state: reversi.State, rng: random.Random, seed: int = 0) -> Judged:
    seat = reversi.current_seat(state)
    played = str(rng.choice(reversi.legal_moves(state, seat)))
    result = judge(state, seat, played, seed=seed)
    assert result is not None
    return result


@pytest.fixture(scope="module")
def midgame() -> list[tuple[reversi.State, Judged]]:
    """Judged turns from the opening to the endgame, random moves played."""
    rng = random.Random(11)
    return [(state, judged(state, rng, seed)) for seed, state in
            enumerate(positions(24, seed=3, least=15, most=58))]


def test_the_best_move_is_legal_and_never_worse_than_the_move_played(midgame):
    for state, turn in midgame:
        seat = reversi.current_seat(state)
        legal = {str(move) for move in reversi.legal_moves(state, seat)}
        assert turn.best in legal and turn.played in legal
        assert turn.best_value >= turn.played_value
        assert turn.win_best >= turn.win_played
        assert 0.0 <= turn.win_played <= 1.0 and 0.0 <= turn.win_best <= 1.0
        assert turn.choices == len(legal) and turn.unit == "discs"
        if turn.best == turn.played:
            assert turn.reason is None and turn.loss == 0


def test_the_best_move_played_is_judged_the_best():
    """In the endgame, judging the best move found, as played, finds nothing better."""
    rng = random.Random(4)
    for index, state in enumerate(positions(20, seed=6, least=4, most=12)):
        turn = judged(state, rng, index)
        again = judge(state, reversi.current_seat(state), turn.best, seed=index)
        assert again is not None and again.best == again.played == turn.best
        assert again.loss == 0 and again.reason is None
        assert again.played_value == turn.best_value


def test_endgame_margins_are_exact():
    """With 10 or fewer empties, both margins are the exact solver's, the best is the best
    there is, and the win chances follow the margins' signs."""
    rng = random.Random(5)
    for index, state in enumerate(positions(150, seed=8, least=1, most=10)):
        turn = judged(state, rng, index)
        own, opp = sides(state)
        exact = solve(own, opp)
        assert turn.best_value == exact, (state, turn)
        assert turn.played_value == after(own, opp, turn.played), (state, turn)
        assert after(own, opp, turn.best) == exact
        for value, chance in ((turn.played_value, turn.win_played),
                              (turn.best_value, turn.win_best)):
            assert chance == (1.0 if value > 0 else 0.0 if value < 0 else 0.5)


def test_the_same_seed_gives_the_same_judgement(midgame):
    rng = random.Random(2)
    for state, _turn in midgame[::6]:
        seat = reversi.current_seat(state)
        played = str(rng.choice(reversi.legal_moves(state, seat)))
        assert judge(state, seat, played, seed=4) == judge(state, seat, played, seed=4)


def test_reasons_say_what_is_true():
    """Each reason given is a fact of the position: checked here on the board itself."""
    rng = random.Random(9)
    seen = set()
    for index, state in enumerate(positions(70, seed=21, least=14, most=50)):
        seat = reversi.current_seat(state)
        own, opp = sides(state)
        corner_moves = [m for m in reversi.legal_moves(state, seat) if str(m) in CORNERS]
        moves = reversi.legal_moves(state, seat)
        played = str(moves[0] if not corner_moves else
                     rng.choice([m for m in moves if str(m) not in CORNERS] or moves))
        turn = judge(state, seat, played, seed=index)
        assert turn is not None
        if turn.reason is None:
            continue
        seen.add(turn.reason)
        assert turn.best != turn.played
        best_after = reversi.apply(state, seat, reversi.parse_move(turn.best))
        played_after = reversi.apply(state, seat, reversi.parse_move(turn.played))
        corner = turn.reason_values["square"]
        if turn.reason == "corner_missed":
            assert turn.best == corner and corner in CORNERS and turn.played not in CORNERS
        elif turn.reason == "corner_given":
            assert corner in CORNERS
            assert played_after.to_move == 1 - seat
            assert corner in {str(m) for m in reversi.legal_moves(played_after, 1 - seat)}
            assert not CORNERS & {str(m) for m in reversi.legal_moves(best_after, 1 - seat)}
        elif turn.reason == "pass_forced":
            assert best_after.to_move == seat and played_after.to_move == 1 - seat
        elif turn.reason == "wipeout":
            assert best_after.discs(1 - seat) == 0
    assert {"corner_missed", "corner_given"} <= seen


def test_a_corner_missed_in_the_endgame_is_said_with_exact_margins():
    state = reversi.position("""
        . . . W B B B .
        W . W W W W W .
        W W W W W W W B
        B B W B W W W .
        B W B W W W W .
        B B W B B W W .
        B B B B B B W B
        . . B B B B W W""", black_seat=1, to_move=reversi.WHITE)
    turn = judge(state, 0, "h6", seed=0)
    assert turn == Judged(0, "h6", "a8", -4.0, 8.0, 0.0, 1.0, 4, "discs", "corner_missed",
                          {"square": "a8"})


def test_what_is_not_a_turn_of_the_seat_is_not_judged():
    state = reversi.new_game(2, seed=1)
    seat = reversi.current_seat(state)
    assert judge(state, seat, "resign", seed=0) is None
    assert judge(state, 1 - seat, "d3", seed=0) is None
    with pytest.raises(IllegalMove):
        judge(state, seat, "a1", seed=0)


def test_a_whole_game_between_computers_is_reviewed():
    """Every turn of a seeded game between easy and normal is judged; the accuracies and the
    costliest turns come out of the shared formula."""
    state = reversi.new_game(2, seed=7)
    turns, befores = [], []
    ply = 0
    while (seat := reversi.current_seat(state)) is not None:
        level = "easy" if seat == state.black_seat else "normal"
        move = reversi.choose_move(state, seat, level, seed=ply)
        turn = judge(state, seat, str(move), seed=ply)
        assert turn is not None and turn.played == str(move)
        turns.append(turn)
        befores.append(state)
        state = reversi.apply(state, seat, move)
        ply += 1
    assert len(turns) == ply >= 30
    for seat in (0, 1):
        assert 0 <= accuracy(turns, seat) <= 100
        assert all(t.seat == seat and t.loss > 0 for t in costliest(turns, seat))
    assert all(Judged.from_dict(t.to_dict()) == t for t in turns)
    endgame = [(s, t) for s, t in zip(befores, turns) if 64 - (s.black | s.white).bit_count() <= 10]
    assert len(endgame) >= 8
    for before, turn in endgame:  # the end of the game is solved exactly
        own, opp = sides(before)
        assert (turn.played_value, turn.best_value) == (after(own, opp, turn.played),
                                                        solve(own, opp))


def test_values_map_to_margins_and_chances_monotonically():
    values = [-3 * review.WIN, -review.WIN, -900, -100, 0, 100, 900, review.WIN, 3 * review.WIN]
    chances = [review.win_chance(v) for v in values]
    assert chances == sorted(chances) and chances[0] == 0.0 and chances[-1] == 1.0
    assert review.win_chance(0) == 0.5
    assert review.margin(2 * review.WIN) == 2 and review.margin(-review.WIN) == -1
    assert abs(review.margin(100)) <= 64
