"""Draw a Reversi view as a PNG: a green board with labels, shaded discs, the last move marked,
dots on the legal squares of the player to move, and the disc counts. The status line is worded
by the voice given (the channel's language) and shrinks to fit in any script."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.reversi import RESIGNED, View
from i18n import ENGLISH_VOICE, Text, Voice, _
from render.fonts import draw_text, font, text_length
from render.png import SCALE, encode, shrink

CELL = 66          # pixels per square in the final image: 600 px wide in all (render/phone.py)
MARGIN = 36        # room for the a-h / 1-8 labels
FOOTER = 60        # room for the counts
WIDTH = MARGIN * 2 + CELL * 8
HEIGHT = WIDTH + FOOTER

BACKGROUND = (24, 40, 30)
FELT = (34, 120, 64)
FELT_DARK = (28, 100, 54)
GRID = (16, 64, 34)
LABEL = (226, 236, 228)
BLACK_DISC = ((22, 22, 22), (78, 78, 78))   # body, highlight
WHITE_DISC = ((232, 232, 226), (255, 255, 255))
SHADOW = (10, 48, 24)
LAST_MOVE = (230, 57, 70)
STATUS_SIZES = (24, 22, 20, 18, 16, 14)  # px tried in turn until the status line fits


def render_board(view: View, voice: Voice = ENGLISH_VOICE) -> bytes:
    """The board as PNG bytes, 600 x 660 pixels, its status line worded by `voice`.

    The empty board, each square as it can look and the footer are drawn at twice the size
    and shrunk apart, each on blocks of whole pixels: put together they are exactly the
    board drawn whole, and only the footer is drawn anew each time."""
    return encode(board_image(view, voice))


def board_image(view: View, voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The board of `render_board` as a picture at its final size, before encoding (pictures
    built on it, such as a review's, draw on it first)."""
    board = _board_image(False).copy()
    hint = view.to_move_colour  # None once the game is over: no hints
    legal = set(view.legal) if hint is not None else set()
    for index, cell in enumerate(view.cells):
        if cell != "." or index in legal:
            row, col = divmod(index, 8)
            square = _square(index, cell, index == view.last_move and cell != ".",
                             hint if cell == "." else None)
            board.paste(square, (MARGIN + col * CELL, MARGIN + row * CELL))
    board.paste(shrink(_footer(view, voice)), (0, HEIGHT - FOOTER))
    return board


@lru_cache(maxsize=2)
def _board_image(drawn: bool) -> Image.Image:
    """The board with no disc on it: as drawn (`drawn`, twice the size) or at its final size."""
    if not drawn:
        return shrink(_board_image(True))
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_board(draw)
    _draw_labels(draw)
    return image


@lru_cache(maxsize=256)
def _square(index: int, cell: str, last: bool, hint: str | None) -> Image.Image:
    """One square (grid lines and marker points included) with its disc or its hint, at the
    final size."""
    row, col = divmod(index, 8)
    left, top = (MARGIN + col * CELL) * SCALE, (MARGIN + row * CELL) * SCALE
    image = _board_image(True).crop((left, top, left + CELL * SCALE, top + CELL * SCALE))
    draw = ImageDraw.Draw(image)
    box = (0, 0, CELL * SCALE, CELL * SCALE)
    if cell != ".":
        _draw_disc(draw, box, black=cell == "B", last=last)
    elif hint is not None:
        _draw_hint(draw, box, black=hint == "black")
    return shrink(image)


def clear_caches() -> None:
    """Forget the pieces drawn so far (tests that watch what is drawn)."""
    _board_image.cache_clear()
    _square.cache_clear()


def _footer(view: View, voice: Voice) -> Image.Image:
    """The strip under the board: the counts and the status line, twice the size."""
    image = Image.new("RGB", (WIDTH * SCALE, FOOTER * SCALE), BACKGROUND)
    _draw_footer(ImageDraw.Draw(image), view, voice)
    return image


def _box(index: int, inset: float = 0) -> tuple[float, float, float, float]:
    row, col = divmod(index, 8)
    left = (MARGIN + col * CELL + inset) * SCALE
    top = (MARGIN + row * CELL + inset) * SCALE
    return left, top, left + (CELL - 2 * inset) * SCALE, top + (CELL - 2 * inset) * SCALE


