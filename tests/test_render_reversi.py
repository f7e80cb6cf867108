"""The Reversi renderer produces a phone-sized PNG that changes with the position."""

import io

from PIL import Image

import games.reversi as reversi
from render.reversi import render_board


def test_start_position_renders_a_png_of_discord_size():
    png = render_board(reversi.view(reversi.new_game(2, seed=1)))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert 600 <= image.width <= 800 and 600 <= image.height <= 850


def test_discs_and_hints_are_drawn_where_the_view_says():
    state = reversi.new_game(2, seed=1)
    image = Image.open(io.BytesIO(render_board(reversi.view(state)))).convert("RGB")
    from render.reversi import CELL, MARGIN

    def centre(name):
        index = reversi.Move.parse(name).square
        row, col = divmod(index, 8)
        return MARGIN + col * CELL + CELL // 2, MARGIN + row * CELL + CELL // 2 + 12

    dark = sum(image.getpixel(centre("d5")))      # black disc, below its highlight
    light = sum(image.getpixel(centre("d4")))     # white disc
    empty = image.getpixel(centre("a1"))          # felt
    assert dark < 200 and light > 600
    assert empty[1] > empty[0] and empty[1] > empty[2]
    after = reversi.apply(state, state.black_seat, reversi.Move.parse("d3"))
    assert render_board(reversi.view(after)) != render_board(reversi.view(state))
