"""Draw a Patchwork view as PNG bytes.

`render_game(view)` draws the whole table in one image (about 1160 x 1340): both quilts with
their buttons and a-i / 1-9 labels (row 1 at the top), the time track with both tokens, the
income spaces and the leather patches still on it, the three patches on offer (large, numbered
1-3) and the rest of the circle in order from the spool, each with its cost, time and income,
and the 7x7 bonus tile.

`render_preview(view, seat, patch_choice, orientation, square, legal, reason)` draws one quilt
with a patch ghosted where the player wants to put it: green when legal, red (with the reason)
when not; squares it would cover twice or that fall off the quilt are marked.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games.common import GameError
from games.patchwork import (
    COLUMNS,
    LEATHER_ID,
    TURN_ON_TOP,
    PatchInfo,
    PatchworkView,
    QuiltView,
    oriented_buttons,
    oriented_cells,
    parse_orientation,
    short_orientation,
    square_index,
)
from render.png import SCALE, finish

WIDTH = 1160
PAD = 20

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


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_width(text: str, size: int) -> float:
    """How wide `text` is at font `size`, in logical pixels."""
    return _font(size * SCALE).getlength(text) / SCALE


def fit_text(text: str, size: int, width: float) -> str:
    """`text`, cut short with an ellipsis if needed to be at most `width` pixels wide."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
    """Drawing in logical pixels on an RGBA image SCALE times larger."""

    def __init__(self, width: int, height: int, background: tuple[int, int, int] = PAPER) -> None:
        self.size = (width, height)
        self.image = Image.new("RGBA", (width * SCALE, height * SCALE), background + (255,))
        self.draw = ImageDraw.Draw(self.image)
        self.names: Sequence[str] | None = None  # the players' names, when the caller knows them

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

    def text(self, x, y, text, size, fill=INK, anchor="la") -> None:
        self.draw.text(self._s(x, y), text, font=_font(size * SCALE), fill=fill, anchor=anchor)

    def width_of(self, text: str, size: int) -> float:
        return text_width(text, size)

    def overlay(self, box, colour) -> None:
        """Blend a translucent rectangle over the image."""
        x0, y0, x1, y1 = (int(v) for v in self._s(*box))
        layer = Image.new("RGBA", (x1 - x0, y1 - y0), colour)
        self.image.alpha_composite(layer, dest=(x0, y0))

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


def _patch_cells(pen: Pen, cells, buttons, x0: float, y0: float, cell: float, colour,
                 outline=None, stitch: bool = True) -> None:
    """Draw a patch from its (row, col) cells with its buttons, origin (x0, y0)."""
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
                pen.line([a, b, e, f], outline or edge, 2 if not outline else 3)
                seams.append((ia, ib, ie, iff))
    if stitch and cell >= 12:
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
                 size: int = 0, width: float = 0) -> str:
    """The seat's name, "(you)" added for the viewer; cut to `width` pixels at `size` if given."""
    name = names[seat] if names else f"Player {seat + 1}"
    you = " (you)" if view.seat == seat else ""
    if width:
        name = fit_text(name, size, width - text_width(you, size))
    return name + you


# --- quilts --------------------------------------------------------------------------------------


def _quilt(pen: Pen, quilt: QuiltView, x: float, y: float, cell: float, highlight: int | None = None,
           label_size: int = 14) -> None:
    """A 9x9 quilt with its a-i / 1-9 labels; (x, y) is the top-left of the a1 square."""
    for i, letter in enumerate(COLUMNS):
        pen.text(x + (i + 0.5) * cell, y - 6, letter, label_size, INK_SOFT, anchor="md")
    for row in range(9):
        pen.text(x - 7, y + (row + 0.5) * cell, str(row + 1), label_size, INK_SOFT, anchor="rm")
    pen.rect(x - 3, y - 3, x + 9 * cell + 3, y + 9 * cell + 3, fill=_shade(GRID_LINE, 0.8), radius=4)
    for row in range(9):
        for col in range(9):
            pen.rect(x + col * cell, y + row * cell, x + (col + 1) * cell, y + (row + 1) * cell,
                     fill=GRID_EMPTY, outline=GRID_LINE, width=1)
    for placed in quilt.patches:
        outline = HIGHLIGHT if placed.index == highlight else None
        _patch_cells(pen, placed.cells, placed.button_cells, x, y, cell, fabric(placed.patch))
        if outline:
            _patch_outline(pen, placed.cells, x, y, cell, outline)


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


