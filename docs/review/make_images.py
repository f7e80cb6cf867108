"""Regenerate the review pictures shown here: `python docs/review/make_images.py`.

Each is a real turn judged (games/<game>/review.py) in a seeded game between an easy and a
normal computer: the first of easy's turns that gave something away for the reason named.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))

import games.patchwork as patchwork  # noqa: E402
import games.reversi as reversi  # noqa: E402
from games.patchwork import review as patchwork_review  # noqa: E402
from games.reversi import review as reversi_review  # noqa: E402
from i18n import voice  # noqa: E402
from render import review_patchwork, review_reversi  # noqa: E402

NAMES = {"en": ["Alice", "Bob"], "zh-TW": ["王小明", "陳美玲"], "zh-CN": ["李华", "张伟"],
         "gu": ["ક્ષિતિજ", "પ્રિયા"]}


def reversi_turn(reasons: tuple[str, ...], seed: int = 12):
    """(state, seat, judged) of easy's first turn after the opening with one of `reasons`."""
    state, ply = reversi.new_game(2, seed=seed), 0
    while (seat := reversi.current_seat(state)) is not None:
        easy = seat == state.black_seat
        move = reversi.choose_move(state, seat, "easy" if easy else "normal", seed=ply)
        if easy and ply > 16:
            turn = reversi_review.judge(state, seat, str(move), seed=1)
            if turn is not None and turn.reason in reasons:
                return state, seat, turn
        state = reversi.apply(state, seat, move)
        ply += 1
    raise LookupError(reasons)


def patchwork_turn(reasons: tuple[str, ...], seed: int = 4, random_leather: bool = False):
    """(state, seat, judged) of easy's first turn with one of `reasons` (with
    `random_leather`, leather patches placed at random)."""
    state, rng = patchwork.new_game(2, seed=seed), random.Random(seed)
    while not state.over:
        seat = patchwork.current_seat(state)
        move = patchwork.choose_move(state, seat, "easy" if seat == 0 else "normal",
                                     seed=state.turn)
        if random_leather and patchwork.turn_reason(state) == patchwork.TURN_LEATHER:
            move = rng.choice(patchwork.legal_moves(state, seat))
        if seat == 0 and state.turn > 8:
            turn = patchwork_review.judge(state, seat, str(move), seed=1)
            if turn is not None and turn.reason in reasons:
                return state, seat, turn
        state = patchwork.apply(state, seat, move)
    raise LookupError(reasons)


def main() -> None:
    state, seat, turn = reversi_turn(("corner_given", "corner_missed"))
    for lang, name in (("en", "reversi.png"), ("zh-TW", "reversi-zh-TW.png")):
        png = review_reversi.review_png(reversi.view(state, seat), seat, turn.played,
                                        turn.best, voice(lang), NAMES[lang])
        (HERE / name).write_bytes(png)
    state, seat, turn = patchwork_turn(("pass_better", "buttons"))
    for lang, name in (("en", "patchwork.png"), ("gu", "patchwork-gu.png")):
        png = review_patchwork.review_png(patchwork.view(state, seat), seat, turn.played,
                                          turn.best, voice(lang), NAMES[lang])
        (HERE / name).write_bytes(png)
    state, seat, turn = patchwork_turn(("holes",), seed=9, random_leather=True)  # a placement
    png = review_patchwork.review_png(patchwork.view(state, seat), seat, turn.played,
                                      turn.best, voice("zh-CN"), NAMES["zh-CN"])
    (HERE / "patchwork-placement-zh-CN.png").write_bytes(png)


if __name__ == "__main__":
    main()
