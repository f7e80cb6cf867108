"""Reviewing Dou Dizhu matches (games/doudizhu/review.py): what judging a whole match costs a
worker, and whether the review tells the levels apart.

    python benchmarks/bench_review_doudizhu.py [--games 20] [--players 3,4]

Each match is one round (the option `deals: 1`) between computers, easy against hard with the
seats alternating (game g: easy at the seats s with s + g even, hard at the others), so the same
matches serve both measures:

- time: every decision of every seat judged as the bot's worker judges it
  (bot/workers/reviews.py `judge_turn`, from the state's saved form, the seed from
  `decision_seed`), the match replayed from its move log as bot/matches/reviews.py does. The
  CPU time of this process and the worker's own clock per match: median, p99 and max. The goal
  is p99 <= 10 s of CPU.
- accuracy: each seat's accuracy (games.review.accuracy) over its turns with a choice, averaged
  per level over the matches. Easy must come out lower than hard.

The machine is shared: CPU time is the figure to read; the wall clock is printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.doudizhu as dd  # noqa: E402
from bot.workers.computer_moves import decision_seed  # noqa: E402
from bot.workers.reviews import judge_turn  # noqa: E402
from games.replay import SPECIAL_ACTIONS, steps  # noqa: E402
from games.review import Judged, accuracy  # noqa: E402

OPTIONS = {"deals": 1}
Log = list[tuple[int, str]]


def levels_for(players: int, game: int) -> list[str]:
    return ["easy" if (seat + game) % 2 == 0 else "hard" for seat in range(players)]


def play(players: int, levels: list[str], seed: int) -> Log:
    """A one-round match between computers of `levels` (by seat): its move log."""
    state = dd.new_game(players, seed=seed, options=OPTIONS)
    log: Log = []
    while state.phase != dd.OVER:
        seat = dd.current_seat(state)
        move = dd.choose_move(state, seat, levels[seat], seed=seed * 1000 + len(log))
        log.append((seat, str(move)))
        state = dd.apply(state, seat, move)
    return log


def review(players: int, seed: int, log: Log) -> tuple[list[Judged], float, float, float]:
    """Every decision judged as the worker does: the turns, CPU s, the worker's clock s and
    wall s."""
    cpu, wall, worker = time.process_time(), time.perf_counter(), 0.0
    turns = []
    for step in steps(dd, players, seed, OPTIONS, log):
        if step.seat is None or step.action in SPECIAL_ACTIONS:
            continue
        found, seconds = judge_turn("doudizhu", step.before.to_dict(), step.seat, step.action,
                                    decision_seed(seed, step.ply, step.seat))
        worker += seconds
        if found is not None:
            turns.append(Judged.from_dict({**found, "ply": step.ply}))
    return turns, time.process_time() - cpu, worker, time.perf_counter() - wall


def p99(values: list[float]) -> float:
    """The 99th percentile (inclusive method: at most the largest value)."""
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def run(players: int, games: int, first_seed: int) -> None:
    cpu, worker, wall, decisions = [], [], [], []
    by_level: dict[str, list[int]] = {"easy": [], "hard": []}
    for game in range(games):
        seed = first_seed + game
        levels = levels_for(players, game)
        log = play(players, levels, seed)
        turns, spent, clock, elapsed = review(players, seed, log)
        cpu.append(spent)
        worker.append(clock)
        wall.append(elapsed)
        decisions.append(len(turns))
        for seat, level in enumerate(levels):
            value = accuracy(turns, seat)
            if value is not None:
                by_level[level].append(value)
        print(f"  {players}p game {game + 1}: {len(turns)} decisions, {spent:.2f} s CPU, "
              f"{clock:.2f} s worker clock, {elapsed:.2f} s wall; accuracy "
              + ", ".join(f"{level} {accuracy(turns, seat)}" for seat, level in enumerate(levels)),
              flush=True)
    print(f"{players} players, {games} matches of one round, "
          f"{statistics.median(decisions):.0f} decisions a match (median):")
    for name, values in (("CPU", cpu), ("worker clock", worker), ("wall", wall)):
        print(f"  review time ({name}): median {statistics.median(values):.2f} s, "
              f"p99 {p99(values):.2f} s, max {max(values):.2f} s")
    easy, hard = (statistics.mean(by_level[level]) for level in ("easy", "hard"))
    print(f"  accuracy, easy against hard: easy {easy:.1f} ({len(by_level['easy'])} seats), "
          f"hard {hard:.1f} ({len(by_level['hard'])} seats): "
          + ("easy lower, as it should be" if easy < hard else "EASY NOT LOWER"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="matches per number of players")
    parser.add_argument("--players", default="3,4", help="3, 4 or 3,4")
    parser.add_argument("--seed", type=int, default=9000, help="the first match's seed")
    args = parser.parse_args()
    for players in (int(p) for p in args.players.split(",")):
        run(players, args.games, args.seed)


if __name__ == "__main__":
    main()
