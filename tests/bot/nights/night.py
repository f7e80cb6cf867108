"""A random Swiss night for the properties and the benchmark: seeded results, standings after
each round, the next round paired from them."""

from __future__ import annotations

import random

from bot.nights.pairing import Round, entrants, first_round, swiss_round
from bot.nights.standings import Bye, Result, standings


def play(rnd: Round, number: int, rng: random.Random) -> list[Result | Bye]:
    """Random results: first mover wins 45%, second 45%, a draw 10%; a random margin."""
    results: list[Result | Bye] = []
    for pair in rnd.pairs:
        roll, margin = rng.random(), float(rng.randint(1, 60))
        places = (1, 2) if roll < 0.45 else (2, 1) if roll < 0.9 else (1, 1)
        sign = 0 if places == (1, 1) else 1 if places == (1, 2) else -1
        results.append(Result(number, (pair.first, pair.second), places,
                              (sign * margin, -sign * margin)))
    if rnd.bye is not None:
        results.append(Bye(number, rnd.bye))
    return results


def swiss_night(players: int, rounds: int, seed: int) -> tuple[list[Round], list[Result | Bye]]:
    rng = random.Random(seed)
    ids = list(range(100, 100 + players))
    played = [first_round(ids, seed)]
    results = play(played[0], 1, rng)
    for number in range(2, rounds + 1):
        table = standings(ids, results, seed)
        ranked = [s.player for s in table]
        scores = {s.player: s.points for s in table}
        played.append(swiss_round(entrants(ranked, scores, played)))
        results += play(played[-1], number, rng)
    return played, results
