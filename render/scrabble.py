"""Draw a Scrabble view as PNGs: the board (premium squares coloured and labelled, tiles with
their values, blanks in another colour without a value, the last play highlighted, A-O and
1-15 around the edge) and a rack of tiles. Words on them (the premium squares, a blank on a
rack) are in the reader's language. A premium square's label fits its square on one line at
MIN_FONT; where the labels alone do not tell the four kinds apart ("3倍" on both triple
squares, told apart by colour), a legend under the board names each kind."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from games.scrabble import COLUMNS, PREMIUMS, SIZE, VALUES, View, parse_square
from i18n import ENGLISH_VOICE, Text, Voice, _
from render.fonts import draw_text, font, text_length
from render.png import SCALE, encode, finish, shrink

CELL = 37          # pixels per square in the final image: 600 px in all (render/phone.py)
GAP = 2            # grout between squares
MARGIN = 32        # room for the coordinates (top and left)
EDGE = 13          # frame on the other two sides
MIN_FONT = 20      # px: 10 px once Discord shows the picture 300 px wide on a phone
SMALLEST = 14      # px: a label in another script may shrink to this to fit its square
LINE = 1.05        # line height of a two-line label, in font sizes
PAD = 8            # drawing pixels around a label's mask, for strokes past its square
LEGEND_GAP = 6     # between a legend's square and its name, and above the legend

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

PREMIUM_LABELS: dict[str, Text] = {
    # TRANSLATORS: the label on a triple word score square of the Scrabble board. One line
    # about two Latin letters wide, read on a phone: "3×" or "3倍" fits, two words do not. If
    # the labels do not tell the four premium squares apart (the same "3×" on triple word and
    # triple letter, the colours differing), a legend under the board names them.
    "TW": _("TW"),
    # TRANSLATORS: the label on a double word score square (one short line, as for "TW").
    "DW": _("DW"),
    # TRANSLATORS: the label on a triple letter score square (one short line, as for "TW").
    "TL": _("TL"),
    # TRANSLATORS: the label on a double letter score square (one short line, as for "TW").
    "DL": _("DL"),
}
PREMIUM_NAMES: dict[str, Text] = {
    # TRANSLATORS: in the legend under the Scrabble board, next to a copy of the triple word
    # score square (its colour and label). Drawn only when the square labels are ambiguous.
    "TW": _("triple word score"),
    # TRANSLATORS: in the legend under the Scrabble board, next to a double word score square.
    "DW": _("double word score"),
    # TRANSLATORS: in the legend under the Scrabble board, next to a triple letter score square.
    "TL": _("triple letter score"),
    # TRANSLATORS: in the legend under the Scrabble board, next to a double letter score square.
    "DL": _("double letter score"),
}
# TRANSLATORS: written on a blank tile in a picture of a Scrabble rack (one short word).
BLANK_LABEL = _("blank")


def render_board(view: View, voice: Voice = ENGLISH_VOICE, *,
                 highlight_last: bool = True) -> bytes:
    """The board as PNG bytes, 600 pixels wide, labelled in `voice`: 600 tall, or taller by
    the legend its labels need. Tiles show their letters only: a tile's value would be too
    small to read on a phone (the rack shows the values)."""
    return encode(board_image(view, voice, highlight_last=highlight_last))


def board_image(view: View, voice: Voice = ENGLISH_VOICE, *,
                highlight_last: bool = True) -> Image.Image:
    """The board `render_board` encodes, as an RGB image at its final size (a review draws
    on it).

    The empty board and each square with a tile on it are drawn once, at twice the size and
    shrunk; a board is those pieces put together at the final size (each square is a block
    of its own, so the result is what drawing it whole would give)."""
    labels = tuple((bonus, voice(label)) for bonus, label in PREMIUM_LABELS.items())
    legend: tuple[tuple[str, str], ...] = ()
    if len({label for _, label in labels}) < len(labels):  # the labels alone are ambiguous
        legend = tuple((bonus, voice(name)) for bonus, name in PREMIUM_NAMES.items())
    board = _empty_board(labels, legend).copy()
    last: set[tuple[int, int]] = set()
    if highlight_last and view.last_play is not None:
        last = {parse_square(square) for square in view.last_play.squares}
    for row in range(SIZE):
        for col in range(SIZE):
            char = view.board[row][col]
            if char != ".":
                board.paste(_tile_square(char, (row, col) in last),
                            (MARGIN + col * CELL, MARGIN + row * CELL))
    return board


@lru_cache(maxsize=8)
def _empty_board(labels: tuple[tuple[str, str], ...],
                 legend: tuple[tuple[str, str], ...]) -> Image.Image:
    """The board with no tile on it, in one language's labels, at its final size."""
    names = dict(labels)
    columns = _legend_columns([name for _, name in legend])
    rows = math.ceil(len(legend) / columns)
    side = MARGIN + SIZE * CELL + EDGE
    height = side + (LEGEND_GAP + rows * CELL if legend else 0)
    image = Image.new("RGB", (side * SCALE, height * SCALE), FRAME)
    draw = ImageDraw.Draw(image)
    _draw_labels(draw)
    for row in range(SIZE):
        for col in range(SIZE):
            _draw_square(image, draw, row, col, names)
    _draw_legend(image, draw, list(legend), names, columns, top=side - EDGE + LEGEND_GAP)
    return shrink(image)