def _stat(pen: Pen, x: float, y: float, label: str, value: str, colour=INK, note: str | None = None) -> None:
    pen.text(x, y, label, 13, INK_SOFT)
    pen.text(x, y + 16, value, 28, colour)
    if note:
        pen.text(x, y + 50, note, 13, INK_SOFT)


QUILT_CELL = 38
PANEL_H = 440


def _player_panel(pen: Pen, view: PatchworkView, seat: int, x: float, y: float, w: float) -> None:
    player = view.players[seat]
    colour = PLAYER_COLOURS[seat]
    to_move = view.turn == seat
    pen.rect(x, y, x + w, y + PANEL_H, fill=PANEL, outline=colour if to_move else GRID_LINE,
             width=4 if to_move else 2, radius=14)
    pen.circle(x + 30, y + 28, 13, fill=colour, outline=_shade(colour, 0.6), width=2)
    pen.text(x + 30, y + 28, str(seat + 1), 16, (255, 255, 255), anchor="mm")
    name_end = x + w - 14
    if to_move:
        tag = "TO MOVE" if view.turn_reason != "leather placement" else "PLACE LEATHER"
        tw = pen.width_of(tag, 14) + 18
        pen.rect(x + w - tw - 14, y + 15, x + w - 14, y + 41, fill=colour, radius=13)
        pen.text(x + w - 14 - tw / 2, y + 28, tag, 14, (255, 255, 255), anchor="mm")
        name_end -= tw + 12
    name = _player_name(view, seat, pen.names, size=24, width=name_end - (x + 52))
    pen.text(x + 52, y + 28, name, 24, INK, anchor="lm")
    gx, gy = x + 38, y + 78
    highlight = view.last_placed[1] if view.last_placed and view.last_placed[0] == seat else None
    _quilt(pen, player.quilt, gx, gy, QUILT_CELL, highlight)
    sx = gx + 9 * QUILT_CELL + 22
    sy = y + 62
    pen.text(sx, sy, "BUTTONS", 13, INK_SOFT)
    _button(pen, sx + 12, sy + 34, 11)
    pen.text(sx + 30, sy + 16, str(player.buttons), 28, INK)
    _stat(pen, sx, sy + 66, "INCOME", f"+{player.income}", BUTTON_BLUE,
          f"next at {player.next_income_space}" if player.next_income_space else "all paid")
    _stat(pen, sx, sy + 138, "TIME TRACK", f"{player.position}/{view.track_end}", colour,
          "finished" if player.finished else f"{view.track_end - player.position} to go")
    score_note = f"{player.quilt.empty} empty (-{2 * player.quilt.empty})"
    _stat(pen, sx, sy + 210, "SCORE NOW", str(player.score), INK, score_note)
    if player.has_bonus:
        _bonus_tile(pen, sx, sy + 290, 56)
        pen.text(sx + 66, sy + 306, "7x7 bonus", 13, INK)
        pen.text(sx + 66, sy + 324, "+7 points", 13, INK_SOFT)


def _bonus_tile(pen: Pen, x: float, y: float, size: float) -> None:
    pen.rect(x, y, x + size, y + size, fill=GOLD, outline=_shade(GOLD, 0.6), width=2, radius=size / 8)
    step = size / 8
    for k in range(1, 8):
        pen.line([x + k * step, y + 3, x + k * step, y + size - 3], _shade(GOLD, 0.85), 1)
        pen.line([x + 3, y + k * step, x + size - 3, y + k * step], _shade(GOLD, 0.85), 1)
    pen.text(x + size / 2, y + size / 2, "7", int(size * 0.55), INK, anchor="mm")


# --- the time track ------------------------------------------------------------------------------

TRACK_H = 158


