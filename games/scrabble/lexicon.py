"""The word list the game accepts, as an injectable dependency.

The engine takes any `Lexicon` (tests use a handful of words); by default it uses the ENABLE
list shipped in `data/enable.txt.gz`, loaded once per process. An operator may point
`GAMENIGHT_LEXICON` at another list (one word per line); that variable is read in exactly one
place, `load_lexicon`, the first time a default lexicon is needed.
"""

from __future__ import annotations

import functools
import gzip
import os
from collections.abc import Iterable
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from . import dawg

ENV_VAR = "GAMENIGHT_LEXICON"


class Lexicon:
    """A set of upper-case words with a membership test and (lazily) its DAWG.

    `word in lexicon` is case-insensitive. The DAWG, needed only by the move generator, is
    read from `dawg_file` (a prebuilt graph of exactly these words, see `dawg.main`) or built
    on first use. `prefixes`/`next_letters` remain for callers that want a prefix test.
    """

    __slots__ = ("words", "name", "_prefixes", "_next", "_dawg", "_dawg_file")

    def __init__(
        self,
        words: Iterable[str],
        name: str = "custom",
        *,
        dawg_file: Traversable | Path | None = None,
    ) -> None:
        self.words: frozenset[str] = frozenset(
            w.strip().upper() for w in words if w.strip() and w.strip().isalpha()
        )
        self.name = name
        self._prefixes: frozenset[str] | None = None
        self._next: dict[str, str] = {}
        self._dawg: dawg.Node | None = None
        self._dawg_file = dawg_file

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words

    def __len__(self) -> int:
        return len(self.words)

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self.words)} words)"

    @property
    def dawg(self) -> dawg.Node:
        """The root of the words' DAWG (read or built once)."""
        if self._dawg is None:
            if self._dawg_file is not None:
                with self._dawg_file.open("rb") as handle:
                    self._dawg = dawg.load(gzip.decompress(handle.read()).decode("ascii"))
            else:
                self._dawg = dawg.build(self.words)
        return self._dawg

    @property
    def prefixes(self) -> frozenset[str]:
        """Every prefix of every word, the words themselves included."""
        if self._prefixes is None:
            self._prefixes = frozenset(
                word[:i] for word in self.words for i in range(1, len(word) + 1)
            )
        return self._prefixes

    def next_letters(self, prefix: str) -> str:
        """The letters that can follow `prefix` in some word (memoised per prefix)."""
        letters = self._next.get(prefix)
        if letters is None:
            prefixes = self.prefixes
            letters = "".join(L for L in _LETTERS if prefix + L in prefixes)
            self._next[prefix] = letters
        return letters


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _read_words(path: Path) -> list[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return handle.read().split()


def load_lexicon(path: str | os.PathLike[str] | None = None) -> Lexicon:
    """The word list at `path`, else at `$GAMENIGHT_LEXICON`, else the packaged ENABLE list.

    A list is one word per line (gzip-compressed when the name ends in `.gz`); each file is
    read once per process.
    """
    if path is None:
        path = os.environ.get(ENV_VAR) or None
    return _load(None if path is None else str(path))


@functools.lru_cache(maxsize=8)
def _load(path: str | None) -> Lexicon:
    if path is None:
        data = resources.files(__package__).joinpath("data")
        with resources.as_file(data.joinpath("enable.txt.gz")) as file:
            words = _read_words(Path(file))
        return Lexicon(words, name="ENABLE", dawg_file=data.joinpath("enable.dawg.gz"))
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"no word list at {file} (set by {ENV_VAR} or the caller)")
    return Lexicon(_read_words(file), name=file.name)


@functools.cache
def default_lexicon() -> Lexicon:
    """The process-wide default lexicon: `load_lexicon()` on first call, then cached."""
    return load_lexicon()
