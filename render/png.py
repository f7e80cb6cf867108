"""How every renderer finishes: draw at SCALE times the size, shrink, encode as PNG."""

from __future__ import annotations

import io

from PIL import Image

SCALE = 2  # renderers draw at twice the final size: smooth circles, lines and text


def finish(image: Image.Image, *, palette: bool = False) -> bytes:
    """Shrink a SCALE-times drawing to its final size (a box-filter average, exact and fast)
    and encode it; compression level 3 is much faster than the default for a slightly
    larger file. With `palette`, first reduce to 256 colours (fast octree): for a large
    picture of few flat colours this halves both the file and the encoding time."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    out = io.BytesIO()
    image = image.reduce(SCALE)
    if palette:
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
