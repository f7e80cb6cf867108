"""Run in the image's build stage, with the installed Gamenight: deletes the data files of
wordfreq and Babel the bot never reads and the parts of Pillow and discord.py it never loads,
after recording what it does read, and checks that what the bot reads and draws gives the same
results afterwards (else the build fails).

wordfreq: the bot asks only for the English ranking (games/scrabble/common_words.py), which
reads one list; the other languages' lists and the Chinese and Japanese tokenizers' data go.
Babel: the bot words dates, lists and numbers in its languages only (i18n.BABEL_LOCALES); each
locale's file and those it inherits from (down to root) stay, with global.dat.
Pillow: the bot draws PNG and GIF only; the AVIF codec (PIL/_avif and its libavif, a third of
pillow.libs) goes, which Pillow itself treats as a build without AVIF (AvifImagePlugin's
SUPPORTED is False). The probe draws a replay of each game in each of the bot's scripts, and
lists the compiled Pillow modules that load (one that needed libavif would drop out).
discord.py: bin/ holds libopus DLLs for voice on Windows (discord/opus.py loads them only when
sys.platform is win32); on Linux they cannot be loaded at all. Only Windows executables go
(their licence, COPYING, stays).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path

PROBE = "probe"
# A replay of each game, captioned in each of the bot's scripts (Latin, Gujarati, Chinese).
PICTURES = (("reversi", 2, "en"), ("scrabble", 2, "gu"), ("patchwork", 2, "zh-CN"),
            ("doudizhu", 3, "zh-TW"))


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
    for game, players, lang in PICTURES:
        found[f"picture {game} {lang}"] = hashlib.sha256(replay(game, players, lang)).hexdigest()
    found["pillow modules that load"] = " ".join(loading_pillow_modules())
    return found


def replay(game: str, players: int, lang: str, moves: int = 6) -> bytes:
    """The GIF `/match replay` gives of a match's first moves (each a legal move that is not a
    pass, where there is one): every frame is the game's own picture, PNG-encoded and read back,
    under a caption in `lang`."""
    from bot.matches.engines import engine_for
    from bot.workers.replay_animation import animate
    from games.replay import first_state

    engine = engine_for(game)
    state = first_state(engine, players, 7, None)
    actions = []
    for _ in range(moves):
        seat = engine.current_seat(state)
        if seat is None:
            break
        legal = engine.legal_moves(state, seat)
        move = next((m for m in legal if "pass" not in str(m)), legal[0])
        actions.append((seat, str(move)))
        state = engine.apply(state, seat, move)
    names = ["alice", "bob", "carol"][:players]
    return animate(game, players, 7, None, actions, names, lang)


def loading_pillow_modules() -> list[str]:
    """Pillow's compiled modules that load here, but the AVIF codec's (_imagingtk needs Tk,
    which the image lacks: it never loads). One that needed libavif would be missing after."""
    import PIL

    loading = []
    for path in sorted(Path(PIL.__file__).parent.glob("_*.so")):
        module = f"PIL.{path.name.split('.')[0]}"
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        if module != "PIL._avif":
            loading.append(module)
    return loading


def unused_code() -> list[Path]:
    """Pillow's AVIF codec and its library, and discord.py's Windows DLLs."""
    import discord
    import PIL

    pil = Path(PIL.__file__).parent
    gone = list(pil.glob("_avif.*.so")) + list((pil.parent / "pillow.libs").glob("libavif-*"))
    if len(gone) != 2:
        sys.exit(f"Pillow's AVIF codec is not where it was looked for: {gone}")
    if sys.platform == "win32":
        sys.exit("discord.py loads its libopus DLLs on Windows: keep them")
    dlls = list((Path(discord.__file__).parent / "bin").glob("*.dll"))
    for dll in dlls:
        if dll.read_bytes()[:2] != b"MZ":
            sys.exit(f"{dll} is not a Windows executable: kept, and the build stopped")
    return gone + dlls


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
    gone += unused_code()
    size = sum(p.stat().st_size for p in gone)
    for path in gone:
        path.unlink()
    done = subprocess.run([sys.executable, __file__, PROBE], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the probe fails after pruning:\n{done.stderr}")
    after = json.loads(done.stdout)
    if after != before:
        sys.exit(f"pruning changed what the bot reads: {before} -> {after}")
    print(f"pruned {len(gone)} files ({size / 1e6:.1f} MB); kept wordfreq "
          f"{sorted(p.name for p in lists)}, Babel {sorted(locales)}; results unchanged")


if __name__ == "__main__":
    if sys.argv[1:] == [PROBE]:
        print(json.dumps(probe()))
    else:
        prune()