def _draw_board(draw: ImageDraw.ImageDraw) -> None:
    for index in range(64):
        row, col = divmod(index, 8)
        draw.rectangle(_box(index), fill=FELT if (row + col) % 2 == 0 else FELT_DARK)
    for k in range(9):
        offset = (MARGIN + k * CELL) * SCALE
        start, end = MARGIN * SCALE, (MARGIN + 8 * CELL) * SCALE
        draw.line([(offset, start), (offset, end)], fill=GRID, width=2 * SCALE)
        draw.line([(start, offset), (end, offset)], fill=GRID, width=2 * SCALE)
    for col, row in ((2, 2), (6, 2), (2, 6), (6, 6)):  # the four marker points
        x, y = (MARGIN + col * CELL) * SCALE, (MARGIN + row * CELL) * SCALE
        r = 5 * SCALE
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GRID)


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(22 * SCALE)
    for k in range(8):
        centre = (MARGIN + k * CELL + CELL / 2) * SCALE
        for edge in (MARGIN / 2, MARGIN * 1.5 + 8 * CELL):
            draw.text((centre, edge * SCALE), "abcdefgh"[k], font=label_font, fill=LABEL,
                      anchor="mm")
            draw.text((edge * SCALE, centre), str(k + 1), font=label_font, fill=LABEL,
                      anchor="mm")


def _draw_disc(draw: ImageDraw.ImageDraw, square: tuple[float, float, float, float], *,
               black: bool, last: bool) -> None:
    """A disc on the square whose box (drawing pixels) is `square`."""
    body, highlight = BLACK_DISC if black else WHITE_DISC
    inset = 7 * SCALE
    left, top, right, bottom = (square[0] + inset, square[1] + inset, square[2] - inset,
                                square[3] - inset)
    depth = 4 * SCALE
    draw.ellipse((left + depth / 2, top + depth, right + depth / 2, bottom + depth), fill=SHADOW)
    draw.ellipse((left, top, right, bottom), fill=body)
    width = right - left
    draw.ellipse((left + width * 0.18, top + width * 0.12, left + width * 0.62,
                  top + width * 0.42), fill=highlight)
    draw.ellipse((left + width * 0.1, top + width * 0.1, right - width * 0.1,
                  bottom - width * 0.1), outline=highlight, width=max(1, SCALE))
    if last:
        r = 8 * SCALE
        cx, cy = (left + right) / 2, (top + bottom) / 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LAST_MOVE)


def _draw_hint(draw: ImageDraw.ImageDraw, square: tuple[float, float, float, float], *,
               black: bool) -> None:
    left, top, right, bottom = square
    cx, cy = (left + right) / 2, (top + bottom) / 2
    r = 7 * SCALE
    colour = (BLACK_DISC if black else WHITE_DISC)[0]  # a small disc of the mover's colour
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=GRID, width=SCALE)


def status(view: View) -> Text:
    """The footer's words: whose move it is, or who won."""
    black_won = view.outcome is not None and view.outcome.winners[0] == view.black_seat
    if view.outcome is None:
        return _("Black to move") if view.to_move_colour == "black" else _("White to move")
    if view.outcome.draw:
        return _("Draw")
    if view.outcome.reason == RESIGNED:
        return _("Black wins by resignation") if black_won else _("White wins by resignation")
    return _("Black wins") if black_won else _("White wins")


def _draw_footer(draw: ImageDraw.ImageDraw, view: View, voice: Voice) -> None:
    """The counts and the status line on the footer strip (its own drawing)."""
    y = (FOOTER / 2 - 6) * SCALE
    text_font = font(24 * SCALE)
    r = 14 * SCALE
    for x, black, count in ((MARGIN, True, view.black_count), (MARGIN + 104, False, view.white_count)):
        cx = (x + 16) * SCALE
        draw.ellipse((cx - r, y - r, cx + r, y + r), fill=(BLACK_DISC if black else WHITE_DISC)[0],
                     outline=LABEL, width=SCALE)
        draw.text((cx + r + 10 * SCALE, y), str(count), font=text_font, fill=LABEL, anchor="lm")
    words = voice(status(view))
    room = WIDTH - 2 * MARGIN - 104 - 80  # right of the two counts
    px = next((px for px in STATUS_SIZES if text_length(words, px * SCALE) <= room * SCALE),
              STATUS_SIZES[-1])
    draw_text(draw, ((WIDTH - MARGIN) * SCALE, y), words, px * SCALE, fill=LABEL, anchor="rm")
