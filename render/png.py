"""How every renderer finishes: draw at SCALE times the size, shrink, encode as PNG."""

from __future__ import annotations

import io

from PIL import Image

SCALE = 2  # renderers draw at twice the final size: smooth circles, lines and text


def finish(image: Image.Image) -> bytes:
    """A SCALE-times drawing as PNG bytes at its final size."""
    return encode(shrink(image))


def shrink(image: Image.Image) -> Image.Image:
    """A SCALE-times drawing at its final size: each SCALE x SCALE block averaged (exact and
    fast). Pieces drawn apart on blocks of whole final pixels and shrunk put together exactly
    as the whole drawing would shrink."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    return image.reduce(SCALE)


def encode(image: Image.Image) -> bytes:
    """A final-size picture as PNG bytes, in 256 colours: pictures of a few flat colours and
    their blended edges lose nothing visible, and both the file and the encoding time halve.
    Compression level 3 is much faster than the default for a slightly larger file."""
    if image.mode != "L":  # grey is 8 bits a pixel already
        image = in_256_colours(image)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


PALETTE_SAMPLE = 2  # the palette is chosen from one pixel in 2 x 2


def in_256_colours(image: Image.Image) -> Image.Image:
    """`image` in the 256 colours (fast octree) chosen from a quarter of its pixels, each
    pixel then the nearest of them: about half the time of choosing from every pixel, for
    the same error on all but a few pixels (the octree merges rare colours either way)."""
    sample = image.resize((max(1, image.width // PALETTE_SAMPLE),
                           max(1, image.height // PALETTE_SAMPLE)), Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)
