"""Common English words, for computer players that should play like a casual person.

The ranking comes from the `wordfreq` package (frequencies of words across many sources of
English); a level keeps its most frequent `n` words that the game's lexicon accepts. The
ranked list is read once per process (about 0.1 s) and each set is cached.
"""

from __future__ import annotations

import functools

from .lexicon import Lexicon

RANKED = 60000  # how far down wordfreq's English list the levels may reach


@functools.cache
def _ranked() -> tuple[str, ...]:
    """wordfreq's most frequent English words, upper case, letters only, best first."""
    from wordfreq import top_n_list  # imported here: only the common-word levels need it

    out: list[str] = []
    seen: set[str] = set()
    for word in top_n_list("en", RANKED):
        upper = word.upper()
        if upper.isascii() and upper.isalpha() and upper not in seen:
            seen.add(upper)
            out.append(upper)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def common_words(n: int, lexicon: Lexicon) -> frozenset[str]:
    """The `n` most frequent English words (by wordfreq's ranking) that `lexicon` accepts."""
    words = lexicon.words
    return frozenset(w for w in _ranked()[:n] if w in words)
