"""The phone rule every picture is held to: readable on a 390-px-wide phone without zoom.

Discord shows an embed image scaled down (never up) to fit the room the embed leaves it. On a
390-px-wide phone that room is about 300 px wide: the screen less the avatar gutter (about
72 px), the right margin (16) and the embed's border and padding (about 2 x 12). Discord also
caps how tall an image is shown; we keep every picture at most 1.5 times as tall as it is wide,
so the width alone decides the scale. Once shown, the smallest text (a font's pixel size, about
1.4 times the height of a capital) must be at least `MIN_TEXT` px, and no file may exceed
`MAX_BYTES`.
"""

from __future__ import annotations

SHOWN_WIDTH = 300        # px an embed image is shown at, at most, on a 390-px-wide phone
MAX_ASPECT = 1.5         # height / width; taller pictures would be shrunk further
MIN_TEXT = 10            # px: the smallest font size after scaling to the phone
MAX_BYTES = 200_000      # bytes per picture
WIDTH = 2 * SHOWN_WIDTH  # what wide pictures are drawn at: sharp on 2x screens, text >= 20 px


def shown_scale(width: int, height: int) -> float:
    """How much a `width` x `height` picture is scaled on the phone (1.0: not at all)."""
    return min(1.0, SHOWN_WIDTH / width, SHOWN_WIDTH * MAX_ASPECT / height)
