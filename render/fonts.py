"""Fonts for the renderers, shipped with the package (`render/fontfiles/`), so `pip install`
alone draws the same pictures as the container: DejaVu Sans for Latin, Greek and Cyrillic,
Noto Sans Gujarati, and Noto Sans CJK (simplified Chinese forms; the CJK ideographs, kana and
Hangul, subset to keep it small). A missing condensed face falls back to the regular one.

Memory: FreeType keeps a private copy of a CFF font's glyph data in every face it opens, one
face per size: 11 MB for the CJK font (it was 13 MB and 0.12 s while it shipped as WOFF2,
which FreeType decompressed again for every size). So the CJK font ships uncompressed (12.9 MB,
4 MB more than the WOFF2; opening a size costs 1 ms) and only the FALLBACK_FACES sizes drawn
last stay open. The caches of widths and shaped runs are keyed by (file, size), never by a
face, so they do not keep closed faces alive.

Text that DejaVu cannot show (a player's name in Chinese or Gujarati, say) is drawn in runs,
each in the first font that has its characters, laid out by Pillow with raqm (so Gujarati
conjuncts shape). A character no font has (an emoji) becomes a plain mark.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FILES = Path(__file__).resolve().parent / "fontfiles"
_FACES = {
    (True, False): "DejaVuSans-Bold.ttf",
    (False, False): "DejaVuSans.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
}
_GUJARATI = {True: "NotoSansGujarati-Bold.ttf", False: "NotoSansGujarati-Regular.ttf"}
_CJK = "NotoSansCJKsc-Regular-subset.otf"
FALLBACK_FACES = 6  # fallback (file, size) faces kept open: ~11 MB each for the CJK font
MARK = "•"  # what a character no font has becomes
_NEVER = "\U0010fffe"  # a noncharacter: every font draws its "missing" glyph for it
_PROBE = 24  # px: the size glyphs are compared at

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=128)
def font(size: int, *, bold: bool = True, condensed: bool = False) -> Font:
    """The main (DejaVu) font of `size` pixels, cached per process; `condensed` is narrower,
    for labels in small squares."""
    for name in (_FACES[bold, condensed], _FACES[bold, False]):
        try:
            return _main(str(FILES / name), size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def chain(size: int, *, bold: bool = True, condensed: bool = False) -> tuple[Font, ...]:
    """The fonts tried in turn for each character: DejaVu, Gujarati, CJK."""
    fallbacks = (_fallback(name, size) for name in (_GUJARATI[bold], _CJK))
    return (font(size, bold=bold, condensed=condensed), *(f for f in fallbacks if f))


def _fallback(name: str, size: int) -> Font | None:
    """A fallback font of `size` pixels, opened the first time a character needs it."""
    try:
        return _open(str(FILES / name), size)
    except OSError:
        return None


@lru_cache(maxsize=FALLBACK_FACES)
def _open(path: str, size: int) -> Font:
    return ImageFont.truetype(path, size)


Key = tuple[str, int] | Font  # a face as the caches know it: (file, size), or the face itself


def _key(face: Font) -> Key:
    """A face's cache key: its file and size, so a cache entry does not keep the face open
    (a face not read from a file, the built-in default, is its own key)."""
    path = getattr(face, "path", None)
    return (str(path), face.size) if isinstance(path, (str, Path)) else face


def _face(key: Key) -> Font:
    """The face a key stands for, opened again if it was closed."""
    if not isinstance(key, tuple):
        return key
    path, size = key
    if Path(path).name in (_CJK, *_GUJARATI.values()):
        return _open(path, size)
    return _main(path, size)


@lru_cache(maxsize=128)
def _main(path: str, size: int) -> Font:
    """A main (DejaVu) face by file: small, so they all stay open."""
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=None)
def _probe(path: str) -> ImageFont.FreeTypeFont:
    # Basic layout: raqm would draw a lone vowel sign on a dotted circle the font does have.
    return ImageFont.truetype(path, _PROBE, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=None)
def _missing_glyph(path: str) -> bytes:
    return bytes(_probe(path).getmask(_NEVER))


@lru_cache(maxsize=65536)
def _has(path: str, char: str) -> bool:
    """Whether the font file draws `char` (not its "missing" glyph)."""
    return char.isspace() or bytes(_probe(path).getmask(char)) != _missing_glyph(path)


def covers(face: Font, char: str) -> bool:
    path = getattr(face, "path", None)
    return path is not None and _has(str(path), char)


def runs(text: str, size: int, *, bold: bool = True,
         condensed: bool = False) -> list[tuple[str, Font]]:
    """`text` cut into runs, each with the first font of the chain that draws all of it."""
    main = font(size, bold=bold, condensed=condensed)
    out: list[tuple[str, Font]] = []
    for char in text:
        if out and unicodedata.category(char).startswith("M") and covers(out[-1][1], char):
            out[-1] = (out[-1][0] + char, out[-1][1])  # a vowel sign stays with its letter
            continue
        face = main if covers(main, char) else next(
            (f for f in chain(size, bold=bold, condensed=condensed)[1:] if covers(f, char)),
            None)
        if face is None:
            char, face = MARK, main
        if out and out[-1][1] is face:
            out[-1] = (out[-1][0] + char, face)
        else:
            out.append((char, face))
    return out


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, *, bold: bool = True, condensed: bool = False) -> float:
    """How wide `text` is drawn at `size`, in pixels (labels are measured again and again)."""
    return sum(face.getlength(part) for part, face in runs(text, size, bold=bold,
                                                               condensed=condensed))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *,
              fill: object, anchor: str = "la", bold: bool = True,
              condensed: bool = False) -> None:
    """`draw.text` with the font chain, each run in the first font that has its characters.
    A run is drawn once as a mask and then reused from a cache: drawing glyphs holds the
    interpreter lock, and labels, names and numbers repeat from picture to picture."""
    parts = runs(text, size, bold=bold, condensed=condensed)
    widths = [text_width(part, face) for part, face in parts]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    for (part, face), width in zip(parts, widths):
        mask, left, top = _run_mask(part, face, "l" + anchor[1])
        draw.bitmap((round(x) + left, round(y) + top), mask, fill=fill)
        x += width


def text_width(part: str, face: Font) -> float:
    return _width(part, _key(face))


@lru_cache(maxsize=4096)
def _width(part: str, key: Key) -> float:
    return _face(key).getlength(part)


def _run_mask(part: str, face: Font, anchor: str) -> tuple[Image.Image, int, int]:
    return _mask(part, _key(face), anchor)


@lru_cache(maxsize=4096)
def _mask(part: str, key: Key, anchor: str) -> tuple[Image.Image, int, int]:
    """`part` drawn once in the face of `key` as a coverage mask, and where the mask's corner
    sits from the anchor point."""
    face = _face(key)
    left, top, right, bottom = (int(v) for v in face.getbbox(part, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), part, font=face, fill=255, anchor=anchor)
    return mask, left, top


def wrap(text: str, width_of: Callable[[str], float], room: float) -> list[str]:
    """`text` in lines at most `room` wide by `width_of`: broken at spaces, and between
    characters where a word (or a sentence in Chinese, which has no spaces) is too wide
    alone."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if width_of(trial) <= room:
            line = trial
            continue
        if line:
            out.append(line)
        line = ""
        for char in word:  # a word too wide for a line of its own: cut where it overflows
            if line and width_of(line + char) > room:
                out.append(line)
                line = ""
            line += char
    if line:
        out.append(line)
    return out