def _track(pen: Pen, view: PatchworkView, x: float, y: float, w: float) -> None:
    pen.rect(x, y, x + w, y + TRACK_H, fill=PANEL, outline=GRID_LINE, width=2, radius=14)
    pen.text(x + 16, y + 12, "TIME TRACK", 16, INK)
    # legend
    lx = x + 160
    _button(pen, lx + 8, y + 21, 8)
    pen.text(lx + 22, y + 13, "income space", 14, INK_SOFT)
    lx += 140
    _leather(pen, lx, y + 13, 16)
    left = len(view.leather_spaces)
    pen.text(lx + 24, y + 13, f"leather patch ({left} left)", 14, INK_SOFT)
    lx += 210
    room = (x + w - 16 - lx) / 2 - 44  # for each player's "name: position"
    for seat in (0, 1):
        colour = PLAYER_COLOURS[seat]
        pen.circle(lx + 8, y + 21, 8, fill=colour)
        position = f": {view.players[seat].position}"
        name = _player_name(view, seat, pen.names, size=14, width=room - pen.width_of(position, 14))
        label = name + position
        pen.text(lx + 22, y + 13, label, 14, INK_SOFT)
        lx += pen.width_of(label, 14) + 44
    per_row = 27
    cw = (w - 32) / per_row
    ch = 48
    positions = {}
    for space in range(view.track_end + 1):
        row, col = divmod(space, per_row)
        cx = x + 16 + col * cw
        cy = y + 40 + row * (ch + 10)
        positions[space] = (cx, cy)
        final = space == view.track_end
        fill = GOLD if final else ((243, 234, 218) if row == 0 else (238, 228, 210))
        pen.rect(cx + 1, cy, cx + cw - 1, cy + ch, fill=fill, outline=GRID_LINE, width=1, radius=5)
        pen.text(cx + 4, cy + 3, str(space), 10, INK_SOFT)
        if space in view.income_spaces:
            _button(pen, cx + cw / 2, cy + ch / 2 + 5, 9)
        if space in view.leather_spaces:
            _leather(pen, cx + cw / 2 - 9, cy + ch / 2 - 4, 18)
    a, b = view.players[0].position, view.players[1].position
    order = (0, 1)
    if a == b:
        top = 0 if view.players[0].on_top else 1
        order = (1 - top, top)  # the one on top is drawn last
    for seat in order:
        pos = view.players[seat].position
        cx, cy = positions[pos]
        shift = 0 if a != b else (-6 if seat == order[0] else 6)
        tx, ty = cx + cw / 2 + shift, cy + ch / 2 + 3 + (0 if a != b else (4 if seat == order[0] else -4))
        colour = PLAYER_COLOURS[seat]
        pen.circle(tx, ty + 2, 13, fill=_shade(colour, 0.45))
        pen.circle(tx, ty, 13, fill=colour, outline=(255, 255, 255), width=2)
        pen.text(tx, ty, str(seat + 1), 15, (255, 255, 255), anchor="mm")


# --- the circle ----------------------------------------------------------------------------------

OFFER_H = 262
CARD_W = 250


def _price_line(pen: Pen, patch: PatchInfo, x: float, y: float, size: int) -> float:
    """Cost (button), time (hourglass) and income (+n) in one line; returns its width."""
    start = x
    r = size * 0.45
    _button(pen, x + r, y + size * 0.55, r)
    x += 2 * r + 4
    pen.text(x, y, str(patch.cost), size, INK)
    x += pen.width_of(str(patch.cost), size) + size * 0.6
    _hourglass(pen, x, y + size * 0.1, size * 0.95)
    x += size * 0.7 + 5
    pen.text(x, y, str(patch.time), size, INK)
    x += pen.width_of(str(patch.time), size) + size * 0.6
    income = f"+{patch.income}"
    pen.text(x, y, income, size, BUTTON_BLUE if patch.income else INK_SOFT)
    x += pen.width_of(income, size)
    return x - start


