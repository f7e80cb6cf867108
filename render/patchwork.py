"""Draw a Patchwork view as PNG bytes.

`render_game(view)` draws the whole table in one phone-sized image (600 px wide, at most 900
tall; render/phone.py): both quilts with their buttons and a-i / 1-9 labels (row 1 at the top)
and each player's buttons, income, time and score, the time track with both tokens, the income
spaces and the leather patches still on it, who holds the 7x7 bonus, and the three patches on
offer (numbered 1-3) followed by the next seven of the circle, each with its cost, time and
income. The rest of the circle is counted, not drawn: it would not fit a phone.

`render_preview(view, seat, patch_choice, orientation, square, legal, reason)` draws one quilt
with a patch ghosted where the player wants to put it: green when legal, red (with the reason)
when not; squares it would cover twice or that fall off the quilt are marked.

Both take a `voice` that words every label (the channel's for the table, the player's for a
preview); labels are measured and cut, shrunk or wrapped to fit in every language.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from threading import Lock
from typing import NamedTuple

from PIL import Image, ImageDraw

from games.common import GameError
from games.patchwork import (
    COLUMNS,
    LEATHER_ID,
    RESIGNED,
    TIE_BREAK,
    TURN_BEHIND,
    TURN_LEATHER,
    TURN_ON_TOP,
    PatchInfo,
    PatchworkView,
    PlacedView,
    oriented_buttons,
    oriented_cells,
    parse_orientation,
    short_orientation,
    square_index,
)
from i18n import ENGLISH_VOICE, Voice, Words, _, n_
from render.fonts import draw_text, text_length, wrap
from render.phone import WIDTH
from render.png import SCALE, encode, finish, shrink

PAD = 12
TEXT = 20  # px: the smallest text, 10 px once a phone shows the picture 300 px wide

INK = (52, 40, 34)
INK_SOFT = (120, 104, 92)
PAPER = (247, 241, 230)
PANEL = (255, 252, 245)
HEADER = (60, 47, 40)
HEADER_TEXT = (250, 240, 222)
GRID_EMPTY = (236, 227, 211)
GRID_LINE = (208, 196, 176)
BUTTON_BLUE = (52, 112, 190)
BUTTON_EDGE = (26, 64, 120)
LEATHER = (139, 94, 60)
GOLD = (232, 182, 48)
HIGHLIGHT = (255, 214, 0)
PLAYER_COLOURS = ((224, 112, 32), (110, 76, 194))  # token colours: orange, purple
FADE = (247, 241, 230, 170)

FABRICS = (
    (231, 111, 81), (244, 162, 97), (233, 196, 106), (42, 157, 143), (138, 177, 125),
    (94, 129, 172), (181, 101, 167), (229, 152, 155), (112, 160, 200), (176, 132, 92),
    (200, 80, 100), (110, 120, 175),
)


def text_width(text: str, size: int, *, condensed: bool = False) -> float:
    """How wide `text` is at font `size`, in logical pixels."""
    return text_length(text, size * SCALE, condensed=condensed) / SCALE


@lru_cache(maxsize=256)
def fit_text(text: str, size: int, width: float, *, condensed: bool = False) -> str:
    """`text`, cut short with an ellipsis if needed to be at most `width` pixels wide."""
    if text_width(text, size, condensed=condensed) <= width:
        return text
    while text and text_width(text + "…", size, condensed=condensed) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_size(text: str, size: int, width: float, *, smallest: int = TEXT - 4,
             condensed: bool = False) -> int:
    """The largest font size from `size` down to `smallest` at which `text` fits `width`."""
    while size > smallest and text_width(text, size, condensed=condensed) > width:
        size -= 1
    return size


def wrap_text(text: str, size: int, width: float, *, condensed: bool = False) -> list[str]:
    """`text` in lines at most `width` pixels wide (render/fonts.py `wrap`)."""
    return wrap(text, lambda part: text_width(part, size, condensed=condensed), width)


def drawn_to_start(view: PatchworkView) -> bool:
    """Whether the player to move moves because they were drawn to start (no move made yet)."""
    return view.move_count == 0 and view.turn_reason == TURN_ON_TOP


def fabric(patch: PatchInfo) -> tuple[int, int, int]:
    """The colour a patch is drawn in (stable per patch id; leather is brown)."""
    if patch.leather:
        return LEATHER
    base = FABRICS[patch.id % len(FABRICS)]
    return _shade(base, (1.0, 0.82, 1.22)[patch.id // len(FABRICS) % 3])


def _shade(colour: tuple[int, ...], factor: float) -> tuple[int, int, int]:
    if factor < 1:
        return tuple(int(c * factor) for c in colour[:3])  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1)) for c in colour[:3])  # type: ignore[return-value]


class Pen:
    """Drawing in logical pixels on an image SCALE times larger: RGB, or RGBA with a
    transparent background when `background` is None (a sprite to paste)."""

    def __init__(self, width: float, height: float,
                 background: tuple[int, int, int] | None = PAPER) -> None:
        self.size = (width, height)
        pixels = (math.ceil(width * SCALE), math.ceil(height * SCALE))
        if background is None:
            self.image = Image.new("RGBA", pixels, (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", pixels, background)
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def _s(*values: float) -> list[float]:
        return [v * SCALE for v in values]

    def rect(self, x0, y0, x1, y1, fill=None, outline=None, width=1, radius=0) -> None:
        box = self._s(x0, y0, x1, y1)
        if radius:
            self.draw.rounded_rectangle(box, radius * SCALE, fill=fill, outline=outline, width=int(width * SCALE))
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=int(width * SCALE) if outline else 0)

    def line(self, points, fill, width=1) -> None:
        self.draw.line(self._s(*points), fill=fill, width=max(1, int(width * SCALE)))

    def circle(self, cx, cy, r, fill=None, outline=None, width=1) -> None:
        self.draw.ellipse(self._s(cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline,
                          width=int(width * SCALE) if outline else 0)

    def polygon(self, points, fill=None, outline=None) -> None:
        self.draw.polygon(self._s(*points), fill=fill, outline=outline)

    def text(self, x, y, text, size, fill=INK, anchor="la", condensed=False) -> None:
        draw_text(self.draw, tuple(self._s(x, y)), text, size * SCALE, fill=fill, anchor=anchor,
                  condensed=condensed)

    def width_of(self, text: str, size: int, condensed: bool = False) -> float:
        return text_width(text, size, condensed=condensed)

    def overlay(self, box, colour) -> None:
        """Blend a translucent rectangle (an RGBA `colour`) over the image."""
        x0, y0, x1, y1 = (int(v) for v in self._s(*box))
        self.image.paste(colour[:3], (x0, y0, x1, y1),
                         Image.new("L", (x1 - x0, y1 - y0), colour[3]))

    def paste(self, sprite: Image.Image, x: float, y: float, mask: Image.Image | None = None) -> None:
        """Put a picture drawn by another Pen at (x, y), through `mask` if given."""
        self.image.paste(sprite, (round(x * SCALE), round(y * SCALE)), mask)

    def png(self) -> bytes:
        return finish(self.image)


# --- small pictures ------------------------------------------------------------------------------


def _button(pen: Pen, cx: float, cy: float, r: float) -> None:
    """A blue sewing button with four holes."""
    pen.circle(cx, cy, r, fill=BUTTON_BLUE, outline=BUTTON_EDGE, width=max(1, r / 6))
    if r >= 5:
        d, h = r * 0.32, max(0.8, r * 0.14)
        for dx, dy in ((-d, -d), (d, -d), (-d, d), (d, d)):
            pen.circle(cx + dx, cy + dy, h, fill=(230, 240, 255))


def _hourglass(pen: Pen, x: float, y: float, size: float) -> None:
    """An hourglass for time, `size` tall, top-left at (x, y)."""
    w = size * 0.7
    sand = (214, 160, 70)
    pen.polygon([x, y, x + w, y, x + w / 2, y + size / 2], fill=(240, 225, 190), outline=INK)
    pen.polygon([x + w / 2, y + size / 2, x + w, y + size, x, y + size], fill=sand, outline=INK)
    pen.line([x - 1, y, x + w + 1, y], INK, max(1, size / 10))
    pen.line([x - 1, y + size, x + w + 1, y + size], INK, max(1, size / 10))


def _leather(pen: Pen, x: float, y: float, size: float) -> None:
    pen.rect(x, y, x + size, y + size, fill=LEATHER, outline=_shade(LEATHER, 0.6), width=1, radius=size / 8)
    inset = size * 0.2
    _dashes(pen, [(x + inset, y + inset, x + size - inset, y + inset),
                  (x + size - inset, y + inset, x + size - inset, y + size - inset),
                  (x + inset, y + size - inset, x + size - inset, y + size - inset),
                  (x + inset, y + inset, x + inset, y + size - inset)], _shade(LEATHER, 1.5), size / 8)


def _dashes(pen: Pen, segments, colour, dash: float) -> None:
    dash = max(dash, 2)
    for x0, y0, x1, y1 in segments:
        length = abs(x1 - x0) + abs(y1 - y0)
        steps = max(1, int(length / (dash * 2)))
        for k in range(steps):
            t0 = (k * 2 + 0.5) * dash / length
            t1 = min(1, t0 + dash / length)
            pen.line([x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1],
                     colour, 1)


SPRITE_PAD = 4


def _patch_cells(pen: Pen, cells, buttons, x0: float, y0: float, cell: float, colour) -> None:
    """Draw a patch from its (row, col) cells with its buttons, origin (x0, y0): drawn once
    per shape, size and colour (stitches are many short lines), then pasted."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    shape = tuple((r - top, c - left) for r, c in cells)
    holes = tuple((r - top, c - left) for r, c in buttons)
    colours, mask = _patch_sprite(shape, holes, cell, colour)
    pen.paste(colours, x0 + left * cell - SPRITE_PAD, y0 + top * cell - SPRITE_PAD, mask)


