"""The Scrabble renderer: valid PNGs of a plausible size for empty and busy boards and racks."""

from __future__ import annotations

import io

from PIL import Image

from games.scrabble import (
    Pass,
    apply,
    current_seat,
    new_game,
    outcome,
    position,
    scored_plays,
    view,
)
from render.scrabble import render_board, render_rack

PNG = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_empty_board():
    image = _image(render_board(view(new_game(2, seed=1), None)))
    assert image.size == (600, 600)  # 300 px wide on a phone: render/phone.py


def test_busy_board_with_blanks_and_last_play():
    state = new_game(2, seed=1)
    while outcome(state) is None and state.actions < 16:
        seat = current_seat(state)
        best = scored_plays(state, seat)
        state = apply(state, seat, best[0][1] if best else Pass())
    assert any(c.islower() for row in state.board.rows for c in row)
    busy = render_board(view(state, 0))
    plain = render_board(view(state, 0), highlight_last=False)
    empty = render_board(view(new_game(2, seed=1), None))
    assert _image(busy).size == _image(empty).size
    assert busy != plain != empty


def test_board_from_position_text():
    text = "\n".join(["." * 15] * 7 + ["...qUIzZES....."] + ["." * 15] * 7)
    image = _image(render_board(view(position(text, ["AB", "CD"]), 1)))
    assert image.mode == "RGB"


def test_rack_images():
    state = new_game(2, seed=3, options={"tiles": 9})
    rack = _image(render_rack(view(state, 0)))
    assert 500 <= rack.width <= 600 and 60 <= rack.height <= 140
    assert _image(render_rack("AB?Q")).width < rack.width
    assert _image(render_rack(["A", "?"])).height == rack.height
    empty = _image(render_rack(view(state, None)))  # the public view has no rack
    assert empty.width >= 200
