"""Scrabble timings: loading the lexicon and its DAWG, validating and scoring a play, applying
it, generating every play for a rack (the issue's racks: none, one and two blanks, and a 9-tile
rack), the hard computer player's decision for each rack, and drawing the board and a rack.
Prints median and p99 per operation, then the goals: the hard decision on two-blank racks
(AEIRS?? within 300 ms, the 9-tile AEIRST??N within 1 s) on the mid-game board and the empty
one.

    python benchmarks/bench_scrabble.py [--goals]   (--goals: only the goal cases)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from games.scrabble import (
    SIZE,
    Pass,
    State,
    apply,
    choose_move,
    current_seat,
    default_lexicon,
    legal_moves,
    new_game,
    outcome,
    position,
    score_play,
    scored_plays,
    view,
)
from render.scrabble import render_board, render_rack


def measure(name: str, func: Callable[[], object], runs: int) -> tuple[float, float]:
    """Print and return the median and p99 of `runs` calls, in ms."""
    func()  # warm caches (lexicon, prefix set, fonts)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    times.sort()
    median = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print(f"{name:<50} median {median:8.3f} ms   p99 {p99:8.3f} ms   ({runs} runs)")
    return median, p99


def midgame(turns: int = 12):
    state = new_game(2, seed=2024)
    while outcome(state) is None and state.actions < turns:
        seat = current_seat(state)
        best = scored_plays(state, seat)
        state = apply(state, seat, best[0][1] if best else Pass())
    return state


RACKS = ("AEINRST", "AEINRS?", "AEIRS??", "AEIRST??N")
GOALS = (("AEIRS??", 300.0), ("AEIRST??N", 1000.0))  # the hard decision's, in ms (issue 31)


def with_rack(state: State, seat: int, rack: str) -> State:
    return replace(state, racks=tuple(rack if s == seat else r for s, r in enumerate(state.racks)))


def goals(state: State, runs: int = 20) -> None:
    """The hard decision on the goal racks, on `state`'s board and on the empty one."""
    seat = current_seat(state)
    empty = "\n".join(["." * SIZE] * SIZE)
    print("goals: the hard computer's decision (median and p99 against the goal)")
    for rack, goal in GOALS:
        tiles = {"tiles": 9} if len(rack) > 7 else None
        for board, racked, who in (
            (f"board after {state.actions} actions", with_rack(state, seat, rack), seat),
            ("empty board", position(empty, [rack, "EEIOU"], options=tiles), 0),
        ):
            median, p99 = measure(f"  {rack}, {board}",
                                  lambda: choose_move(racked, who, "hard", seed=1), runs)
            verdict = "met" if p99 <= goal else "OVER"
            print(f"  {'':<48} goal {goal:6.0f} ms: {verdict} (p99 at {p99 / goal:.0%} of it)")


def resident_mb() -> float:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    if "--goals" in sys.argv[1:]:
        default_lexicon().dawg
        goals(midgame())
        return
    before = resident_mb()
    start = time.perf_counter()
    lexicon = default_lexicon()
    loaded = time.perf_counter()
    _ = lexicon.dawg
    ready = time.perf_counter()
    print(
        f"load lexicon ({len(lexicon)} words): {(loaded - start) * 1000:.0f} ms, its DAWG: "
        f"{(ready - loaded) * 1000:.0f} ms, ready in {(ready - start) * 1000:.0f} ms; "
        f"resident +{resident_mb() - before:.1f} MB"
    )

    state = midgame()
    seat = current_seat(state)
    best = scored_plays(state, seat)
    play = best[0][1]
    print(f"position after {state.actions} actions; best play {play} for {best[0][0]}")

    measure("validate + score a play", lambda: score_play(state, seat, play), 2000)
    measure("apply a play (double challenge)", lambda: apply(state, seat, play), 1000)
    measure("legal_moves (all plays + exchanges)", lambda: legal_moves(state, seat), 30)
    measure("scored_plays (all plays, scored)", lambda: scored_plays(state, seat), 30)
    for rack in RACKS:
        racked = with_rack(state, seat, rack)
        for one in (False, True):
            count = len(scored_plays(racked, seat, one_blank_choice=one))
            label = f"scored_plays {rack}{' one blank choice' if one else ''} ({count})"
            runs = 5 if "?" in rack else 20
            measure(label, lambda: scored_plays(racked, seat, one_blank_choice=one), runs)
        runs = 5 if "?" in rack else 20
        measure(f"hard computer's decision, {rack}",
                lambda: choose_move(racked, seat, "hard", seed=1), runs)
    seen = view(state, seat)
    measure("render_board", lambda: render_board(seen), 30)
    measure("render_rack", lambda: render_rack(seen), 100)
    goals(state)


if __name__ == "__main__":
    main()
