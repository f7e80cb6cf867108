"""Draw a Scrabble view as PNGs: the board (premium squares coloured and labelled, tiles with
their values, blanks in another colour without a value, the last play highlighted, A-O and
1-15 around the edge) and a rack of tiles."""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

from games.scrabble import COLUMNS, PREMIUMS, SIZE, VALUES, View, parse_square
from render.fonts import font
from render.png import SCALE, finish

CELL = 37          # pixels per square in the final image: 600 px in all (render/phone.py)
GAP = 2            # grout between squares
MARGIN = 32        # room for the coordinates (top and left)
EDGE = 13          # frame on the other two sides
MIN_FONT = 20      # px: 10 px once Discord shows the picture 300 px wide on a phone

FRAME = (28, 58, 54)
GROUT = (28, 58, 54)
LABEL = (230, 238, 232)
PLAIN = (200, 219, 196)
PREMIUM_FILL = {
    "TW": (214, 64, 62),
    "DW": (240, 160, 150),
    "TL": (44, 110, 180),
    "DL": (150, 200, 230),
}
PREMIUM_TEXT = {
    "TW": (255, 240, 236),
    "DW": (120, 36, 36),
    "TL": (236, 244, 255),
    "DL": (28, 70, 112),
}
TILE = (246, 226, 178)
TILE_EDGE = (196, 160, 100)
TILE_SHADOW = (20, 40, 36)
LAST = (255, 206, 84)
LAST_EDGE = (214, 98, 20)
LETTER = (40, 32, 24)
BLANK_LETTER = (196, 40, 40)


def render_board(view: View, *, highlight_last: bool = True) -> bytes:
    """The board as PNG bytes, 600 x 600 pixels. Tiles show their letters only: a tile's
    value would be too small to read on a phone (the rack shows the values)."""
    side = MARGIN + SIZE * CELL + EDGE
    image = Image.new("RGB", (side * SCALE, side * SCALE), FRAME)
    draw = ImageDraw.Draw(image)
    last: set[tuple[int, int]] = set()
    if highlight_last and view.last_play is not None:
        last = {parse_square(square) for square in view.last_play.squares}
    _draw_labels(draw)
    for row in range(SIZE):
        for col in range(SIZE):
            char = view.board[row][col]
            if char == ".":
                _draw_square(draw, row, col)
            else:
                _draw_square(draw, row, col, plain=True)
                box = _box(row, col, inset=1.5)
                _draw_tile(draw, box, char, last=(row, col) in last, value=False)
    return finish(image)


def render_rack(view_or_tiles: View | str | Iterable[str]) -> bytes:
    """A rack as PNG bytes: a wooden bar with the tiles and their values (`?` is a blank)."""
    if isinstance(view_or_tiles, View):
        tiles = list(view_or_tiles.rack or "")
    else:
        tiles = list("".join(view_or_tiles))
    gap, pad, biggest = 8, 14, 72
    tile = min(biggest, (600 - 2 * pad - max(0, len(tiles) - 1) * gap) // max(1, len(tiles)))
    width = max(pad * 2 + len(tiles) * tile + max(0, len(tiles) - 1) * gap, 300)
    height = biggest + pad * 2 + 6  # the same for every rack: an edited DM does not jump
    top = pad + biggest - tile
    image = Image.new("RGB", (width * SCALE, height * SCALE), FRAME)
    draw = ImageDraw.Draw(image)
    bar_top = pad + biggest - 14  # the tiles stand in the rack's groove
    draw.rounded_rectangle(
        (4 * SCALE, bar_top * SCALE, (width - 4) * SCALE, (height - 4) * SCALE),
        radius=8 * SCALE,
        fill=(132, 86, 44),
        outline=(92, 58, 28),
        width=2 * SCALE,
    )
    if not tiles:
        draw.text((width / 2 * SCALE, (pad + biggest / 2) * SCALE), "no tiles",
                  font=font(26 * SCALE), fill=LABEL, anchor="mm")
    left = (width - (len(tiles) * tile + max(0, len(tiles) - 1) * gap)) / 2
    for i, t in enumerate(tiles):
        x = left + i * (tile + gap)
        box = (x * SCALE, top * SCALE, (x + tile) * SCALE, (top + tile) * SCALE)
        _draw_tile(draw, box, t.upper() if t != "?" else "?", last=False, rack=True)
    return finish(image)





def _box(row: int, col: int, inset: float = 0) -> tuple[float, float, float, float]:
    left = MARGIN + col * CELL + GAP / 2 + inset
    top = MARGIN + row * CELL + GAP / 2 + inset
    size = CELL - GAP - 2 * inset
    return left * SCALE, top * SCALE, (left + size) * SCALE, (top + size) * SCALE


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(MIN_FONT * SCALE)
    for k in range(SIZE):
        centre = (MARGIN + k * CELL + CELL / 2) * SCALE
        draw.text((centre, MARGIN / 2 * SCALE), COLUMNS[k], font=label_font, fill=LABEL,
                  anchor="mm")
        draw.text((MARGIN / 2 * SCALE, centre), str(k + 1), font=label_font, fill=LABEL,
                  anchor="mm")


def _draw_square(draw: ImageDraw.ImageDraw, row: int, col: int, *, plain: bool = False) -> None:
    bonus = None if plain else PREMIUMS[row][col]
    box = _box(row, col)
    draw.rectangle(box, fill=PREMIUM_FILL[bonus] if bonus else PLAIN)
    if bonus is None:
        return
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if (row, col) == (7, 7):
        _draw_star(draw, cx, cy, 14 * SCALE, PREMIUM_TEXT["DW"])
        return
    draw.text((cx, cy), bonus, font=font(MIN_FONT * SCALE, condensed=True),
              fill=PREMIUM_TEXT[bonus], anchor="mm")


def _draw_star(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


def _draw_tile(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    char: str,
    *,
    last: bool,
    rack: bool = False,
    value: bool = True,
) -> None:
    """One tile in `box` (drawing pixels); `value` adds its points in the corner."""
    left, top, right, bottom = box
    size = right - left
    shadow = size * 0.05
    radius = size * 0.14
    draw.rounded_rectangle((left + shadow, top + shadow, right + shadow * 0.6,
                            bottom + shadow * 0.6), radius=radius, fill=TILE_SHADOW)
    draw.rounded_rectangle(
        (left, top, right, bottom),
        radius=radius,
        fill=LAST if last else TILE,
        outline=LAST_EDGE if last else TILE_EDGE,
        width=max(1, round(size * (0.07 if last else 0.035))),
    )
    blank = char == "?" or char.islower()
    letter = "" if char == "?" else char.upper()
    cx, cy = (left + right) / 2, (top + bottom) / 2
    shift = 0 if blank or not value else size * (0.15 if VALUES[letter] >= 10 else 0.07)
    if letter:
        draw.text(
            (cx - shift, cy + size * 0.02),
            letter,
            font=font(round(size * (0.52 if value else 0.68))),
            fill=BLANK_LETTER if blank else LETTER,
            anchor="mm",
        )
    if value and not blank:
        draw.text(
            (right - size * 0.08, bottom - size * 0.06),
            str(VALUES[letter]),
            font=font(max(round(size * 0.3), MIN_FONT * SCALE), condensed=True),
            fill=LETTER,
            anchor="rs",
        )
    elif char == "?" and rack:
        draw.text((cx, cy), "blank", font=font(max(round(size * 0.24), MIN_FONT * SCALE),
                                                condensed=True),
                  fill=(150, 120, 80), anchor="mm")