@lru_cache(maxsize=8)
def _rack_bar(width: int, height: int, top: int) -> Image.Image:
    """An empty rack, twice the size: the wooden bar from `top` down."""
    image = Image.new("RGB", (width * SCALE, height * SCALE), FRAME)
    ImageDraw.Draw(image).rounded_rectangle(
        (4 * SCALE, top * SCALE, (width - 4) * SCALE, (height - 4) * SCALE),
        radius=8 * SCALE,
        fill=(132, 86, 44),
        outline=(92, 58, 28),
        width=2 * SCALE,
    )
    return image


@lru_cache(maxsize=128)
def _rack_tile(char: str, size: int, blank_label: str) -> Image.Image:
    """A rack's tile `size` pixels a side with its value (or `blank_label`) and its shadow,
    twice the size on a transparent ground: every shape is opaque and the text lies on the
    tile, so pasting it through its own alpha is exactly drawing it there."""
    side = size * SCALE
    reach = math.ceil(side * 0.05) + 2  # the shadow, down and to the right
    image = Image.new("RGBA", (side + reach, side + reach), (0, 0, 0, 0))
    _draw_tile(ImageDraw.Draw(image), (0, 0, side, side), char, last=False,
               blank_label=blank_label)
    return image


def clear_caches() -> None:
    """Forget the pieces drawn so far (tests that watch what is drawn)."""
    for cached in (_empty_board, _tile_square, _rack_bar, _rack_tile, _fit, _label_mask):
        cached.cache_clear()


@lru_cache(maxsize=128)
def _tile_square(char: str, last: bool) -> Image.Image:
    """A square with a tile on it (and the grout around it), CELL pixels a side."""
    image = Image.new("RGB", (CELL * SCALE, CELL * SCALE), FRAME)
    draw = ImageDraw.Draw(image)
    draw.rectangle(_cell_box(), fill=PLAIN)
    _draw_tile(draw, _cell_box(inset=1.5), char, last=last, value=False)
    return shrink(image)


class RackLayout(NamedTuple):
    """Where a rack's parts go, in final pixels."""
    tile: int                            # a tile's side
    width: int
    height: int                          # the same for every rack: an edited DM does not jump
    bar_top: int                         # the tiles stand in the bar's groove
    middle: float                        # halfway down the tallest tiles
    places: list[tuple[float, int]]      # each tile's top-left corner


