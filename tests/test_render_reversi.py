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


def test_legal_squares_carry_a_dot_of_the_movers_colour():
    from render.reversi import CELL, MARGIN

    def centre_of(image, name):
        row, col = divmod(reversi.Move.parse(name).square, 8)
        return sum(image.getpixel((MARGIN + col * CELL + CELL // 2, MARGIN + row * CELL + CELL // 2)))

    state = reversi.new_game(2, seed=1)
    black = Image.open(io.BytesIO(render_board(reversi.view(state)))).convert("RGB")
    assert centre_of(black, "d3") < 150 and centre_of(black, "a1") > 150  # dark dot, felt
    after = reversi.apply(state, state.black_seat, reversi.Move.parse("d3"))
    white = Image.open(io.BytesIO(render_board(reversi.view(after)))).convert("RGB")
    legal = [str(m) for m in reversi.legal_moves(after, reversi.current_seat(after))]
    assert all(centre_of(white, name) > 600 for name in legal)
