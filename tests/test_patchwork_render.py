"""The Patchwork renderer draws valid PNGs for every phase of a game."""

import io
import random
from dataclasses import replace

from PIL import Image

import games.patchwork as pw
from render.patchwork import render_game, render_preview

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def _states(seed=32):
    rng = random.Random(seed)
    s = pw.new_game(2, seed=seed)
    out = [s]
    while not s.over:
        seat = pw.current_seat(s)
        moves = pw.legal_moves(s, seat)
        buys = [m for m in moves if isinstance(m, pw.Buy)]
        s = pw.apply(s, seat, rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves))
        out.append(s)
    return out


def test_render_game_every_phase():
    states = _states()
    picks = [states[0], states[len(states) // 2], states[-1]]
    picks.append(next(s for s in states if s.pending_seat is not None))
    picks.append(replace(states[5], positions=(9, 9), top_seat=1))
    picks.append(pw.resign(states[3], 0))
    for k, s in enumerate(picks):
        for seat in (None, 0, 1) if k == 1 else (k % 2,):
            image = _image(render_game(pw.view(s, seat)))
            assert 1000 <= image.width <= 1200
            assert 900 <= image.height <= 1500


def test_render_game_with_bonus_and_few_patches_left():
    s = _states()[-1]
    s = replace(s, bonus_seat=1, circle=s.circle[:2])
    image = _image(render_game(pw.view(s, 1)))
    assert image.width == 1160


def test_render_preview_legal_and_illegal():
    s = pw.new_game(2, seed=4)
    s = replace(s, buttons=(20, 20), quilts=((pw.Placed(pw.LEATHER_ID, "0", "e5"),), ()))
    seat = pw.current_seat(s)
    v = pw.view(s, seat)
    ok = _image(render_preview(v, seat, 1, "0", "a1", True, None))
    bad_move = pw.Buy(1, "90 mirrored", "i9")
    reason = pw.buy_problem(s, seat, bad_move)
    assert reason is not None and "sticks out" in reason
    bad = _image(render_preview(v, seat, 1, "90m", "i9", False, reason))
    assert bad.width > ok.width or bad.height > ok.height  # room for the cells off the quilt
    _image(render_preview(v, seat, 2, "180", "d4", False, "it would cover e5, already filled"))
    # unreadable input still draws the quilt
    _image(render_preview(v, seat, 3, "45", "z9", False, "no such square"))
    _image(render_preview(v, seat, 0, "0", "e5", False, "e5 is already filled"))
    short = pw.view(replace(s, circle=s.circle[:1]), seat)
    _image(render_preview(short, seat, 3, "0", "a1", False, "only 1 patch is left on offer; choose 1-1"))
