"""Patchwork computer players: strength and time per decision.

Matches (seats alternate, each game from its own seeded deal):
- hard vs greedy (buys what gives the most buttons and income now, else passes): goal >= 75%
- normal vs random (a uniformly random legal move): goal >= 95%
Win rates come with 95% Wilson intervals; times per decision are p50/p99 per level, both on
the wall clock (what a player waits on this machine, however loaded) and in CPU time of this
process (what a decision costs on a core of its own).

Also: easy vs random, and (`--matches hard-normal`) hard vs normal.

Run: nice -n 10 .venv/bin/python benchmarks/bench_ai_patchwork.py --games 200

Measured 2026-11-25 on the 2-core machine shared by other jobs (load 8-12): hard vs greedy
200/200 (CI 98.1-100%, margin +59.8), normal vs random 196/200 (CI 95.0-99.2%), easy vs
random 186/200, hard vs normal 89/100 (CI 81.4-93.7%). CPU per decision (20 games a match):
hard p50 88 ms / p99 279 ms, normal 0.5 / 3.3 ms, easy 0.6 / 3.6 ms; on the loaded wall
clock hard's p99 was 2.6 s.
"""

from __future__ import annotations

import argparse
import math
import sys
import random
import time
from collections import defaultdict
from collections.abc import Callable

import games.patchwork as pw
from games.patchwork.placement import best_placement, best_square
from games.patchwork.search import INCOMES_AHEAD

MATCHES = ("hard", "normal", "easy", "hard-normal")
Timing = tuple[float, float]  # (wall clock, CPU time) of one decision, in ms
Player = Callable[[pw.State, int, int], pw.Move]  # (state, seat, seed) -> move


def random_player(state: pw.State, seat: int, seed: int) -> pw.Move:
    return random.Random(seed).choice(pw.legal_moves(state, seat))


def greedy_player(state: pw.State, seat: int, seed: int) -> pw.Move:
    """Buy the patch that gives the most buttons and income now (income times the income
    spaces still ahead, less its price); pass if none gains more than passing does. It places
    with the same heuristic as the computer, so only the buy/pass choice differs."""
    quilt = state.quilt_mask(seat)
    if pw.turn_reason(state) == pw.TURN_LEATHER:
        return pw.Place(best_square(quilt))
    here = state.positions[seat]
    passing = min(state.positions[1 - seat] + 1, 53) - here
    best, best_gain = None, passing
    for choice, pid in enumerate(state.offer, start=1):
        p = pw.PATCHES[pid]
        if p.cost > state.buttons[seat]:
            continue
        gain = p.income * INCOMES_AHEAD[here] - p.cost
        if gain > best_gain:
            where = best_placement(quilt, pid)
            if where is not None:
                best, best_gain = pw.Buy(choice, *where), gain
    return best or pw.Pass()


def level_player(level: str) -> Player:
    def play(state: pw.State, seat: int, seed: int) -> pw.Move:
        return pw.choose_move(state, seat, level, seed=seed)
    return play


def play_game(players: tuple[Player, Player], seed: int,
              times: tuple[list[Timing], list[Timing]]) -> pw.Outcome:
    state = pw.new_game(2, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        seat = pw.current_seat(state)
        start, cpu = time.perf_counter(), time.process_time()
        move = players[seat](state, seat, rng.getrandbits(32))
        times[seat].append(((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000))
        state = pw.apply(state, seat, move)
    result = pw.outcome(state)
    assert result is not None
    return result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def match(name: str, a: tuple[str, Player], b: tuple[str, Player], games: int, first_seed: int,
          times: dict[str, list[Timing]]) -> None:
    wins = margin = 0
    for g in range(games):
        a_seat = g % 2
        players = (a[1], b[1]) if a_seat == 0 else (b[1], a[1])
        seat_times: tuple[list[Timing], list[Timing]] = ([], [])
        result = play_game(players, first_seed + g, seat_times)
        wins += result.winners[0] == a_seat
        margin += result.scores[a_seat] - result.scores[1 - a_seat]
        times[a[0]] += seat_times[a_seat]
        times[b[0]] += seat_times[1 - a_seat]
        if (g + 1) % 20 == 0 and g + 1 < games:
            print(f"  ... {name}: {wins}/{g + 1}", file=sys.stderr, flush=True)
    low, high = wilson(wins, games)
    print(f"{name:<20} {wins:>4}/{games:<4} = {wins / games:6.1%}   95% CI [{low:6.1%}, {high:6.1%}]"
          f"   mean margin {margin / games:+6.1f}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--matches", nargs="+", choices=MATCHES, default=MATCHES[:3],
                        help="which matches to play (hard-normal is extra: hard vs normal)")
    args = parser.parse_args(argv)
    times: dict[str, list[Timing]] = defaultdict(list)
    matches = {
        "hard": ("hard vs greedy", ("hard", level_player("hard")), ("greedy", greedy_player)),
        "normal": ("normal vs random", ("normal", level_player("normal")), ("random", random_player)),
        "easy": ("easy vs random", ("easy", level_player("easy")), ("random", random_player)),
        "hard-normal": ("hard vs normal", ("hard", level_player("hard")), ("normal", level_player("normal"))),
    }
    for key in args.matches:
        name, a, b = matches[key]
        match(name, a, b, args.games, args.seed, times)
    for level in pw.LEVELS:
        if times[level]:
            for label, column in (("wall", 0), ("CPU", 1)):
                samples = [t[column] for t in times[level]]
                print(f"{level:<7} time per decision ({label:>4}): p50 {percentile(samples, 0.5):8.1f} ms   "
                      f"p99 {percentile(samples, 0.99):8.1f} ms   max {max(samples):8.1f} ms   "
                      f"(n={len(samples)})")


if __name__ == "__main__":
    main()