def _offer(pen: Pen, view: PatchworkView, x: float, y: float) -> None:
    pen.text(x, y, "ON OFFER", 18, INK)
    pen.text(x + pen.width_of("ON OFFER", 18) + 14, y + 3,
             "buy 1, 2 or 3: the next patches clockwise of the spool", 14, INK_SOFT)
    buyer = view.players[view.turn] if view.turn is not None and view.turn_reason != "leather placement" else None
    for k in range(3):
        cx = x + k * (CARD_W + 14)
        cy = y + 30
        if k >= len(view.offer):
            pen.rect(cx, cy, cx + CARD_W, cy + OFFER_H - 30, outline=GRID_LINE, width=2, radius=14)
            pen.text(cx + CARD_W / 2, cy + (OFFER_H - 30) / 2, "no patch", 18, INK_SOFT, anchor="mm")
            continue
        patch = view.offer[k]
        pen.rect(cx, cy, cx + CARD_W, cy + OFFER_H - 30, fill=PANEL, outline=_shade(fabric(patch), 0.8),
                 width=3, radius=14)
        pen.circle(cx + 24, cy + 24, 17, fill=INK)
        pen.text(cx + 24, cy + 24, str(k + 1), 22, HEADER_TEXT, anchor="mm")
        _draw_patch_fit(pen, patch, cx + 20, cy + 44, CARD_W - 40, 120, 34)
        line_w = _measure_price(pen, patch, 24)
        _price_line(pen, patch, cx + (CARD_W - line_w) / 2, cy + 182, 24)
        if buyer is not None and patch.cost > buyer.buttons:
            pen.overlay((cx + 3, cy + 3, cx + CARD_W - 3, cy + OFFER_H - 33), FADE)
            pen.text(cx + CARD_W / 2, cy + 30, "can't afford", 14, (180, 40, 40), anchor="mm")


def _measure_price(pen: Pen, patch: PatchInfo, size: int) -> float:
    r = size * 0.45
    return (2 * r + 4 + pen.width_of(str(patch.cost), size) + size * 0.6 + size * 0.7 + 5
            + pen.width_of(str(patch.time), size) + size * 0.6 + pen.width_of(f"+{patch.income}", size))


def _side_box(pen: Pen, view: PatchworkView, x: float, y: float, w: float) -> None:
    h = OFFER_H - 30
    pen.rect(x, y + 30, x + w, y + 30 + h, fill=PANEL, outline=GRID_LINE, width=2, radius=14)
    bx, by = x + 18, y + 48
    _bonus_tile(pen, bx, by, 64)
    pen.text(bx + 80, by + 4, "7x7 BONUS TILE", 15, INK)
    if view.bonus_seat is None:
        pen.text(bx + 80, by + 26, "first to fill a 7x7", 13, INK_SOFT)
        pen.text(bx + 80, by + 44, "square: +7 points", 13, INK_SOFT)
    else:
        pen.text(bx + 80, by + 26, "claimed by", 13, INK_SOFT)
        name = _player_name(view, view.bonus_seat, pen.names, size=16, width=x + w - 12 - (bx + 80))
        pen.text(bx + 80, by + 43, name, 16, PLAYER_COLOURS[view.bonus_seat])
    ly = by + 90
    _leather(pen, bx + 20, ly, 26)
    pen.text(bx + 80, ly - 2, "LEATHER PATCHES", 15, INK)
    spaces = ", ".join(map(str, view.leather_spaces)) if view.leather_spaces else "all taken"
    pen.text(bx + 80, ly + 18, f"left on {spaces}" if view.leather_spaces else spaces, 13, INK_SOFT)
    cy = ly + 52
    pen.text(bx, cy, f"{len(view.circle)} patches left in the circle", 14, INK)
    pen.text(bx, cy + 20, "cost", 13, INK_SOFT)
    _button(pen, bx + 40, cy + 28, 7)
    pen.text(bx + 56, cy + 20, "time", 13, INK_SOFT)
    _hourglass(pen, bx + 92, cy + 21, 13)
    pen.text(bx + 112, cy + 20, "income +n", 13, INK_SOFT)


TILE_W, TILE_H = 98, 104


