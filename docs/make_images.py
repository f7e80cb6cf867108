"""Regenerate the images the README shows: `python docs/make_images.py`."""

from __future__ import annotations

import random
from pathlib import Path

import games.reversi as reversi
from render.reversi import render_board

HERE = Path(__file__).parent


def reversi_midgame(seed: int = 4, plies: int = 24) -> reversi.State:
    rng = random.Random(seed)
    state = reversi.new_game(2, seed=seed)
    for _ in range(plies):
        seat = reversi.current_seat(state)
        state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    return state


if __name__ == "__main__":
    (HERE / "reversi.png").write_bytes(render_board(reversi.view(reversi_midgame())))
    print("wrote", HERE / "reversi.png")
