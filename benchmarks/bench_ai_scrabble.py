"""Scrabble computer players: a level against "highest score now", in seeded 2-player games.

Each pair of games uses one seed twice, with the seats swapped, so both sides get the same
bag and each starts once. Prints the level's win rate with a 95% Wilson interval (a shared
win counts half), the mean point margin, and time per decision (p50/p99) for each side.

    python benchmarks/bench_ai_scrabble.py --games 200 [--level hard] [--tiles 7]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from games.scrabble import (
    Exchange,
    Move,
    Pass,
    State,
    apply,
    choose_move,
    current_seat,
    default_lexicon,
    new_game,
    outcome,
    scored_plays,
    view,
)


def greedy(state: State, seat: int) -> Move:
    """Highest score now; never challenges; with no play, exchanges everything or passes."""
    seen = view(state, seat)
    if seen.pending is not None and seen.pending.final:
        return Pass()
    plays = scored_plays(state, seat, one_blank_choice=True)
    if plays:
        return plays[0][1]
    rack = state.racks[seat]
    if seen.bag >= 7 and len(rack) <= seen.bag:
        return Exchange(rack)
    return Pass()


def play_game(seed: int, level: str, ai_seat: int, tiles: int, times: dict[str, list[float]]
              ) -> tuple[int, float]:
    """One game: the level's score minus the greedy player's, and its result (1 a win, 0.5
    a shared win, 0 a loss)."""
    state = new_game(2, seed=seed, options={"tiles": tiles} if tiles != 7 else None)
    decision = 0
    while outcome(state) is None:
        seat = current_seat(state)
        start = time.perf_counter()
        if seat == ai_seat:
            move = choose_move(state, seat, level, seed=seed * 1000 + decision)
            who = level
        else:
            move = greedy(state, seat)
            who = "greedy"
        times.setdefault(who, []).append(time.perf_counter() - start)
        state = apply(state, seat, move)
        decision += 1
    result = outcome(state)
    won = 0.0 if ai_seat not in result.winners else 1.0 / len(result.winners)
    return result.scores[ai_seat] - result.scores[1 - ai_seat], won


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games to play (pairs of seeds)")
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--tiles", type=int, default=7, choices=(7, 9))
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    args = parser.parse_args(argv)
    default_lexicon()
    times: dict[str, list[float]] = {}
    margins: list[int] = []
    results: list[float] = []
    for game in range(args.games):
        seed = args.seed + game // 2
        margin, won = play_game(seed, args.level, game % 2, args.tiles, times)
        margins.append(margin)
        results.append(won)
        if (game + 1) % 10 == 0:
            print(f"  {game + 1} games: won {sum(results):g}, mean margin "
                  f"{statistics.mean(margins):+.1f}", flush=True)
    wins = sum(results)
    low, high = wilson(wins, len(margins))
    print(f"{args.level} vs highest score now, {len(margins)} games ({args.tiles}-tile racks):")
    print(f"  win rate {wins / len(margins):.1%} (95% CI {low:.1%} - {high:.1%})")
    spread = statistics.stdev(margins) if len(margins) > 1 else 0.0
    print(f"  mean margin {statistics.mean(margins):+.1f} points a game (sd {spread:.1f})")
    for who, values in times.items():
        print(f"  {who:<7} {len(values)} decisions: p50 {percentile(values, 0.5) * 1000:.0f} ms"
              f", p99 {percentile(values, 0.99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
