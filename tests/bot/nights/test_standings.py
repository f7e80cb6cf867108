"""Standings: hand-worked tiebreaks, and recomputation over many random nights."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from bot.nights.standings import Bye, Result, place_points, standings
from tests.bot.nights.night import swiss_night


def win(number: int, winner: int, loser: int, margin: float = 0.0) -> Result:
    return Result(number, (winner, loser), (1, 2), (margin, -margin))


def draw(number: int, a: int, b: int) -> Result:
    return Result(number, (a, b), (1, 1), (0.0, 0.0))


def test_points_by_place():
    assert place_points((1, 2)) == [1.0, 0.0]
    assert place_points((1, 1)) == [0.5, 0.5]
    assert place_points((2, 1, 3)) == [0.5, 1.0, 0.0]
    assert place_points((1, 2, 2, 4)) == [1.0, 0.5, 0.5, 0.0]


def test_buchholz_cut1_and_sonneborn_berger_by_hand():
    """Four players, three rounds: 1 beats 2, 3 draws 4; 1 draws 3, 2 beats 4; 1 beats 4,
    2 beats 3. Points: 1 has 2½, 2 has 2, 3 has 1, 4 has ½.

    Buchholz cut-1 (opponents' points less the lowest):
      1: 2 + 1 + ½ = 3½, less ½ = 3;     2: 2½ + ½ + 1 = 4, less ½ = 3½;
      3: ½ + 2½ + 2 = 5, less ½ = 4½;    4: 1 + 2 + 2½ = 5½, less 1 = 4½.
    Sonneborn-Berger (beaten opponents' points, half of drawn ones'):
      1: 2 (beat 2) + ½·1 (drew 3) + ½ (beat 4) = 3;   2: ½ (beat 4) + 1 (beat 3) = 1½;
      3: ½·½ (drew 4) + ½·2½ (drew 1) = 1½;            4: ½·1 (drew 3) = ½."""
    results = [win(1, 1, 2), draw(1, 3, 4), draw(2, 1, 3), win(2, 2, 4), win(3, 1, 4),
               win(3, 2, 3)]
    table = standings([1, 2, 3, 4], results, seed=0)
    assert [(s.player, s.points, s.buchholz_cut1, s.sonneborn_berger) for s in table] == [
        (1, 2.5, 3.0, 3.0), (2, 2.0, 3.5, 1.5), (3, 1.0, 4.5, 1.5), (4, 0.5, 4.5, 0.5)]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_buchholz_breaks_a_tie_on_points():
    """1 beats 2 and 3; 3 beats 4; 4 beats 2. 3 and 4 have 1 point each. Buchholz cut-1:
    3 met 4 (1) and 1 (2): 3 less 1 = 2; 4 met 3 (1) and 2 (0): 1 less 0 = 1. 3 is ahead."""
    results = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 4, 2)]
    table = standings([1, 2, 3, 4], results, seed=0)
    assert [s.player for s in table] == [1, 3, 4, 2]
    assert (table[1].buchholz_cut1, table[2].buchholz_cut1) == (2.0, 1.0)


def test_margin_then_head_to_head_then_the_seed():
    """1 beats 2 by 10, 3 beats 4 by 5; 2 beats 3 by 15, 4 beats 1 by 5. Everyone has 1
    point, Buchholz cut-1 1 and Sonneborn-Berger 1. Margins: 1 +5, 2 +5, 4 0, 3 -10. 1 and 2
    are still tied: 1 beat 2, so 1 is ahead on head-to-head."""
    results = [win(1, 1, 2, 10), win(1, 3, 4, 5), win(2, 2, 3, 15), win(2, 4, 1, 5)]
    for seed in range(10):
        table = standings([1, 2, 3, 4], results, seed)
        assert [s.player for s in table] == [1, 2, 4, 3]
        assert [s.margin for s in table] == [5, 5, 0, -10]
        assert [s.head_to_head for s in table[:2]] == [1.0, 0.0]


def test_the_seed_breaks_what_nothing_else_does():
    results = [win(1, 1, 2), win(1, 3, 4), win(2, 2, 3), win(2, 4, 1)]
    orders = {tuple(s.player for s in standings([1, 2, 3, 4], results, seed))
              for seed in range(20)}
    assert len(orders) > 1
    for seed in range(20):
        table = standings([1, 2, 3, 4], results, seed)
        assert [s.seed for s in table] == sorted(s.seed for s in table)


def test_tables_of_three_and_a_bye():
    results = [Result(1, (1, 2, 3), (2, 1, 3), (10, 30, -40)), Bye(1, 4)]
    table = standings([1, 2, 3, 4], results, seed=0, bye_points=0.5)
    assert [(s.player, s.points, s.buchholz_cut1) for s in table] == [
        (2, 1.0, 0.0), (1, 0.5, 0.0), (4, 0.5, 0.0), (3, 0.0, 0.0)]


def naive_points(results) -> dict[int, float]:
    points: dict[int, float] = defaultdict(float)
    for r in results:
        if isinstance(r, Bye):
            points[r.player] += 1
        elif len(r.players) == 2:
            a, b = r.players
            pa = 1 if r.places[0] < r.places[1] else 0.5 if r.places[0] == r.places[1] else 0
            points[a] += pa
            points[b] += 1 - pa
    return points


@pytest.mark.parametrize("seed", range(200))
def test_standings_equal_a_recomputation(seed):
    rng = random.Random(seed)
    players, rounds = rng.randint(5, 40), rng.randint(3, 7)
    _, results = swiss_night(players, rounds, seed)
    ids = list(range(100, 100 + players))
    table = standings(ids, results, seed)
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert standings(reversed(ids), shuffled, seed) == table
    points = naive_points(results)
    assert [s.points for s in table] == [points[s.player] for s in table]
    keys = [(-s.points, -s.buchholz_cut1, -s.sonneborn_berger, -s.margin, -s.head_to_head,
             s.seed) for s in table]
    assert keys == sorted(keys)
    assert [s.rank for s in table] == list(range(1, players + 1))
