"""Fonts for the renderers: DejaVu when installed (the container installs it), else Pillow's own.
A missing condensed face falls back to the regular one of the same weight."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

_DEJAVU = "/usr/share/fonts/truetype/dejavu/"
_FILES = {
    (True, False): "DejaVuSans-Bold.ttf",
    (False, False): "DejaVuSans.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
}


@lru_cache(maxsize=128)
def font(size: int, *, bold: bool = True,
         condensed: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A TrueType font of `size` pixels, cached per process; `condensed` is narrower, for
    labels in small squares."""
    names = (_FILES[bold, condensed], _FILES[bold, False])
    for candidate in (path for name in names for path in (name, _DEJAVU + name)):
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)
