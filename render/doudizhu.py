"""Draw Dou Dizhu cards as PNGs: a player's hand and a played combination, overlapped in rows
at most 600 px wide (render/phone.py), each card's corner index at least 20 px so it stays
readable when a phone shows the picture 300 px wide. Cards are the engine's strings: `7H`, `TS`,
`BJ`, `RJ`; they are sorted by rank, low to high, left to right.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from games.doudizhu import sort_cards
from render.fonts import font
from render.phone import WIDTH as MAX_WIDTH
from render.png import SCALE, finish

MIN_FONT = 20  # px: 10 px on the phone
PLAY_MIN_WIDTH = 300  # a lone card still sits on a strip of table

FELT = (28, 92, 60)
FELT_EDGE = (20, 70, 45)
CARD = (252, 251, 247)
CARD_EDGE = (150, 150, 150)
SHADOW = (14, 50, 32)
RED = (206, 32, 48)
BLACK = (28, 28, 34)
SUIT_COLOUR = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
JOKER_FACE = {"B": (226, 230, 238), "R": (255, 236, 214)}
JOKER_INK = {"B": BLACK, "R": RED}
STAR = "\u2605"


class _Size:
    """Card metrics for one drawing, in final pixels."""

    def __init__(self, width: int, step: int) -> None:
        self.width = width
        self.height = round(width * 1.42)
        self.step = step                      # horizontal distance between overlapped cards
        self.radius = max(4, width // 10)
        self.rank_font = font(round(width * 0.36) * SCALE)
        self.ten_font = font(round(width * 0.34) * SCALE, condensed=True)
        self.suit_font = font(round(width * 0.30) * SCALE)
        self.pip_font = font(round(width * 0.62) * SCALE)
        self.joker_size = max(MIN_FONT, round(width * 0.2))  # five letters down the corner
        self.joker_font = font(self.joker_size * SCALE, condensed=True)


def _rows(count: int, width: int, max_step: int, min_step: int) -> tuple[int, int]:
    """How many rows and what step fit `count` cards of `width` into the page."""
    room = MAX_WIDTH - 2 * _margin(width)
    rows = 1
    while True:
        per_row = -(-count // rows)
        step = max_step if per_row == 1 else min(max_step, (room - width) // (per_row - 1))
        if step >= min_step or rows >= 4:
            return rows, step
        rows += 1


def _margin(width: int) -> int:
    return max(10, width // 6)


def render_hand(cards: Iterable[str]) -> bytes:
    """A hand as PNG bytes: cards overlapped left to right by rank, a second row if needed."""
    ordered = sort_cards(list(cards))
    width = 88
    rows, step = _rows(len(ordered), width, max_step=60, min_step=44)
    return _render(ordered, _Size(width, step), rows)


def render_play(cards: Iterable[str]) -> bytes:
    """A played combination as a PNG strip of larger cards, at least 300 px wide."""
    ordered = sort_cards(list(cards))
    width = 100
    rows, step = _rows(len(ordered), width, max_step=66, min_step=50)
    return _render(ordered, _Size(width, step), rows, min_width=PLAY_MIN_WIDTH)


def _render(cards: tuple[str, ...], size: _Size, rows: int, min_width: int = 0) -> bytes:
    margin = _margin(size.width)
    per_row = max(1, -(-len(cards) // rows))
    lines = [cards[i:i + per_row] for i in range(0, len(cards), per_row)] or [()]
    widest = max(len(line) for line in lines)
    row_gap = round(size.height * 0.56)       # later rows cover the lower part of earlier ones
    cards_width = size.width + size.step * (widest - 1) if widest else size.width
    width = max(2 * margin + cards_width, min_width)
    margin_x = (width - cards_width) // 2
    height = 2 * margin + size.height + row_gap * (len(lines) - 1)
    image = Image.new("RGB", (width * SCALE, height * SCALE), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width * SCALE - 1, height * SCALE - 1), radius=14 * SCALE,
                           outline=FELT_EDGE, width=3 * SCALE)
    if not cards:
        _empty(draw, margin_x, margin, size)
    for row, line in enumerate(lines):
        left = margin_x + (size.step * (widest - len(line))) // 2
        top = margin + row * row_gap
        for index, card in enumerate(line):
            last = row == len(lines) - 1 and index == len(line) - 1
            _card(draw, card, left + index * size.step, top, size, last=last)
    return finish(image)


def _empty(draw: ImageDraw.ImageDraw, left: int, top: int, size: _Size) -> None:
    box = [v * SCALE for v in (left, top, left + size.width, top + size.height)]
    draw.rounded_rectangle(box, radius=size.radius * SCALE, outline=FELT_EDGE, width=2 * SCALE)


def _card(draw: ImageDraw.ImageDraw, card: str, left: int, top: int, size: _Size, *, last: bool) -> None:
    s = SCALE
    box = (left * s, top * s, (left + size.width) * s, (top + size.height) * s)
    shadow = (box[0] - 2 * s, box[1] + 2 * s, box[2] - 2 * s, box[3] + 2 * s)
    draw.rounded_rectangle(shadow, radius=size.radius * s, fill=SHADOW)
    rank = card[0]
    joker = rank in "BR"
    face = JOKER_FACE[rank] if joker else CARD
    draw.rounded_rectangle(box, radius=size.radius * s, fill=face, outline=CARD_EDGE, width=s + 1)
    corner_x = box[0] + min(round(size.step * 0.48), round(size.width * 0.26)) * s
    if joker:
        ink = JOKER_INK[rank]
        y = box[1] + round(size.width * 0.06) * s
        for letter in "JOKER":
            draw.text((corner_x, y), letter, font=size.joker_font, fill=ink, anchor="mt")
            y += round(size.joker_size * 0.92) * s
        if last:
            centre = ((box[0] + box[2]) // 2 + round(size.width * 0.1) * s, (box[1] + box[3]) // 2)
            draw.text(centre, STAR, font=size.pip_font, fill=ink, anchor="mm")
        return
    suit = card[1]
    ink = SUIT_COLOUR[suit]
    label = "10" if rank == "T" else rank
    rank_font = size.ten_font if rank == "T" else size.rank_font
    y = box[1] + round(size.width * 0.07) * s
    draw.text((corner_x, y), label, font=rank_font, fill=ink, anchor="mt")
    y += round(size.width * 0.40) * s
    draw.text((corner_x, y), SUIT_SYMBOL[suit], font=size.suit_font, fill=ink, anchor="mt")
    if last:
        centre = ((box[0] + box[2]) // 2 + round(size.width * 0.1) * s, (box[1] + box[3]) // 2 + 6 * s)
        draw.text(centre, SUIT_SYMBOL[suit], font=size.pip_font, fill=ink, anchor="mm")
