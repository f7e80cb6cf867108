"""The match pages' own fonts, cut from the fonts the pictures are drawn with (render/fontfiles,
SIL Open Font License 1.1, which allows serving them; the licences go beside them): a browser
without Chinese or Gujarati fonts still shows the pages' words, and the language switch, in
letters rather than boxes.

    python -m docs.tools.web_fonts

writes bot/web/static/fonts/:
- languages-zh.woff2 and languages-gu.woff2: only the letters of the languages' names in the
  switch (a few KiB, on every page);
- cjk.woff2: the Chinese characters of both Chinese catalogs (loaded only on a page that shows
  one, where the system fonts lack it);
- gujarati.woff2: the Gujarati script, whole (its letters combine: shaping needs them all).
web.css declares them with @font-face and unicode-range. Run it again after translating new
words (a character missing from cjk.woff2 falls back to the system's fonts). It needs
fontTools and brotli (pip install fonttools brotli); the bot does not.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "render" / "fontfiles"
OUT = ROOT / "bot" / "web" / "static" / "fonts"
GUJARATI = range(0x0A80, 0x0B00)
JOINERS = (0x200C, 0x200D, 0x25CC)  # zero-width (non-)joiners, the dotted circle
CHINESE = ("zh_CN", "zh_TW")


def catalog_letters(lang: str) -> set[str]:
    """Every character of a catalog's translations."""
    from babel.messages.pofile import read_po

    with open(ROOT / "i18n" / "locale" / lang / "LC_MESSAGES" / "gamenight.po", "rb") as file:
        catalog = read_po(file)
    letters: set[str] = set()
    for message in catalog:
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for text in strings:
            letters.update(text or "")
    return letters


def wide(letters: set[str]) -> set[int]:
    """The letters the Chinese fonts are for (not ASCII, Latin or general punctuation)."""
    return {ord(c) for c in letters if ord(c) >= 0x2E80}


def cut(source: str, codepoints: set[int], target: str) -> int:
    """Subset `source` to `codepoints` as WOFF2 at `target`; its size in bytes."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(SOURCE / source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    subset.save_font(font, str(OUT / target), options)
    return (OUT / target).stat().st_size


def main() -> None:
    from i18n import LANGUAGES

    OUT.mkdir(parents=True, exist_ok=True)
    names = {ord(c) for name in LANGUAGES.values() for c in name if ord(c) > 0x7F}
    chinese = set().union(*(wide(catalog_letters(lang)) for lang in CHINESE))
    sizes = {
        "languages-zh.woff2": cut("NotoSansCJKsc-Regular-subset.otf",
                                  {c for c in names if c not in GUJARATI}, "languages-zh.woff2"),
        "languages-gu.woff2": cut("NotoSansGujarati-Regular.ttf",
                                  {c for c in names if c in GUJARATI}, "languages-gu.woff2"),
        "cjk.woff2": cut("NotoSansCJKsc-Regular-subset.otf", chinese, "cjk.woff2"),
        "gujarati.woff2": cut("NotoSansGujarati-Regular.ttf", {*GUJARATI, *JOINERS},
                              "gujarati.woff2"),
    }
    for licence in ("LICENSE-Noto.txt", "LICENSE-Noto-CJK.txt"):
        (OUT / licence).write_bytes((SOURCE / licence).read_bytes())
    for name, size in sizes.items():
        print(f"{OUT.relative_to(ROOT) / name}  {size // 1024} KiB")


if __name__ == "__main__":
    main()
