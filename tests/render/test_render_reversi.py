"""The Reversi renderer produces a phone-sized PNG that changes with the position."""

import io

from PIL import Image, ImageChops

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


def test_status_line_in_every_language_fits_right_of_the_counts():
    from i18n import LANGUAGES, voice
    from render.fonts import text_length
    from render.png import SCALE
    from render.reversi import MARGIN, STATUS_SIZES, status

    state = reversi.new_game(2, seed=1)
    moved = reversi.apply(state, state.black_seat, reversi.Move.parse("d3"))
    rows = ["BBBBBBBB"] * 4 + ["WWWWWWWW"] * 3 + ["WWWWWWB."]
    full = reversi.position("\n".join(rows), black_seat=0, to_move=reversi.WHITE)
    lone = reversi.position("." * 27 + "BW" + "." * 35)
    alone = reversi.position("." * 27 + "WB" + "." * 35, to_move=reversi.WHITE)
    states = [state, moved, reversi.resign(state, 0), reversi.resign(state, 1),
              reversi.apply(full, 1, reversi.Move.parse("h8")),
              reversi.apply(lone, 0, reversi.Move.parse("f4")),
              reversi.apply(alone, 1, reversi.Move.parse("f4"))]
    room = 600 - 2 * MARGIN - 104 - 80
    for lang in LANGUAGES:
        words = {voice(lang)(status(reversi.view(s))) for s in states}
        assert len(words) == 7, words  # each status says something else
        for text in words:
            assert text_length(text, STATUS_SIZES[-1] * SCALE) <= room * SCALE, (lang, text)


def test_a_board_in_chinese_and_gujarati_differs_only_in_its_status_line():
    from i18n import voice
    from render.reversi import FOOTER

    state = reversi.new_game(2, seed=1)
    pictures = {lang: Image.open(io.BytesIO(render_board(reversi.view(state), voice(lang))))
                for lang in ("en", "zh-TW", "gu")}
    english = pictures.pop("en").convert("RGB")
    for lang, picture in pictures.items():
        picture = picture.convert("RGB")
        assert picture.size == english.size
        top = (0, 0, english.width, english.height - FOOTER)
        # The same drawing; each picture's own 256 colours may round a blended edge apart.
        difference = ImageChops.difference(picture.crop(top), english.crop(top))
        assert max(high for _, high in difference.getextrema()) <= 12, lang
        right = (english.width // 2, english.height - FOOTER, english.width, english.height)
        assert picture.crop(right).tobytes() != english.crop(right).tobytes(), lang


def test_a_board_put_together_from_its_pieces_is_the_board_drawn_whole():
    """The board is the cached empty board with cached squares and a fresh footer pasted on
    it: exactly what drawing the discs, hints and footer on one picture gives."""
    from PIL import ImageDraw

    import render.reversi as drawing
    from i18n import voice
    from render.png import SCALE, encode, shrink
    from tests.render.samples import reversi_states

    for state in (reversi.new_game(2, seed=1), *reversi_states()):
        for seat in (0, 1, None):
            board = reversi.view(state, seat)
            whole = drawing._board_image(True).copy()
            draw = ImageDraw.Draw(whole)
            for index, cell in enumerate(board.cells):
                if cell != ".":
                    drawing._draw_disc(draw, drawing._box(index), black=cell == "B",
                                       last=index == board.last_move)
            if board.to_move_colour is not None:
                for index in board.legal:
                    drawing._draw_hint(draw, drawing._box(index),
                                       black=board.to_move_colour == "black")
            footer = drawing._footer(board, voice("gu"))
            whole.paste(footer, (0, whole.height - footer.height))
            assert drawing.render_board(board, voice("gu")) == encode(shrink(whole))
            assert whole.size == (drawing.WIDTH * SCALE, drawing.HEIGHT * SCALE)
