"""What the tiles a player keeps are worth for the next turns (the "leave"), in points.

A computer player ranks plays by static equity: score now + the value of the leave. The table
is hand-set, not fitted: per-tile values of the size and sign published for expert play
(Quackle's and Maven's single-tile leaves: a blank about +25, S +8, Z and X a few points, Q
-7, V -6, U and W -4 ...), plus three corrections those single values miss:

- duplicates: each further copy of a letter is worth less (two I's or U's hurt most; a second
  blank or S is still good);
- balance: a leave heavy in vowels or in consonants draws badly (blanks count as neither);
- Q and U: a Q is worse when no U is kept with it, and a U with it costs little.
"""

from __future__ import annotations

import functools
from collections import Counter

from .tiles import BLANK

TILE_VALUES: dict[str, float] = {
    "A": 1.0, "B": -3.5, "C": -0.5, "D": 0.0, "E": 4.0, "F": -2.0, "G": -2.5, "H": 1.0,
    "I": -1.5, "J": -2.5, "K": -1.5, "L": -1.5, "M": -1.0, "N": 0.5, "O": -2.5, "P": -1.5,
    "Q": -7.0, "R": 1.5, "S": 8.0, "T": 0.0, "U": -4.5, "V": -6.0, "W": -4.0, "X": 3.5,
    "Y": -2.5, "Z": 3.0, BLANK: 25.0,
}
VOWELS = frozenset("AEIOU")
DUPLICATE_PENALTY = 5.0  # for the 2nd copy; the 3rd costs twice as much, and so on
VOWEL_DUPLICATE_PENALTY = 6.5
Q_WITHOUT_U = -4.0
QU_TOGETHER = 5.0  # a U kept with a Q is about as good as none: QU is worth about Q's -7


@functools.lru_cache(maxsize=65536)
def leave_value(tiles: str) -> float:
    """The equity of keeping `tiles` (any order; `?` for a blank). The empty leave is 0."""
    counts = Counter(tiles)
    value = 0.0
    for tile, n in counts.items():
        value += TILE_VALUES[tile] * n
        penalty = VOWEL_DUPLICATE_PENALTY if tile in VOWELS else DUPLICATE_PENALTY
        value -= penalty * (n - 1) * n / 2  # 0 for one copy, p for two, 3p for three
    if counts["Q"]:
        value += QU_TOGETHER if counts["U"] else Q_WITHOUT_U
    return value - _imbalance(counts)


def _imbalance(counts: Counter[str]) -> float:
    """A penalty for too many vowels (more than consonants + 1) or consonants (more than
    vowels + 2)."""
    vowels = sum(n for tile, n in counts.items() if tile in VOWELS)
    consonants = sum(n for tile, n in counts.items() if tile not in VOWELS and tile != BLANK)
    excess = max(0, vowels - consonants - 1, consonants - vowels - 2)
    return 3.0 * excess + excess * excess / 2
