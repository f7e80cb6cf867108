"""Patchwork timings: the full game image, the placement preview, and legal_moves.

Run: /work/venv/bin/python benchmarks/bench_patchwork.py
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

import games.patchwork as pw
from render.patchwork import render_game, render_preview


def timed(label: str, func, repeat: int) -> None:
    func()  # warm caches
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{label:<48} median {statistics.median(samples):8.3f} ms   p99 {p99:8.3f} ms   (n={repeat})")


def half_full_state() -> pw.State:
    """Play a seeded game until the mover's quilt is about half full, with buttons to spend."""
    rng = random.Random(11)
    s = pw.new_game(2, seed=11)
    while True:
        seat = pw.current_seat(s)
        if s.pending_seat is None and s.empty_squares(seat) <= 41:
            return replace(s, buttons=(40, 40))  # every patch on offer affordable
        moves = pw.legal_moves(s, seat)
        buys = [m for m in moves if isinstance(m, pw.Buy)]
        s = pw.apply(s, seat, rng.choice(buys) if buys else rng.choice(moves))


def main() -> None:
    empty = replace(pw.new_game(2, seed=4), buttons=(40, 40))
    seat = pw.current_seat(empty)
    half = half_full_state()
    half_seat = pw.current_seat(half)
    print(f"empty quilt: {len(pw.legal_moves(empty, seat))} legal moves; "
          f"half-full quilt ({81 - half.empty_squares(half_seat)} squares filled): "
          f"{len(pw.legal_moves(half, half_seat))} legal moves")
    timed("legal_moves, empty quilt (3 patches affordable)", lambda: pw.legal_moves(empty, seat), 500)
    timed("legal_moves, half-full quilt", lambda: pw.legal_moves(half, half_seat), 500)
    view = pw.view(half, half_seat)
    timed("view(state, seat)", lambda: pw.view(half, half_seat), 500)
    timed("render_game (full table image)", lambda: render_game(view), 30)
    timed("render_preview", lambda: render_preview(view, half_seat, 1, "90m", "a1", False,
                                                   "it would cover a1, already filled"), 30)


if __name__ == "__main__":
    main()
