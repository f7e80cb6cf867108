"""Regenerate docs/review/doudizhu.png: `python docs/review/make_doudizhu.py`.

A round of three computers (easy, normal, hard), one of its turns judged by the coach
(games/doudizhu/review.py) and pictured as the review shows it (render/review_doudizhu.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))

import games.doudizhu as dd  # noqa: E402
from games.doudizhu.review import judge  # noqa: E402
from i18n import voice  # noqa: E402
from render.review_doudizhu import review_png  # noqa: E402

NAMES = ["Alice", "Bo", "Chen"]
LEVELS = ("easy", "normal", "hard")
SEED, PLY = 2019, 10  # a pair of kings spent on 33 where a pair of eights was better


def turn() -> tuple[dd.State, int, str]:
    state = dd.new_game(3, seed=SEED)
    for ply in range(PLY + 1):
        seat = dd.current_seat(state)
        move = str(dd.choose_move(state, seat, LEVELS[seat], seed=SEED * 31 + ply))
        if ply == PLY:
            return state, seat, move
        state = dd.apply(state, seat, dd.parse_move(move))
    raise AssertionError("unreachable")


if __name__ == "__main__":
    before, seat, played = turn()
    judged = judge(before, seat, played, seed=PLY)
    assert judged is not None
    png = review_png(dd.view(before, seat), seat, judged.played, judged.best, voice(), NAMES)
    (HERE / "doudizhu.png").write_bytes(png)
    print(f"wrote {HERE / 'doudizhu.png'}: {NAMES[seat]} played {judged.played}, better "
          f"{judged.best} ({judged.win_played:.2f} -> {judged.win_best:.2f})")