def _circle(pen: Pen, view: PatchworkView, x: float, y: float, w: float) -> float:
    rest = view.circle[3:]
    pen.text(x, y, "THE CIRCLE", 18, INK)
    pen.text(x + pen.width_of("THE CIRCLE", 18) + 14, y + 3, "after the offer, clockwise from the spool (numbers count from the spool)",
             14, INK_SOFT)
    per_row = int((w + 4) // (TILE_W + 4))
    for k, patch in enumerate(rest):
        row, col = divmod(k, per_row)
        tx = x + col * (TILE_W + 4)
        ty = y + 28 + row * (TILE_H + 6)
        pen.rect(tx, ty, tx + TILE_W, ty + TILE_H, fill=PANEL, outline=GRID_LINE, width=1, radius=8)
        pen.text(tx + 6, ty + 4, str(k + 4), 11, INK_SOFT)
        _draw_patch_fit(pen, patch, tx + 8, ty + 16, TILE_W - 16, 56, 13)
        _mini_price(pen, patch, tx + TILE_W / 2, ty + 80)
    rows = (len(rest) + per_row - 1) // per_row
    if not rest:
        pen.text(x, y + 32, "no patches after the offer", 14, INK_SOFT)
        rows = 0
    return 28 + max(rows, 1) * (TILE_H + 6)


def _mini_price(pen: Pen, patch: PatchInfo, cx: float, y: float) -> None:
    size = 15
    parts = [str(patch.cost), str(patch.time), f"+{patch.income}"]
    width = 13 + 2 + pen.width_of(parts[0], size) + 6 + 10 + 2 + pen.width_of(parts[1], size) + 6 \
        + pen.width_of(parts[2], size)
    x = cx - width / 2
    _button(pen, x + 6, y + 8, 6)
    x += 15
    pen.text(x, y, parts[0], size, INK)
    x += pen.width_of(parts[0], size) + 6
    _hourglass(pen, x, y + 2, 13)
    x += 12
    pen.text(x, y, parts[1], size, INK)
    x += pen.width_of(parts[1], size) + 6
    pen.text(x, y, parts[2], size, BUTTON_BLUE if patch.income else INK_SOFT)


# --- header --------------------------------------------------------------------------------------


def _status(view: PatchworkView, names: Sequence[str] | None) -> tuple[str, str]:
    if view.over and view.outcome is not None:
        out = view.outcome
        winner = out.winners[0]
        loser = 1 - winner
        title = f"{_player_name(view, winner, names)} wins, {out.scores[winner]} to {out.scores[loser]}"
        if "resigned" in out.reason:
            title = f"{_player_name(view, winner, names)} wins"
        labels = {f"seat{k}": _player_name(view, k, names) for k in (0, 1)}
        return title, out.reason.format(**labels)
    if view.turn is None:
        return "Game over", ""
    name = _player_name(view, view.turn, names)
    if view.turn_reason == "leather placement":
        n = view.pending_leather
        what = "a leather patch" if n == 1 else f"{n} leather patches"
        return f"{name}: place {what}", "reached a leather space first: use /patchwork place"
    if view.turn_reason == "behind":
        return f"{name} to move", "behind on the time track"
    if drawn_to_start(view):
        return f"{name} to move", "drawn to start"
    return f"{name} to move", "same space, arrived last (on top)"


def render_game(view: PatchworkView, names: Sequence[str] | None = None) -> bytes:
    """The whole table as PNG bytes (about 1160 px wide); `names` label the two players."""
    rest = len(view.circle) - 3
    per_row = int((WIDTH - 2 * PAD + 4) // (TILE_W + 4))
    circle_rows = max(1, (max(rest, 0) + per_row - 1) // per_row)
    y_quilts = 84
    y_track = y_quilts + PANEL_H + 18
    y_offer = y_track + TRACK_H + 18
    y_circle = y_offer + OFFER_H + 18
    height = y_circle + 28 + circle_rows * (TILE_H + 6) + PAD
    pen = Pen(WIDTH, height)
    pen.names = names
    # header
    pen.rect(0, 0, WIDTH, 66, fill=HEADER)
    pen.text(PAD, 33, "PATCHWORK", 28, HEADER_TEXT, anchor="lm")
    header_names = [fit_text(name, 24, 480) for name in names] if names else None
    title, note = _status(view, header_names)
    colour = PLAYER_COLOURS[view.turn] if view.turn is not None else GOLD
    tx = WIDTH - PAD
    pen.text(tx, 22, title, 24, HEADER_TEXT, anchor="rm")
    pen.text(tx, 48, note, 14, _shade(colour, 1.4), anchor="rm")
    # quilts
    panel_w = (WIDTH - 3 * PAD) / 2
    for seat in (0, 1):
        _player_panel(pen, view, seat, PAD + seat * (panel_w + PAD), y_quilts, panel_w)
    _track(pen, view, PAD, y_track, WIDTH - 2 * PAD)
    _offer(pen, view, PAD, y_offer)
    side_x = PAD + 3 * (CARD_W + 14)
    _side_box(pen, view, side_x, y_offer, WIDTH - PAD - side_x)
    _circle(pen, view, PAD, y_circle, WIDTH - 2 * PAD)
    return pen.png()


# --- the placement preview -----------------------------------------------------------------------

PREVIEW_CELL = 52
LEATHER_INFO = PatchInfo(LEATHER_ID, 0, 0, 0, ((0, 0),), (), leather=True)


def render_preview(view: PatchworkView, seat: int, patch_choice: int, orientation: str, square: str,
                   legal: bool, reason: str | None) -> bytes:
    """`seat`'s quilt with patch `patch_choice` (1-3 on offer) ghosted at `square`, turned to
    `orientation`: green when `legal`, red with `reason` when not. `patch_choice` 0 previews
    the 1x1 leather patch being placed (orientation `0`)."""
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
    cell = PREVIEW_CELL
    gx, gy = 56, 148
    width = max(gx + (9 + over_right) * cell + 36, 640)
    text_lines = textwrap.wrap(reason or "", 48) if not legal and reason else []
    height = gy + (9 + over_down) * cell + 40 + 34 * max(1, len(text_lines)) + 24
    pen = Pen(int(width), int(height))
    colour = PLAYER_COLOURS[seat]
    pen.rect(0, 0, width, 66, fill=HEADER)
    pen.circle(PAD + 14, 33, 14, fill=colour, outline=(255, 255, 255), width=2)
    pen.text(PAD + 14, 33, str(seat + 1), 16, (255, 255, 255), anchor="mm")
    owner = "Your quilt" if view.seat == seat else f"Player {seat + 1}'s quilt"
    pen.text(PAD + 38, 33, owner, 24, HEADER_TEXT, anchor="lm")
    if patch is not None:
        if patch.leather:
            move = f"place {square}"
        else:
            move = f"buy {patch_choice} {short_orientation(name) if name else orientation} {square}"
        pen.text(PAD, 82, move, 20, INK)
        mw = pen.width_of(move, 20)
        if not patch.leather:
            _price_line(pen, patch, PAD + mw + 24, 82, 20)
    else:
        pen.text(PAD, 82, f"there is no patch {patch_choice} on offer", 20, (180, 40, 40))
    pen.text(width - PAD, 33, f"{player.buttons} buttons", 18, HEADER_TEXT, anchor="rm")
    _quilt(pen, player.quilt, gx, gy, cell, label_size=18)
    filled = {(r, c) for r, row in enumerate(player.quilt.cells) for c, v in enumerate(row) if v is not None}
    good, bad = (70, 190, 90), (220, 50, 50)
    tint = good if legal else bad
    layer = Image.new("RGBA", pen.image.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    for r, c in ghost:
        box = [(gx + c * cell) * SCALE, (gy + r * cell) * SCALE, (gx + (c + 1) * cell) * SCALE,
               (gy + (r + 1) * cell) * SCALE]
        clash = (r, c) in filled or r > 8 or c > 8
        alpha = 215 if clash and not legal else 150
        ld.rectangle(box, fill=tint + (alpha,))
    pen.image = Image.alpha_composite(pen.image, layer)
    pen.draw = ImageDraw.Draw(pen.image)
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
    ty = gy + (9 + over_down) * cell + 24
    if legal:
        pen.text(PAD, ty, "It fits here.", 22, _shade(good, 0.7))
    else:
        lines = text_lines or ["It can't go here."]
        for k, line in enumerate(lines):
            pen.text(PAD, ty + 34 * k, line, 22, _shade(bad, 0.8))
    return pen.png()
