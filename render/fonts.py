"""Fonts for the renderers: DejaVu when installed (the container installs it), else Pillow's own."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

_CANDIDATES = {
    True: ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    False: ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
}


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A TrueType font of `size` pixels, cached per process."""
    for candidate in _CANDIDATES[bold]:
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)