@lru_cache(maxsize=512)
def _patch_sprite(cells, buttons, cell: float, colour) -> tuple[Image.Image, Image.Image]:
    """The patch drawn on its own: its colours and its shape (a mask)."""
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    pen = Pen(cols * cell + 2 * SPRITE_PAD, rows * cell + 2 * SPRITE_PAD, None)
    _draw_patch(pen, cells, buttons, SPRITE_PAD, SPRITE_PAD, cell, colour)
    return pen.image.convert("RGB"), pen.image.getchannel("A")


def _draw_patch(pen: Pen, cells, buttons, x0: float, y0: float, cell: float, colour) -> None:
    cellset = set(cells)
    edge = _shade(colour, 0.55)
    for r, c in cells:
        pen.rect(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell, fill=colour)
    seams = []
    inset = max(2.5, cell * 0.12)
    for r, c in cells:
        left, top = x0 + c * cell, y0 + r * cell
        right, bottom = left + cell, top + cell
        for (dr, dc), (a, b, e, f), (ia, ib, ie, iff) in (
            ((-1, 0), (left, top, right, top), (left, top + inset, right, top + inset)),
            ((1, 0), (left, bottom, right, bottom), (left, bottom - inset, right, bottom - inset)),
            ((0, -1), (left, top, left, bottom), (left + inset, top, left + inset, bottom)),
            ((0, 1), (right, top, right, bottom), (right - inset, top, right - inset, bottom)),
        ):
            if (r + dr, c + dc) not in cellset:
                pen.line([a, b, e, f], edge, 2)
                seams.append((ia, ib, ie, iff))
    if cell >= 12:
        _dashes(pen, seams, _shade(colour, 1.45), max(2, cell / 9))
    for r, c in buttons:
        _button(pen, x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, cell * 0.3)


