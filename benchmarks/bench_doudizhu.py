"""Dou Dizhu timings: legal_plays on a full 20-card (3 players) and 33-card (4 players) hand,
as a lead and as an answer, and the hand renderer. Prints median and p99 per case."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import games.doudizhu as dd
from games.doudizhu.combinations import classify, legal_plays
from render.doudizhu import render_hand


def timed(label: str, func: Callable[[], object], runs: int) -> None:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        samples.append(time.perf_counter() - start)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{label:<44} median {statistics.median(samples) * 1000:8.3f} ms   p99 {p99 * 1000:8.3f} ms")


def landlord_hands(players: int, count: int) -> list[tuple[str, ...]]:
    """Full landlord hands (20 or 33 cards) from seeded deals."""
    hands = []
    for seed in range(count):
        state = dd.new_game(players, seed=seed)
        hands.append(state.hands[0] + state.kitty)
    return hands


def main() -> None:
    for players in (3, 4):
        hands = landlord_hands(players, 50)
        size = len(hands[0])
        cycle = iter(hands * 40)
        timed(f"legal_plays lead, {size}-card hand", lambda: legal_plays(next(cycle), None, players), 1000)
        pair = classify("33", players)
        cycle = iter(hands * 40)
        timed(f"legal_plays answer to 33, {size}-card hand",
              lambda: legal_plays(next(cycle), pair, players), 1000)
        cycle = iter(hands * 4)
        timed(f"render_hand, {size} cards", lambda: render_hand(next(cycle)), 100)


if __name__ == "__main__":
    main()
