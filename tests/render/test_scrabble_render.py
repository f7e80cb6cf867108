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
    assert image.mode == "P"  # 256 colours: render/png.py


def test_rack_images():
    state = new_game(2, seed=3, options={"tiles": 9})
    rack = _image(render_rack(view(state, 0)))
    assert 500 <= rack.width <= 600 and 60 <= rack.height <= 140
    assert _image(render_rack("AB?Q")).width < rack.width
    assert _image(render_rack(["A", "?"])).height == rack.height
    empty = _image(render_rack(view(state, None)))  # the public view has no rack
    assert empty.width >= 200


def test_a_board_put_together_from_its_pieces_is_the_board_drawn_whole():
    """The board is the cached empty board with cached tile squares pasted on it: exactly
    what drawing every square and tile on one picture gives, in every language."""
    from PIL import ImageDraw

    import render.scrabble as drawing
    from i18n import voice
    from render.png import SCALE, encode, shrink
    from tests.render.samples import scrabble_full_board

    state = scrabble_full_board()
    board = view(state, 0)
    last = {drawing.parse_square(square) for square in board.last_play.squares}
    for lang in ("en", "zh-TW", "gu"):
        words = voice(lang)
        labels = {bonus: words(label) for bonus, label in drawing.PREMIUM_LABELS.items()}
        legend = [] if len(set(labels.values())) == len(labels) else [
            (bonus, words(name)) for bonus, name in drawing.PREMIUM_NAMES.items()]
        pieces = drawing._empty_board(tuple(labels.items()), tuple(legend))
        whole = Image.new("RGB", (pieces.width * SCALE, pieces.height * SCALE), drawing.FRAME)
        draw = ImageDraw.Draw(whole)
        drawing._draw_labels(draw)
        columns = drawing._legend_columns([name for _, name in legend])
        drawing._draw_legend(whole, draw, legend, labels, columns,
                             top=drawing.MARGIN + drawing.SIZE * drawing.CELL + drawing.LEGEND_GAP)
        for row in range(drawing.SIZE):
            for col in range(drawing.SIZE):
                char = board.board[row][col]
                if char == ".":
                    drawing._draw_square(whole, draw, row, col, labels)
                    continue
                draw.rectangle(drawing._box(row, col), fill=drawing.PLAIN)
                drawing._draw_tile(draw, drawing._box(row, col, inset=1.5), char,
                                   last=(row, col) in last, value=False)
        assert drawing.render_board(board, words) == encode(shrink(whole)), lang


def test_a_rack_put_together_from_its_tiles_is_the_rack_drawn_whole():
    """Rack tiles are drawn once on a transparent ground and pasted through their alpha:
    exactly the tiles drawn on the rack itself, blanks and other languages included."""
    from PIL import ImageDraw

    import render.scrabble as drawing
    from i18n import voice
    from render.png import SCALE, finish

    for lang, tiles in (("en", "AEINRST"), ("zh-TW", "Q?ZXJ?W"), ("gu", "ABCDEFGH?")):
        words = voice(lang)
        rack = drawing.rack_layout(len(tiles))
        whole = drawing._rack_bar(rack.width, rack.height, rack.bar_top).copy()
        draw = ImageDraw.Draw(whole)
        side = rack.tile * SCALE
        for char, (left, top) in zip(tiles, rack.places):
            x, y = left * SCALE, top * SCALE
            drawing._draw_tile(draw, (x, y, x + side, y + side), char, last=False,
                               blank_label=words(drawing.BLANK_LABEL))
        assert render_rack(tiles, words) == finish(whole), lang
