"""The README's picture of a reviewed Scrabble turn: `python -m docs.tools.scrabble_review`
plays a seeded match of the easy computer against the hard one, reviews it
(games/scrabble/review.py) and writes docs/review/scrabble.png, the easy seat's costliest turn
from the middle of the game (render/review_scrabble.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import games.scrabble as scrabble
from games.review import Judged, costliest
from games.scrabble.review import judge
from i18n import voice
from render.review_scrabble import review_png

OUT = Path(__file__).resolve().parent.parent / "review" / "scrabble.png"
SEED = 6
NAMES = ["Alice", "Hard computer"]


def reviewed(seed: int) -> tuple[list[scrabble.State], list[Judged]]:
    """Each state before a move, and the turns judged, of easy (seat 0) against hard."""
    state = scrabble.new_game(2, seed=seed)
    states, turns = [], []
    while scrabble.outcome(state) is None:
        seat = scrabble.current_seat(state)
        action = str(scrabble.choose_move(state, seat, ("easy", "hard")[seat],
                                          seed=len(states)))
        turn = judge(state, seat, action, seed=len(states))
        if turn is not None:
            turns.append(replace(turn, ply=len(states)))
        states.append(state)
        state = scrabble.apply(state, seat, action)
    return states, turns


def main() -> None:
    states, turns = reviewed(SEED)
    middle = [turn for turn in costliest(turns, 0, 10) if 6 <= turn.ply <= len(states) - 6]
    turn = middle[0]
    view = scrabble.view(states[turn.ply], 0)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_bytes(review_png(view, 0, turn.played, turn.best, voice(), NAMES))
    print(f"wrote {OUT}: move {turn.ply + 1}, {turn.played} for {turn.best} ({turn.reason})")


if __name__ == "__main__":
    main()
