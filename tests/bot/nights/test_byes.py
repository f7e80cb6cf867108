"""A second bye only when everyone has had one: before a rematch is avoided."""

from __future__ import annotations

from bot.nights.pairing import Entrant, swiss_round


def test_the_only_player_without_a_bye_gets_it_even_if_that_forces_a_rematch():
    # 1 has met 2, 3 and 4, so with 5 away on the bye one rematch among 1-4 is forced; giving
    # 1 a second bye instead would let 2-5 and 3-4 pair afresh. 5 ranks first, 1 last (the
    # bye's usual taker), yet the bye goes to 5.
    opponents = {1: {2, 3, 4}, 2: {1}, 3: {1, 5}, 4: {1, 5}, 5: {3, 4}}
    entrants = [Entrant(p, score=1.0, opponents=frozenset(opponents[p]), byes=int(p != 5))
                for p in (5, 2, 3, 4, 1)]
    paired = swiss_round(entrants)
    assert paired.bye == 5
    assert sum(pair.rematch for pair in paired.pairs) == 1


def test_without_such_a_trade_no_rematch_and_no_second_bye():
    opponents = {1: {2}, 2: {1}, 3: {4}, 4: {3}, 5: set()}
    entrants = [Entrant(p, score=1.0, opponents=frozenset(opponents[p]), byes=int(p == 5))
                for p in (1, 2, 3, 4, 5)]
    paired = swiss_round(entrants)
    assert paired.bye != 5 and not any(pair.rematch for pair in paired.pairs)
