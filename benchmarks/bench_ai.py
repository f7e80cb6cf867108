"""Computer players' strength and speed, all four games: each game's benchmark in turn, under
the issue's goal for it. A report, never a test threshold. Run from the repository root:

    python benchmarks/bench_ai.py [--games 200] [--hard-games N] [--only reversi,scrabble]

Each game's own benchmark (`bench_ai_<game>.py`) plays seeded games and prints win rates with
95% Wilson intervals and time per decision; this runs them one after another in fresh
processes (so one game's caches do not flatter another's timings) and prints what each says.
Dou Dizhu's 3-player match-ups need rlcard: `pip install -e '.[bench]'`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

GOALS = {
    "reversi": "easy vs random >= 70%; normal vs greedy >= 85%; hard vs normal >= 75%; hard's "
               "endgame exact on 100 positions with <= 12 empties",
    "scrabble": "hard vs highest score now >= 58% wins and >= +15 points a game",
    "doudizhu": "3 players vs rlcard's rule agent, averaged over both roles: hard >= 0.60, "
                "normal >= 0.45; 4 players: hard vs normal >= 0.60",
    "patchwork": "hard vs greedy >= 75%; normal vs random >= 95%",
}
HARD_GAMES = ("reversi", "doudizhu")  # benchmarks that take a separate count for hard
TIMES = "time per decision: hard <= 2 s p99, normal and easy <= 300 ms p99"


def command(game: str, games: int, hard_games: int | None) -> list[str]:
    args = [sys.executable, str(HERE / f"bench_ai_{game}.py"), "--games", str(games)]
    if hard_games is not None and game in HARD_GAMES:
        args += ["--hard-games", str(hard_games)]
    return args


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (deals) per match-up")
    parser.add_argument("--hard-games", type=int, default=None,
                        help="games for the slow hard match-ups (Reversi, Dou Dizhu)")
    parser.add_argument("--only", default=",".join(GOALS), help="games to run, comma-separated")
    args = parser.parse_args()
    print(TIMES)
    for game in args.only.split(","):
        if game not in GOALS:
            parser.error(f"no computer-player benchmark for {game!r}; one of {', '.join(GOALS)}")
        print(f"\n== {game}: goal {GOALS[game]}", flush=True)
        started = time.perf_counter()
        subprocess.run(command(game, args.games, args.hard_games), check=True,
                       cwd=HERE.parent)
        print(f"({game}: {time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
