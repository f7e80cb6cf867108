"""Run in the image's build stage, with the installed Gamenight: deletes the data files of
wordfreq and Babel the bot never reads, after recording what it does read, and checks that
what the bot reads gives the same results afterwards (else the build fails).

wordfreq: the bot asks only for the English ranking (games/scrabble/common_words.py), which
reads one list; the other languages' lists and the Chinese and Japanese tokenizers' data go.
Babel: the bot words dates, lists and numbers in its languages only (i18n.BABEL_LOCALES); each
locale's file and those it inherits from (down to root) stay, with global.dat.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

PROBE = "probe"


def probe() -> dict[str, str]:
    """What the bot reads from both libraries, as digests (the same after pruning, or not)."""
    from datetime import timedelta

    from babel import Locale
    from babel.dates import format_timedelta
    from babel.lists import format_list
    from babel.numbers import format_decimal

    import i18n
    from games.scrabble.common_words import _ranked

    found = {"wordfreq en": digest("\n".join(_ranked()))}
    for lang, name in i18n.BABEL_LOCALES.items():
        locale = Locale.parse(name)
        words = [format_timedelta(timedelta(seconds=s), locale=locale, format=f)
                 for s in (1, 90, 7200, 200000) for f in ("long", "short", "narrow")]
        words += [format_list(["a", "b", "c"], style=st, locale=locale)
                  for st in ("standard", "or")]
        words += [format_decimal(n, locale=locale) for n in (0, 1.5, 12345.678)]
        words += [locale.get_display_name(locale) or ""]
        found[f"babel {lang}"] = digest("\n".join(words))
    return found


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_files() -> tuple[dict[str, str], set[Path], set[str]]:
    """The probe's results, and the wordfreq lists read and the Babel locales loaded for it
    (first in the process: both are cached once read)."""
    import babel.localedata
    import wordfreq

    lists: set[Path] = set()
    read = wordfreq.read_cBpack

    def recording(path: str) -> object:
        lists.add(Path(path).resolve())
        return read(path)

    wordfreq.read_cBpack = recording
    found = probe()
    return found, lists, set(babel.localedata._cache) | {"root"}


def prune() -> None:
    import babel.localedata
    import wordfreq

    before, lists, locales = read_files()
    data = Path(wordfreq.DATA_PATH)
    if not lists:
        sys.exit("no wordfreq list was read: cannot tell which to keep")
    gone = [p for p in data.iterdir() if p.is_file() and p.resolve() not in lists]
    locale_dir = Path(babel.localedata._dirname)
    gone += [p for p in locale_dir.glob("*.dat") if p.stem not in locales]
    size = sum(p.stat().st_size for p in gone)
    for path in gone:
        path.unlink()
    after = json.loads(subprocess.run([sys.executable, __file__, PROBE], check=True,
                                      capture_output=True, text=True).stdout)
    if after != before:
        sys.exit(f"pruning changed what the bot reads: {before} -> {after}")
    print(f"pruned {len(gone)} data files ({size / 1e6:.1f} MB); kept wordfreq "
          f"{sorted(p.name for p in lists)}, Babel {sorted(locales)}; results unchanged")


if __name__ == "__main__":
    if sys.argv[1:] == [PROBE]:
        print(json.dumps(probe()))
    else:
        prune()
