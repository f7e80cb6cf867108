"""A Patchwork turn judged (games/patchwork/review.py): legal best moves never worse than the
move played, true reasons, exact values for a move that ends the game, the same judgement for
the same seed, and a whole game reviewed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.patchwork as pw
from games.common import IllegalMove
from games.patchwork import review
from games.patchwork.review import judge
from games.review import Judged, accuracy, costliest


def random_positions(count: int, seed: int) -> list[pw.State]:
    """Positions of seeded random games, every phase (buying, passing, leather, the end)."""
    rng = random.Random(seed)
    found: list[pw.State] = []
    game = 0
    while len(found) < count:
        state = pw.new_game(2, seed=seed * 1000 + game)
        game += 1
        while not state.over and len(found) < count:
            if rng.random() < 0.25:
                found.append(state)
            seat = pw.current_seat(state)
            moves = pw.legal_moves(state, seat)
            buys = [m for m in moves if isinstance(m, pw.Buy)]
            state = pw.apply(state, seat, rng.choice(buys) if buys and rng.random() < 0.7
                             else rng.choice(moves))
    return found


@pytest.fixture(scope="module")
def judged() -> list[tuple[pw.State, Judged]]:
    """Turns judged with random legal moves played (so most are worse than the best)."""
    rng = random.Random(3)
    out = []
    for index, state in enumerate(random_positions(40, seed=5)):
        seat = pw.current_seat(state)
        played = str(rng.choice(pw.legal_moves(state, seat)))
        turn = judge(state, seat, played, seed=index)
        assert turn is not None
        out.append((state, turn))
    return out


def test_the_best_move_is_legal_and_never_worse_than_the_move_played(judged):
    for state, turn in judged:
        legal = {str(move) for move in pw.legal_moves(state, pw.current_seat(state))}
        assert turn.best in legal and turn.played in legal
        assert turn.best_value >= turn.played_value
        assert turn.choices == len(legal) and turn.unit == "points"
        assert 0.0 <= turn.win_played <= 1.0 and 0.0 <= turn.win_best <= 1.0
        if turn.best == turn.played:
            assert turn.reason is None and turn.loss == 0


def test_a_random_move_usually_gives_something_away(judged):
    worse = [turn for _, turn in judged if turn.best != turn.played]
    assert len(worse) >= len(judged) // 2
    assert sum(turn.reason is not None for turn in worse) >= len(worse) // 2


def test_the_best_move_is_the_hard_computers_choice_or_the_move_played(judged):
    for index, (state, turn) in enumerate(judged[:12]):
        hard = pw.choose_move(state, turn.seat, "hard", seed=review._draws(index, state)[0])
        assert turn.best in (str(hard), turn.played)
        again = judge(state, turn.seat, str(hard), seed=index)  # played as hard plays
        assert again.best == again.played == str(hard) and again.loss == 0


def test_reasons_say_what_is_true(judged):
    seen = set()
    for state, turn in judged:
        if turn.reason is None:
            continue
        seen.add(turn.reason)
        seat = turn.seat
        played, best = pw.parse_move(turn.played), pw.parse_move(turn.best)
        played_after, best_after = pw.apply(state, seat, played), pw.apply(state, seat, best)
        values = turn.reason_values
        if turn.reason == "pass_better":
            assert isinstance(best, pw.Pass) and isinstance(played, pw.Buy)
            assert best_after.buttons[seat] - state.buttons[seat] >= values["buttons"]
        elif turn.reason == "bonus_missed":
            assert best_after.bonus_seat == seat != played_after.bonus_seat
        elif turn.reason in ("buttons", "time", "squares"):
            assert isinstance(best, pw.Buy)
            best_patch = pw.PATCHES[state.offer[best.choice - 1]]
            if isinstance(played, pw.Buy):
                played_patch = pw.PATCHES[state.offer[played.choice - 1]]
                more = {"buttons": best_patch.income - played_patch.income,
                        "time": played_patch.time - best_patch.time,
                        "squares": len(best_patch.cells) - len(played_patch.cells)}
                key = {"buttons": "more", "time": "spaces", "squares": "squares"}[turn.reason]
                assert more[turn.reason] == values[key] > 0
            else:
                assert values["more"] == best_patch.income > 0
        elif turn.reason == "holes":
            assert (review._holes(played_after.quilt_mask(seat)).bit_count()
                    - review._holes(best_after.quilt_mask(seat)).bit_count()) == values["holes"] > 0
        elif turn.reason == "blocks_7x7":
            assert state.bonus_seat is None
            assert review._bonus_open(best_after.quilt_mask(seat))
            assert not review._bonus_open(played_after.quilt_mask(seat))
        elif turn.reason == "placement":
            assert isinstance(best, pw.Buy) and isinstance(played, pw.Buy)
            assert best.choice == played.choice
    assert seen  # some reasons were given


def test_one_square_holes_and_the_7x7_bonus():
    """A hole is an empty square walled in; a 7x7 area with one in it cannot give the bonus
    without a leather patch."""
    def quilt(*squares: str) -> int:
        return sum(1 << pw.square_index(square) for square in squares)

    walled = quilt("d5", "f5", "e4", "e6")  # e5 walled in: every 7x7 area holds e5
    assert review._holes(walled) == quilt("e5") and not review._bonus_open(walled)
    cornered = quilt("b1", "a2")  # a1 walled in by the quilt's edges: c3-i9 is free of it
    assert review._holes(cornered) == quilt("a1") and review._bonus_open(cornered)
    assert review._holes(0) == 0 and review._bonus_open(0)


def test_a_move_that_ends_the_game_is_valued_by_the_final_scores():
    state = pw.new_game(2, seed=3)
    rng = random.Random(3)
    while not state.over:
        seat = pw.current_seat(state)
        moves = pw.legal_moves(state, seat)
        ending = [m for m in moves if pw.apply(state, seat, m).over]
        if ending:
            turn = judge(state, seat, str(ending[0]), seed=1)
            final = pw.outcome(pw.apply(state, seat, ending[0]))
            assert turn.played_value == final.scores[seat] - final.scores[1 - seat]
            assert turn.win_played == (1.0 if final.winners == (seat,) else 0.0)
            return
        state = pw.apply(state, seat, rng.choice(moves))
    pytest.fail("no move ended the game")


def test_the_same_seed_gives_the_same_judgement(judged):
    for state, turn in judged[::8]:
        assert judge(state, turn.seat, turn.played, seed=3) == judge(state, turn.seat,
                                                                     turn.played, seed=3)


def test_what_is_not_a_turn_of_the_seat_is_not_judged():
    state = pw.new_game(2, seed=1)
    seat = pw.current_seat(state)
    assert judge(state, seat, "resign", seed=0) is None
    assert judge(state, 1 - seat, "pass", seed=0) is None
    with pytest.raises(IllegalMove):
        judge(state, seat, "place a1", seed=0)
    assert judge(replace(state, resigned=seat), seat, "pass", seed=0) is None


def test_a_whole_game_between_computers_is_reviewed():
    """Every turn of a seeded game between easy and normal, leather patches included, is
    judged; the accuracies and the costliest turns come out of the shared formula."""
    state = pw.new_game(2, seed=11)
    turns = []
    while not state.over:
        seat = pw.current_seat(state)
        move = pw.choose_move(state, seat, "easy" if seat == 0 else "normal", seed=state.turn)
        turn = judge(state, seat, str(move), seed=state.turn)
        assert turn is not None and turn.played == str(move)
        turns.append(turn)
        state = pw.apply(state, seat, move)
    assert len(turns) == state.turn >= 30
    assert any(turn.played.startswith("place") for turn in turns)
    for seat in (0, 1):
        assert 0 <= accuracy(turns, seat) <= 100
        assert all(t.seat == seat and t.loss > 0 for t in costliest(turns, seat))
    assert all(Judged.from_dict(t.to_dict()) == t for t in turns)
