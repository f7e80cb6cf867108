"""A person's rating over their rated matches, as a small line chart (for `/gamenight stats`)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import Voice, _, n_
from render.fonts import draw_text
from render.png import SCALE, finish

WIDTH, HEIGHT = 600, 300  # final pixels: text of 22 px shows at 11 px on a phone
BACKGROUND, GRID, LINE, TEXT = (32, 34, 40), (70, 74, 84), (88, 166, 255), (225, 228, 235)
SIZE = 22
LEFT, RIGHT, TOP, BOTTOM = 92, 20, 46, 44


def rating_chart(points: Sequence[int], voice: Voice) -> bytes:
    """`points`: the rating before the first match shown, then after each one."""
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    s = SCALE
    low, high = min(points), max(points)
    if high - low < 40:  # a flat line sits in the middle of a small range
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    plot = (LEFT * s, TOP * s, (WIDTH - RIGHT) * s, (HEIGHT - BOTTOM) * s)

    def y_of(value: float) -> float:
        return plot[3] - (value - low) / (high - low) * (plot[3] - plot[1])

    def x_of(index: int) -> float:
        return plot[0] + index / max(1, len(points) - 1) * (plot[2] - plot[0])

    for value in (low, (low + high) / 2, high):
        y = y_of(value)
        draw.line((plot[0], y, plot[2], y), fill=GRID, width=s)
        draw_text(draw, (plot[0] - 10 * s, y), voice.number(round(value)), SIZE * s, fill=TEXT,
                  anchor="rm", bold=False)
    line = [(x_of(i), y_of(v)) for i, v in enumerate(points)]
    if len(line) > 1:
        draw.line(line, fill=LINE, width=3 * s, joint="curve")
    for x, y in line[-1:]:
        draw.ellipse((x - 6 * s, y - 6 * s, x + 6 * s, y + 6 * s), fill=LINE)
    draw_text(draw, (LEFT * s, 14 * s), voice(n_("Rating, last rated game",
                                                "Rating, last {n} rated games",
                                                len(points) - 1)), SIZE * s, fill=TEXT,
              anchor="lm")
    draw_text(draw, (plot[0], (HEIGHT - 20) * s), voice(_("before")), SIZE * s, fill=TEXT,
              anchor="lm", bold=False)
    draw_text(draw, (plot[2], (HEIGHT - 20) * s), voice(_("now: {rating}", rating=points[-1])),
              SIZE * s, fill=TEXT, anchor="rm")
    return finish(image)