def _draw_patch_fit(pen: Pen, patch: PatchInfo, x: float, y: float, w: float, h: float, max_cell: float) -> None:
    """A patch centred in the box (x, y, w, h)."""
    rows = max(r for r, _ in patch.cells) + 1
    cols = max(c for _, c in patch.cells) + 1
    cell = min(max_cell, w / cols, h / rows)
    x0 = x + (w - cols * cell) / 2
    y0 = y + (h - rows * cell) / 2
    _patch_cells(pen, patch.cells, patch.button_cells, x0, y0, cell, fabric(patch))


def _player_name(view: PatchworkView, seat: int, names: Sequence[str] | None = None, *,
                 size: int = 0, width: float = 0, voice: Voice = ENGLISH_VOICE) -> str:
    """The seat's name, "(you)" added for the viewer; cut to `width` pixels at `size` if given."""
    name = names[seat] if names else voice(_("Player {number}", number=seat + 1))
    if view.seat != seat:
        return fit_text(name, size, width) if width else name
    if width:
        room = width - text_width(voice(_("{name} (you)", name="")), size)
        name = fit_text(name, size, room)
    return voice(_("{name} (you)", name=name))


# --- quilts --------------------------------------------------------------------------------------


def _quilt(pen: Pen, patches: tuple[PlacedView, ...], x: float, y: float, cell: float,
           highlight: int | None = None, label_size: int = TEXT,
           background: tuple[int, int, int] = PANEL) -> None:
    """A 9x9 quilt with its a-i / 1-9 labels; (x, y) is the top-left of the a1 square."""
    image = _quilt_image(patches, highlight, cell, label_size, background)
    pen.paste(image, x - QUILT_MARGIN, y - QUILT_MARGIN)


class _Quilts:
    """The newest quilts drawn (twice the size, 0.9 MB each): a move usually adds one patch
    to a quilt drawn the move before. Unlike an lru_cache, it says whether a quilt is kept
    without drawing it, so a quilt not kept is drawn in one go rather than patch by patch."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[tuple, Image.Image] = OrderedDict()
        self._lock = Lock()  # pictures are drawn in several threads

    def get(self, key: tuple) -> Image.Image | None:
        with self._lock:
            image = self._kept.get(key)
            if image is not None:
                self._kept.move_to_end(key)
            return image

    def keep(self, key: tuple, image: Image.Image) -> None:
        with self._lock:
            self._kept[key] = image
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()


_quilts = _Quilts(6)  # needed only while a panel is drawn


def _quilt_image(patches: tuple[PlacedView, ...], highlight: int | None, cell: float,
                 label_size: int, background: tuple[int, int, int]) -> Image.Image:
    """A quilt as it stands. A quilt only grows and the highlight is usually its newest
    patch, so a move draws one patch on the quilt as it was (when kept), or one outline on
    the quilt."""
    key = (patches, highlight, cell, label_size, background)
    image = _quilts.get(key)
    if image is None:
        image = _draw_quilt(patches, highlight, cell, label_size, background)
        _quilts.keep(key, image)
    return image


def _draw_quilt(patches: tuple[PlacedView, ...], highlight: int | None, cell: float,
                label_size: int, background: tuple[int, int, int]) -> Image.Image:
    newest = patches[-1] if patches else None
    m = QUILT_MARGIN
    if newest is not None and highlight == newest.index:
        pen = _pen_on(_quilt_image(patches, None, cell, label_size, background))
        _patch_outline(pen, newest.cells, m, m, cell, HIGHLIGHT)
        return pen.image
    before = None if newest is None or highlight is not None else _quilts.get(
        (patches[:-1], None, cell, label_size, background))
    if before is not None:
        pen = _pen_on(before)
        _patch_cells(pen, newest.cells, newest.button_cells, m, m, cell, fabric(newest.patch))
        return pen.image
    pen = _pen_on(_empty_quilt(cell, label_size, background))  # all of it, in one go
    for placed in patches:
        _patch_cells(pen, placed.cells, placed.button_cells, m, m, cell, fabric(placed.patch))
        if placed.index == highlight:
            _patch_outline(pen, placed.cells, m, m, cell, HIGHLIGHT)
    return pen.image


def _pen_on(image: Image.Image) -> Pen:
    """A Pen drawing on a copy of `image` (a cached layer, twice the size)."""
    pen = Pen(0, 0)
    pen.image = image.copy()
    pen.draw = ImageDraw.Draw(pen.image)
    return pen


QUILT_MARGIN = 28  # room for the labels above and left of a quilt


@lru_cache(maxsize=8)
def _empty_quilt(cell: float, label_size: int, background: tuple[int, int, int]) -> Image.Image:
    """The empty grid and its labels, on `background`: the same all game, drawn once."""
    m = QUILT_MARGIN
    pen = Pen(m + 9 * cell + 4, m + 9 * cell + 4, background)
    for i, letter in enumerate(COLUMNS):
        pen.text(m + (i + 0.5) * cell, m - 6, letter, label_size, INK_SOFT, anchor="md",
                 condensed=True)
    for row in range(9):
        pen.text(m - 7, m + (row + 0.5) * cell, str(row + 1), label_size, INK_SOFT, anchor="rm",
                 condensed=True)
    pen.rect(m - 3, m - 3, m + 9 * cell + 3, m + 9 * cell + 3, fill=_shade(GRID_LINE, 0.8), radius=4)
    for row in range(9):
        for col in range(9):
            pen.rect(m + col * cell, m + row * cell, m + (col + 1) * cell, m + (row + 1) * cell,
                     fill=GRID_EMPTY, outline=GRID_LINE, width=1)
    return pen.image


def _patch_outline(pen: Pen, cells, x0, y0, cell, colour, width=4) -> None:
    cellset = set(cells)
    for r, c in cells:
        left, top = x0 + c * cell, y0 + r * cell
        for (dr, dc), seg in (
            ((-1, 0), (left, top, left + cell, top)),
            ((1, 0), (left, top + cell, left + cell, top + cell)),
            ((0, -1), (left, top, left, top + cell)),
            ((0, 1), (left + cell, top, left + cell, top + cell)),
        ):
            if (r + dr, c + dc) not in cellset:
                pen.line(list(seg), colour, width)


def _stat(pen: Pen, x: float, y: float, value: str, label: str, colour=INK,
          width: float = 0) -> None:
    """A number and its label on one line: `12 buttons` (the label cut to `width` in all)."""
    pen.text(x, y, value, TEXT + 2, colour, anchor="ls")
    left = pen.width_of(value, TEXT + 2) + 5
    if width:
        label = fit_text(label, TEXT, width - left, condensed=True)
    pen.text(x + left, y, label, TEXT, INK_SOFT, anchor="ls", condensed=True)


QUILT_CELL = 27
LABEL_W = 20   # the 1-9 column left of a quilt
NAME_H = 36
PANEL_H = NAME_H + 28 + 9 * QUILT_CELL + 68


class _PanelFace(NamedTuple):
    """Everything a player's panel shows: the key its final-size picture is cached by."""
    seat: int
    to_move: bool
    name: str
    has_bonus: bool
    patches: tuple[PlacedView, ...]
    highlight: int | None
    buttons: int
    income: int
    position: int
    track_end: int
    score: int