def rack_layout(count: int) -> RackLayout:
    """The layout of a rack of `count` tiles: as big as 600 px allow, up to 72 px a tile."""
    gap, pad, biggest = 8, 14, 72
    tile = min(biggest, (600 - 2 * pad - max(0, count - 1) * gap) // max(1, count))
    width = max(pad * 2 + count * tile + max(0, count - 1) * gap, 300)
    left = (width - (count * tile + max(0, count - 1) * gap)) / 2
    top = pad + biggest - tile
    return RackLayout(tile, width, biggest + pad * 2 + 6, pad + biggest - 14, pad + biggest / 2,
                      [(left + i * (tile + gap), top) for i in range(count)])


def render_rack(view_or_tiles: View | str | Iterable[str],
                voice: Voice = ENGLISH_VOICE) -> bytes:
    """A rack as PNG bytes: a wooden bar with the tiles and their values (`?` is a blank,
    labelled in `voice`)."""
    return finish(_rack_drawing(view_or_tiles, voice))


def rack_image(tiles: str, voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The rack `render_rack` encodes, as an RGB image at its final size."""
    return shrink(_rack_drawing(tiles, voice))


def _rack_drawing(view_or_tiles: View | str | Iterable[str], voice: Voice) -> Image.Image:
    """The rack drawn at twice its final size."""
    if isinstance(view_or_tiles, View):
        tiles = list(view_or_tiles.rack or "")
    else:
        tiles = list("".join(view_or_tiles))
    rack = rack_layout(len(tiles))
    image = _rack_bar(rack.width, rack.height, rack.bar_top).copy()
    if not tiles:
        # TRANSLATORS: a picture of an empty Scrabble rack.
        draw_text(ImageDraw.Draw(image), (rack.width / 2 * SCALE, rack.middle * SCALE),
                  voice(_("no tiles")), 26 * SCALE, fill=LABEL, anchor="mm")
    for t, (left, top) in zip(tiles, rack.places):
        sprite = _rack_tile(t.upper() if t != "?" else "?", rack.tile, voice(BLANK_LABEL))
        image.paste(sprite, (round(left * SCALE), top * SCALE), sprite)
    return image





def _cell_box(inset: float = 0) -> tuple[float, float, float, float]:
    """A square's box (drawing pixels) within its CELL-wide block: inside the grout."""
    near = (GAP / 2 + inset) * SCALE
    far = (CELL - GAP / 2 - inset) * SCALE
    return near, near, far, far


def _box(row: int, col: int, inset: float = 0) -> tuple[float, float, float, float]:
    left, top, right, bottom = _cell_box(inset)
    x, y = (MARGIN + col * CELL) * SCALE, (MARGIN + row * CELL) * SCALE
    return left + x, top + y, right + x, bottom + y


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(MIN_FONT * SCALE)
    for k in range(SIZE):
        centre = (MARGIN + k * CELL + CELL / 2) * SCALE
        draw.text((centre, MARGIN / 2 * SCALE), COLUMNS[k], font=label_font, fill=LABEL,
                  anchor="mm")
        draw.text((MARGIN / 2 * SCALE, centre), str(k + 1), font=label_font, fill=LABEL,
                  anchor="mm")


def _draw_square(image: Image.Image, draw: ImageDraw.ImageDraw, row: int, col: int,
                 labels: dict[str, str]) -> None:
    bonus = PREMIUMS[row][col]
    box = _box(row, col)
    if bonus is None:
        draw.rectangle(box, fill=PLAIN)
    elif (row, col) == (7, 7):
        draw.rectangle(box, fill=PREMIUM_FILL[bonus])
        _draw_star(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 14 * SCALE,
                   PREMIUM_TEXT["DW"])
    else:
        _draw_premium(image, draw, box, bonus, labels[bonus])


def _draw_premium(image: Image.Image, draw: ImageDraw.ImageDraw,
                  box: tuple[float, float, float, float], bonus: str, label: str) -> None:
    """A premium square in `box` (drawing pixels): its colour and its label."""
    draw.rectangle(box, fill=PREMIUM_FILL[bonus])
    room = round(box[2] - box[0])
    image.paste(PREMIUM_TEXT[bonus], (round(box[0]) - PAD, round(box[1]) - PAD),
                _label_mask(label, room))


def _legend_columns(names: list[str]) -> int:
    """How many legend entries share a row: all of them if each fits its share of the
    board's width, else two."""
    if not names:
        return 1
    widest = max(text_length(name, MIN_FONT * SCALE) for name in names) / SCALE
    return len(names) if CELL + LEGEND_GAP + widest <= SIZE * CELL / len(names) else 2


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw, legend: list[tuple[str, str]],
                 labels: dict[str, str], columns: int, *, top: float) -> None:
    """Under the board, rows of entries: a copy of each premium square, then its name."""
    width = SIZE * CELL / columns
    for i, (bonus, name) in enumerate(legend):
        left = MARGIN + (i % columns) * width
        y = top + (i // columns) * CELL
        box = ((left + GAP / 2) * SCALE, (y + GAP / 2) * SCALE,
               (left + CELL - GAP / 2) * SCALE, (y + CELL - GAP / 2) * SCALE)
        _draw_premium(image, draw, box, bonus, labels[bonus])
        draw_text(draw, ((left + CELL + LEGEND_GAP) * SCALE, (y + CELL / 2) * SCALE), name,
                  MIN_FONT * SCALE, fill=LABEL, anchor="lm")


@lru_cache(maxsize=256)
def _fit(label: str, room: float, largest: int) -> tuple[int, tuple[str, ...]]:
    """The font size (drawing pixels) and lines of `label` in a square `room` pixels wide:
    `largest` if it fits, else smaller down to SMALLEST; a label too long for one line at
    MIN_FONT is split at its line break, or else at its middle space (Gujarati) or character
    (Chinese)."""
    lines = tuple(label.split("\n"))
    if len(lines) == 1 and text_length(label, largest * SCALE, condensed=True) > room:
        words = label.split()
        if len(words) > 1:
            cut = max(range(1, len(words)), key=lambda i: -abs(
                len(" ".join(words[:i])) - len(" ".join(words[i:]))))
            lines = (" ".join(words[:cut]), " ".join(words[cut:]))
        elif len(label) > 2:
            lines = (label[:len(label) // 2], label[len(label) // 2:])
    for size in range(largest, SMALLEST - 1, -1):
        wide = max(text_length(line, size * SCALE, condensed=True) for line in lines)
        if wide <= room and len(lines) * size * LINE * SCALE <= room:
            return size * SCALE, lines
    return SMALLEST * SCALE, lines


@lru_cache(maxsize=64)
def _label_mask(label: str, room: int) -> Image.Image:
    """A premium square's label fitted into a square `room` drawing pixels wide, drawn once
    as a mask (PAD pixels more on every side) that every such square is painted through."""
    mask = Image.new("L", (room + 2 * PAD, room + 2 * PAD), 0)
    centre = room / 2 + PAD
    _draw_label(ImageDraw.Draw(mask), centre, centre, label, room, fill=255)
    return mask


def _draw_label(draw: ImageDraw.ImageDraw, cx: float, cy: float, label: str, room: float, *,
                fill: tuple[int, int, int] | int, largest: int = MIN_FONT) -> None:
    """`label` centred on (cx, cy), fitted into a square `room` drawing pixels wide."""
    size, lines = _fit(label, room, largest)
    top = cy - (len(lines) - 1) * size * LINE / 2
    for i, line in enumerate(lines):
        draw_text(draw, (cx, top + i * size * LINE), line, size, fill=fill, anchor="mm",
                  condensed=True)


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
    blank_label: str | None = None,
    value: bool = True,
) -> None:
    """One tile in `box` (drawing pixels); `value` adds its points in the corner; a blank on
    a rack shows `blank_label`."""
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
    elif char == "?" and blank_label:
        largest = max(round(size * 0.24 / SCALE), MIN_FONT)
        _draw_label(draw, cx, cy, blank_label, size, fill=(150, 120, 80), largest=largest)
