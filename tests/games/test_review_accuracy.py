"""The one accuracy formula every game's review uses (games/review.py)."""

from __future__ import annotations

import pytest

from games.review import Judged, accuracy, costliest, logistic, turn_accuracy


def turn(seat: int, ply: int, win_played: float, win_best: float, choices: int = 5,
         played: str = "a", best: str = "b") -> Judged:
    return Judged(seat=seat, played=played, best=best, played_value=0.0, best_value=1.0,
                  win_played=win_played, win_best=win_best, choices=choices, unit="discs",
                  ply=ply)


def test_a_turns_accuracy_halves_with_each_ten_points_given_away():
    assert turn_accuracy(0) == 100
    assert turn_accuracy(10) == pytest.approx(50)
    assert turn_accuracy(20) == pytest.approx(25)
    assert turn_accuracy(5) == pytest.approx(70.71, abs=0.01)
    assert turn_accuracy(-3) == 100  # a move better than the "best" gives nothing away


def test_a_players_accuracy_is_the_mean_of_their_turns_with_a_choice():
    turns = [turn(0, 0, 0.5, 0.5), turn(0, 2, 0.4, 0.5), turn(0, 4, 0.1, 0.9, choices=1),
             turn(1, 1, 0.3, 0.5)]
    assert accuracy(turns, 0) == round((100 + 50) / 2)  # the forced move does not count
    assert accuracy(turns, 1) == 25
    assert accuracy(turns, 2) is None
    assert turns[1].loss == pytest.approx(10)


def test_the_costliest_turns_are_the_biggest_losses_in_the_order_played():
    turns = [turn(0, ply, 0.5 - loss, 0.5) for ply, loss in
             enumerate((0.0, 0.3, 0.05, 0.2, 0.1, 0.0))]
    assert [t.ply for t in costliest(turns, 0, 3)] == [1, 3, 4]
    same = turn(0, 9, 0.1, 0.5, played="x", best="x")  # the best move was played
    assert costliest([same], 0) == []


def test_a_judged_turn_reads_back_from_its_dict():
    judged = Judged(seat=1, played="c4", best="e6", played_value=-2.0, best_value=6.0,
                    win_played=0.4, win_best=0.7, choices=7, unit="discs", reason="corner",
                    reason_values={"square": "a1"}, ply=12)
    assert Judged.from_dict(judged.to_dict()) == judged


def test_logistic_is_safe_far_out():
    assert logistic(0) == 0.5
    assert logistic(1000) == 1.0 and logistic(-1000) == 0.0