def _panel_face(view: PatchworkView, seat: int, names: Sequence[str] | None, w: float,
                voice: Voice) -> _PanelFace:
    player = view.players[seat]
    right = w - 10 - (34 if player.has_bonus else 0)
    name = _player_name(view, seat, names, size=TEXT + 2, width=right - 40, voice=voice)
    highlight = view.last_placed[1] if view.last_placed and view.last_placed[0] == seat else None
    return _PanelFace(seat, view.turn == seat, name, player.has_bonus, player.quilt.patches,
                      highlight, player.buttons, player.income, player.position, view.track_end,
                      player.score)


@lru_cache(maxsize=4)
def _panel_image(face: _PanelFace, w: float, voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """A player's panel at its final size, one pixel wider and taller than the panel (its
    outline reaches that far when drawn twice the size): both panels are usually redrawn each
    move (the turn passes), but an unchanged one is pasted."""
    pen = Pen(w + 1, PANEL_H + 1)
    _player_panel(pen, face, 0, 0, w, voice)
    return shrink(pen.image)


def _player_panel(pen: Pen, face: _PanelFace, x: float, y: float, w: float,
                  voice: Voice = ENGLISH_VOICE) -> None:
    """Name, quilt and the four numbers that matter: buttons, income, time, score."""
    colour = PLAYER_COLOURS[face.seat]
    pen.rect(x, y, x + w, y + PANEL_H, fill=PANEL, outline=colour if face.to_move else GRID_LINE,
             width=4 if face.to_move else 2, radius=12)
    if face.to_move:
        pen.rect(x + 2, y + 2, x + w - 2, y + NAME_H, fill=_shade(colour, 1.7), radius=10)
    _token(pen, x + 22, y + NAME_H / 2 + 1, face.seat)
    if face.has_bonus:
        _bonus_tile(pen, x + w - 10 - 28, y + 4, 28)
    pen.text(x + 40, y + NAME_H / 2 + 1, face.name, TEXT + 2, INK, anchor="lm")
    gx = x + 8 + LABEL_W + (w - 16 - LABEL_W - 9 * QUILT_CELL) / 2
    gy = y + NAME_H + 28
    _quilt(pen, face.patches, gx, gy, QUILT_CELL, face.highlight, label_size=TEXT)
    sy = gy + 9 * QUILT_CELL + 32
    half = x + w / 2 + 4
    room, right_room = w / 2 - 12, w / 2 - 8  # up to the next column, or the panel's edge
    # TRANSLATORS: labels after a number under each quilt: "12 buttons", "+3 income",
    # "20/53 time" (the time track), "-150 score"; short, about 10 letters at most.
    buttons = voice(n_("button", "buttons", face.buttons))
    _stat(pen, x + 12, sy, str(face.buttons), buttons, width=room)
    _stat(pen, half, sy, f"+{face.income}", voice(_("income")), BUTTON_BLUE,
          width=right_room)
    _stat(pen, x + 12, sy + 28, f"{face.position}/{face.track_end}", voice(_("time")),
          colour, width=room)
    _stat(pen, half, sy + 28, str(face.score), voice(_("score")), width=right_room)


def _token(pen: Pen, cx: float, cy: float, seat: int) -> None:
    colour = PLAYER_COLOURS[seat]
    pen.circle(cx, cy + 1.5, 13, fill=_shade(colour, 0.45))
    pen.circle(cx, cy, 13, fill=colour, outline=(255, 255, 255), width=2)
    pen.text(cx, cy + 1, str(seat + 1), TEXT, (255, 255, 255), anchor="mm", condensed=True)


def _bonus_tile(pen: Pen, x: float, y: float, size: float) -> None:
    pen.rect(x, y, x + size, y + size, fill=GOLD, outline=_shade(GOLD, 0.6), width=2, radius=size / 8)
    pen.text(x + size / 2, y + size / 2 + 1, "7", max(TEXT, int(size * 0.6)), INK, anchor="mm")


# --- the time track ------------------------------------------------------------------------------

TRACK_ROW = 18      # spaces per row: 54 spaces (0-53) in three rows
SPACE_H = 30
TRACK_H = 3 * SPACE_H + 2 * 6 + 16 + 30


@lru_cache(maxsize=8)
def _track_layer(track_end: int, income: tuple[int, ...], width: int,
                 voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The spaces, their row numbers and income buttons: the same all game, drawn once."""
    pen = Pen(width, TRACK_H, PANEL)
    pen.rect(0, 0, width - 1, TRACK_H - 1, outline=GRID_LINE, width=2, radius=12)
    for space in range(track_end + 1):
        x, y, w = _space(space, width)
        fill = GOLD if space == track_end else (243, 234, 218)
        pen.rect(x + 1, y, x + w - 1, y + SPACE_H, fill=fill, outline=GRID_LINE, width=1, radius=5)
        if space % TRACK_ROW == 0:
            pen.text(x - 6, y + SPACE_H / 2, str(space), TEXT, INK_SOFT, anchor="rm", condensed=True)
        if space in income:
            _button(pen, x + w / 2, y + SPACE_H / 2, 8)
    legend_y = TRACK_H - 17
    _button(pen, 20, legend_y, 8)
    pen.text(32, legend_y, _legend(voice)[0], TEXT, INK_SOFT, anchor="lm", condensed=True)
    _leather(pen, _legend(voice)[1], legend_y - 8, 16)
    return pen.image


@lru_cache(maxsize=8)
def _legend(voice: Voice) -> tuple[str, float]:
    """The track's "income" legend, cut to fit, and where the leather legend starts."""
    label = fit_text(voice(_("income")), TEXT, 90, condensed=True)
    return label, round(32 + text_width(label, TEXT, condensed=True) + 7)


def _space(space: int, width: float) -> tuple[float, float, float]:
    """Left, top and width of a track space, in the track's own coordinates."""
    row, col = divmod(space, TRACK_ROW)
    w = (width - 44 - 10) / TRACK_ROW
    return 44 + col * w, 8 + row * (SPACE_H + 6), w


def _track_image(view: PatchworkView, names: Sequence[str] | None, w: int,
                 voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The track at its final size: the tokens drawn on a copy of the rest (cached), which
    changes only when a leather patch is taken or the bonus claimed."""
    leather = voice(_("leather ({left} left)", left=len(view.leather_spaces)))
    if view.bonus_seat is None:
        bonus = voice(_("7x7 bonus: free"))
    else:
        bonus = voice(_("7x7 bonus: {player}", player=_player_name(
            view, view.bonus_seat, names, voice=voice)))
    pen = _pen_on(_track_base(view.track_end, tuple(view.income_spaces),
                              tuple(view.leather_spaces), leather, bonus, w, voice))
    _track_tokens(pen, view, w)
    return shrink(pen.image)


@lru_cache(maxsize=2)
def _track_base(track_end: int, income: tuple[int, ...], leathers: tuple[int, ...],
                leather: str, bonus: str, w: int, voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The track without its tokens, twice the size: spaces, leather patches and legends."""
    pen = _pen_on(_track_layer(track_end, income, w, voice))
    for space in leathers:
        sx, sy, sw = _space(space, w)
        _leather(pen, sx + sw / 2 - 8, sy + SPACE_H / 2 - 8, 16)
    legend_y = TRACK_H - 17
    leather_x = _legend(voice)[1] + 22
    needed = leather_x + text_width(leather, TEXT, condensed=True) + 6
    bonus_x = min(max(290, needed), w - 200)  # the bonus legend keeps room for a name
    pen.text(leather_x, legend_y, fit_text(leather, TEXT, bonus_x - leather_x - 4,
                                           condensed=True),
             TEXT, INK_SOFT, anchor="lm", condensed=True)
    _bonus_tile(pen, bonus_x, legend_y - 12, 24)
    pen.text(bonus_x + 30, legend_y, fit_text(bonus, TEXT, w - bonus_x - 44, condensed=True),
             TEXT, INK_SOFT, anchor="lm", condensed=True)
    return pen.image


def _track_tokens(pen: Pen, view: PatchworkView, w: int) -> None:
    """Both tokens on the track (in its own coordinates): side by side on a shared space,
    the one that arrived last on top."""
    a, b = view.players[0].position, view.players[1].position
    order = (0, 1)
    if a == b:
        top = 0 if view.players[0].on_top else 1
        order = (1 - top, top)  # the one on top is drawn last
    for seat in order:
        sx, sy, sw = _space(view.players[seat].position, w)
        shift = 0 if a != b else (-5 if seat == order[0] else 5)
        _token(pen, sx + sw / 2 + shift, sy + SPACE_H / 2 - shift / 2, seat)


# --- the circle ----------------------------------------------------------------------------------

SHOWN_PATCHES = 10   # the offer and the next seven: what the next few turns can bring
PER_ROW = 5
ITEM_H = 114


def _price_line(pen: Pen, patch: PatchInfo, x: float, y: float, size: int) -> float:
    """Cost (button), time (hourglass) and income (+n) in one line; returns its width."""
    start = x
    r = size * 0.4
    _button(pen, x + r, y + size * 0.55, r)
    x += 2 * r + 3
    pen.text(x, y, str(patch.cost), size, INK, condensed=True)
    x += pen.width_of(str(patch.cost), size, condensed=True) + size * 0.35
    _hourglass(pen, x, y + size * 0.12, size * 0.85)
    x += size * 0.6 + 4
    pen.text(x, y, str(patch.time), size, INK, condensed=True)
    x += pen.width_of(str(patch.time), size, condensed=True) + size * 0.35
    income = f"+{patch.income}"
    pen.text(x, y, income, size, BUTTON_BLUE if patch.income else INK_SOFT, condensed=True)
    x += pen.width_of(income, size, condensed=True)
    return x - start


def _measure_price(pen: Pen, patch: PatchInfo, size: int) -> float:
    r = size * 0.4
    return (2 * r + 3 + pen.width_of(str(patch.cost), size, condensed=True) + size * 0.35
            + size * 0.6 + 4 + pen.width_of(str(patch.time), size, condensed=True) + size * 0.35
            + pen.width_of(f"+{patch.income}", size, condensed=True))


def _circle_rows(view: PatchworkView) -> int:
    return max(1, -(-min(len(view.circle), SHOWN_PATCHES) // PER_ROW))


def _circle(canvas: Image.Image, view: PatchworkView, x: int, top: int, y: int, w: int,
            voice: Voice = ENGLISH_VOICE) -> None:
    """The offer (1-3, to buy) and the patches after it, clockwise from the spool, pasted on
    the final-size `canvas`: the heading's strip from `top` down to the first patches (`y` is
    the heading's baseline), then each patch (those that start mid-pixel shrunk with that
    offset, so all is exactly as if drawn whole)."""
    more = len(view.circle) - SHOWN_PATCHES
    if more > 0:
        note = voice(_("buy 1, 2 or 3; then the circle (+{more} more)", more=more))
    else:
        note = voice(_("buy 1, 2 or 3; then the circle"))
    bottom = y + 10 if view.circle else canvas.height
    canvas.paste(_circle_heading(note, not view.circle, y - top, bottom - top, voice), (0, top))
    buyer = (view.players[view.turn] if view.turn is not None
             and view.turn_reason != TURN_LEATHER else None)
    item_w = (w - (PER_ROW - 1) * 8) / PER_ROW
    for k, patch in enumerate(view.circle[:SHOWN_PATCHES]):
        row, col = divmod(k, PER_ROW)
        left = round((x + col * (item_w + 8)) * SCALE)  # where the item starts drawn twice the size
        dear = k < 3 and buyer is not None and patch.cost > buyer.buttons
        item = _item(patch, k + 1 if k < 3 else 0, dear, item_w, left % SCALE, voice)
        canvas.paste(item, (left // SCALE, y + 10 + row * (ITEM_H + 8)))


@lru_cache(maxsize=4)
def _circle_heading(note: str, empty: bool, y: int, height: int,
                    voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """The strip above the circle's patches at its final size: "ON OFFER" and `note` with
    their baseline at `y`, and "no patches left" under them when the circle is `empty`."""
    pen = Pen(WIDTH, height)
    title = voice(_("ON OFFER"))
    pen.text(PAD, y, title, TEXT + 2, INK, anchor="ls")
    left = pen.width_of(title, TEXT + 2) + 10
    pen.text(PAD + left, y, fit_text(note, TEXT, WIDTH - 2 * PAD - left, condensed=True), TEXT,
             INK_SOFT, anchor="ls", condensed=True)
    if empty:
        pen.text(PAD, y + 30, voice(_("no patches left")), TEXT, INK_SOFT, anchor="ls")
    return shrink(pen.image)


@lru_cache(maxsize=64)  # 38 kB each
def _item(patch: PatchInfo, number: int, dear: bool, width: float, shift: int,
          voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """One patch of the circle with its price, at its final size, drawn `shift` pixels (of
    the drawing twice the size) into the paper it starts on: numbered 1-3 (`number`) when on
    offer, faded when the player to move cannot afford it. Drawn once per patch and state,
    then pasted."""
    drawn = _draw_item(patch, number, dear, width, voice)
    image = Image.new("RGB", (-(-(drawn.width + shift) // SCALE) * SCALE, drawn.height), PAPER)
    image.paste(drawn, (shift, 0))
    return shrink(image)


def _draw_item(patch: PatchInfo, number: int, dear: bool, width: float,
               voice: Voice = ENGLISH_VOICE) -> Image.Image:
    """One patch of the circle with its price, twice the size."""
    pen = Pen(width, ITEM_H)
    pen.rect(0, 0, width, ITEM_H, fill=PANEL, outline=_shade(fabric(patch), 0.8) if number
             else GRID_LINE, width=3 if number else 1, radius=10)
    if number:
        pen.circle(16, 16, 13, fill=INK)
        pen.text(16, 17, str(number), TEXT, HEADER_TEXT, anchor="mm")
    _draw_patch_fit(pen, patch, 8, 8, width - 16, 68, 18)
    _price_line(pen, patch, (width - _measure_price(pen, patch, TEXT)) / 2, 84, TEXT)
    if dear:
        pen.overlay((3, 3, width - 3, ITEM_H - 3), FADE)
        # TRANSLATORS: over a patch its buyer has too few buttons for; two short lines at most.
        words = voice(_("can't afford"))
        size = fit_size(words, TEXT, width - 12) if " " not in words else TEXT
        said = wrap_text(words, size, width - 12)[:2]
        top = 44 - 12 * (len(said) - 1)
        for k, line in enumerate(said):
            pen.text(width / 2, top + 24 * k, fit_text(line, size, width - 8), size,
                     (180, 40, 40), anchor="mm")
    return pen.image


# --- header --------------------------------------------------------------------------------------


def _status(view: PatchworkView, names: Sequence[str] | None,
            voice: Voice = ENGLISH_VOICE) -> tuple[str, str]:
    """The header's two lines: who wins or moves, and why."""
    def name(seat: int) -> str:
        return _player_name(view, seat, names, voice=voice)

    if view.over and view.outcome is not None:
        out = view.outcome
        winner = out.winners[0]
        loser = 1 - winner
        if out.reason == RESIGNED:
            return (voice(_("{player} wins", player=name(winner))),
                    voice(_("{player} resigned", player=name(loser))))
        title = voice(_("{player} wins, {score} to {other}", player=name(winner),
                        score=out.scores[winner], other=out.scores[loser]))
        if out.reason == TIE_BREAK:
            return title, voice(_("tied score: the first to reach the final space wins"))
        return title, voice(_("highest score"))
    if view.turn is None:
        return voice(_("Game over")), ""
    player = name(view.turn)
    if view.turn_reason == TURN_LEATHER:
        title = n_("{player}: place a leather patch", "{player}: place {n} leather patches",
                   view.pending_leather, player=player)
        return voice(title), voice(_("reached a leather space first: use /patchwork place"))
    title = voice(_("{player} to move", player=player))
    if view.turn_reason == TURN_BEHIND:
        return title, voice(_("behind on the time track"))
    if drawn_to_start(view):
        return title, voice(_("drawn to start"))
    return title, voice(_("same space, arrived last (on top)"))


HEADER_H = 62


def render_game(view: PatchworkView, names: Sequence[str] | None = None,
                voice: Voice = ENGLISH_VOICE) -> bytes:
    """The whole table as PNG bytes, 600 px wide and at most 900 tall (render/phone.py):
    both quilts, the time track, the offer and the next patches of the circle, labelled in
    `voice`.

    Put together at the final size from pieces drawn twice the size and shrunk apart, each
    at a whole pixel: the header, the two panels, the track and the circle's patches are
    cached, so a move draws only what it changed (usually the panels and the tokens)."""
    y_quilts = HEADER_H + PAD
    y_track = y_quilts + PANEL_H + PAD
    y_circle = y_track + TRACK_H + PAD + 20
    height = y_circle + 10 + _circle_rows(view) * (ITEM_H + 8) + PAD - 8
    canvas = Image.new("RGB", (WIDTH, height), PAPER)
    header_names = [fit_text(name, TEXT + 4, 300) for name in names] if names else None
    title, note = _status(view, header_names, voice)
    colour = PLAYER_COLOURS[view.turn] if view.turn is not None else GOLD
    canvas.paste(_header(title, note, colour, y_quilts), (0, 0))
    panel_w = (WIDTH - 3 * PAD) // 2
    for seat in (0, 1):
        face = _panel_face(view, seat, names, panel_w, voice)
        canvas.paste(_panel_image(face, panel_w, voice), (PAD + seat * (panel_w + PAD), y_quilts))
    canvas.paste(_track_image(view, names, WIDTH - 2 * PAD, voice), (PAD, y_track))
    _circle(canvas, view, PAD, y_track + TRACK_H, y_circle, WIDTH - 2 * PAD, voice)
    return encode(canvas)


@lru_cache(maxsize=4)
def _header(title: str, note: str, colour: tuple[int, int, int], height: int) -> Image.Image:
    """The dark band on top with who moves (or won) and why, on a strip `height` tall (the
    band's edge reaches into the pixel under it), at its final size."""
    pen = Pen(WIDTH, height)
    pen.rect(0, 0, WIDTH, HEADER_H, fill=HEADER)
    pen.text(PAD, 22, fit_text(title, TEXT + 4, WIDTH - 2 * PAD), TEXT + 4, HEADER_TEXT,
             anchor="lm")
    pen.text(PAD, 47, fit_text(note, TEXT, WIDTH - 2 * PAD, condensed=True), TEXT,
             _shade(colour, 1.4), anchor="lm", condensed=True)
    return shrink(pen.image)


def clear_caches() -> None:
    """Forget every drawn layer and sprite (tests that watch all the text being drawn)."""
    for cached in (_track_layer, _track_base, _legend, _empty_quilt, _quilts,
                   _patch_sprite, _item, _panel_image, _circle_heading, _header):
        cached.cache_clear()


# --- the placement preview -----------------------------------------------------------------------

PREVIEW_CELL = 52
LEATHER_INFO = PatchInfo(LEATHER_ID, 0, 0, 0, ((0, 0),), (), leather=True)


def render_preview(view: PatchworkView, seat: int, patch_choice: int, orientation: str, square: str,
                   legal: bool, reason: Words | str | None, voice: Voice = ENGLISH_VOICE,
                   names: Sequence[str] | None = None) -> bytes:
    """`seat`'s quilt with patch `patch_choice` (1-3 on offer) ghosted at `square`, turned to
    `orientation`: green when `legal`, red with `reason` when not, labelled in `voice`.
    `patch_choice` 0 previews the 1x1 leather patch being placed (orientation `0`)."""
    player = view.players[seat]
    if patch_choice == 0:
        patch = LEATHER_INFO
    else:
        patch = view.offer[patch_choice - 1] if 1 <= patch_choice <= len(view.offer) else None
    try:
        name = parse_orientation(orientation)
        top, left = divmod(square_index(square), 9)
    except (KeyError, GameError):  # unreadable orientation or square: show the quilt alone
        name, top, left = None, 0, 0
    ghost: list[tuple[int, int]] = []
    buttons: list[tuple[int, int]] = []
    if patch is not None and name is not None:
        ghost = [(top + r, left + c) for r, c in oriented_cells(patch.id, name)]
        buttons = [(top + r, left + c) for r, c in oriented_buttons(patch.id, name)]
    over_right = max([c - 8 for _, c in ghost] + [0])
    over_down = max([r - 8 for r, _ in ghost] + [0])
    gx, gy = 40, 140
    cell = min(PREVIEW_CELL, (WIDTH - gx - 20) // (9 + max(over_right, over_down)))
    width = WIDTH
    said = voice(reason) if reason else ""
    said = f"{said[:1].upper()}{said[1:]}"  # a sentence, alone
    text_lines = wrap_text(said, TEXT + 2, width - 2 * PAD) if not legal and said else []
    height = gy + (9 + over_down) * cell + 36 + 32 * max(1, len(text_lines)) + 16
    pen = Pen(int(width), int(height))
    colour = PLAYER_COLOURS[seat]
    pen.rect(0, 0, width, 66, fill=HEADER)
    pen.circle(PAD + 14, 33, 14, fill=colour, outline=(255, 255, 255), width=2)
    pen.text(PAD + 14, 34, str(seat + 1), TEXT, (255, 255, 255), anchor="mm", condensed=True)
    if view.seat == seat:
        owner = voice(_("Your quilt"))
    elif names:
        owner = voice(_("{player}'s quilt", player=names[seat]))
    else:
        owner = voice(_("Player {number}'s quilt", number=seat + 1))
    purse = voice(n_("{n} button", "{n} buttons", player.buttons))
    room = width - 2 * PAD - 38 - text_width(purse, TEXT) - 16
    pen.text(PAD + 38, 33, fit_text(owner, TEXT + 4, room), TEXT + 4, HEADER_TEXT, anchor="lm")
    if patch is not None:
        if patch.leather:
            move = f"place {square}"
        else:
            move = f"buy {patch_choice} {short_orientation(name) if name else orientation} {square}"
        pen.text(PAD, 80, move, TEXT + 2, INK)
        mw = pen.width_of(move, TEXT + 2)
        if not patch.leather:
            _price_line(pen, patch, PAD + mw + 20, 81, TEXT + 2)
    else:
        missing = voice(_("there is no patch {number} on offer", number=patch_choice))
        pen.text(PAD, 80, fit_text(missing, TEXT + 2, width - 2 * PAD), TEXT + 2, (180, 40, 40))
    pen.text(width - PAD, 33, purse, TEXT, HEADER_TEXT, anchor="rm")
    _quilt(pen, player.quilt.patches, gx, gy, cell, label_size=TEXT, background=PAPER)
    filled = {(r, c) for r, row in enumerate(player.quilt.cells) for c, v in enumerate(row) if v is not None}
    good, bad = (70, 190, 90), (220, 50, 50)
    tint = good if legal else bad
    layer = Image.new("RGBA", pen.image.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)  # the ghost, translucent over the quilt
    for r, c in ghost:
        box = [(gx + c * cell) * SCALE, (gy + r * cell) * SCALE, (gx + (c + 1) * cell) * SCALE,
               (gy + (r + 1) * cell) * SCALE]
        clash = (r, c) in filled or r > 8 or c > 8
        alpha = 215 if clash and not legal else 150
        ld.rectangle(box, fill=tint + (alpha,))
    pen.image.paste(layer, (0, 0), layer)
    if ghost:
        _patch_outline(pen, ghost, gx, gy, cell, _shade(tint, 0.55), 4)
        for r, c in buttons:
            _button(pen, gx + (c + 0.5) * cell, gy + (r + 0.5) * cell, cell * 0.26)
        for r, c in ghost:
            if (r, c) in filled or r > 8 or c > 8:
                x0, y0 = gx + c * cell + 12, gy + r * cell + 12
                x1, y1 = x0 + cell - 24, y0 + cell - 24
                pen.line([x0, y0, x1, y1], (255, 255, 255), 5)
                pen.line([x0, y1, x1, y0], (255, 255, 255), 5)
    ty = gy + (9 + over_down) * cell + 20
    if legal:
        pen.text(PAD, ty, voice(_("It fits here.")), TEXT + 2, _shade(good, 0.7))
    else:
        lines = text_lines or [voice(_("It can't go here."))]
        for k, line in enumerate(lines):
            pen.text(PAD, ty + 32 * k, line, TEXT + 2, _shade(bad, 0.8))
    return pen.png()
