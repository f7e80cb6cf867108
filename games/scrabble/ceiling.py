"""How much a word being laid could still be worth: what lets a search for the best plays only
(`movegen.best_options`) skip the rest.

A play's equity is its score plus the value of the tiles it keeps. The `Ceiling` keeps the bar,
the `count`-th best equity found so far, and for a word the search is laying, an upper bound
on the equity of any play it can still become: the tiles left on the rack, laid on the next
free squares of the line with the highest value on the square where it counts most and the
second highest elsewhere (letter and word premiums, and the cross words they would form), at
most as many as the DAWG has letters to follow; with the bonus if that can make it a bingo, and
the best value of the tiles it could keep then (a bingo keeps few). Words whose bound is below
the bar cannot beat the plays already found and are not followed.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Protocol

from .racknumbers import WEIGHT, rack_of
from .scoring import BINGO_TILES
from .tiles import BINGO_BONUS, BLANK, LETTERS, SIZE, tile_value

EMPTY = "."
_VALUE = {ch: tile_value(ch) for ch in LETTERS + LETTERS.lower() + BLANK}

# for the tiles left: how many, the highest and second highest value, the best value kept of
# n of them or more (index n), and of n or fewer
Left = tuple[int, int, int, list[float], list[float]]

# For a word going on from a square, laying f more tiles (index f): the value of the board's
# tiles it takes in; the letter premiums and the product of the word premiums of the f squares;
# for those with a cross word, the value of its tiles and the letter premium, each times the
# word premium; the highest letter premium, and letter times word premium of a cross word.
Reach = list[tuple[int, int, int, int, int, int, int]]


class _Cross(Protocol):
    @property
    def base(self) -> int: ...


class Ceiling:
    """The bar a search for the `count` best plays must reach, and bounds to check it."""

    def __init__(self, rack: str, value: Callable[[str], float], count: int) -> None:
        self.value = value  # of the tiles kept
        self.count = count
        self.size = len(rack)
        self.bar = -math.inf
        self.best: list[float] = []  # the `count` best equities found, a heap
        self.tiles: dict[int, Left] = {}
        self.by_size: dict[int, list[float]] = {}

    def kept(self, key: int) -> float:
        """The value of keeping the tiles of a `rack_number`."""
        return self.value(rack_of(key))

    def found(self, score: int, key: int) -> None:
        """A play found: its score and the tiles it keeps."""
        equity = score + self.value(rack_of(key))
        if len(self.best) < self.count:
            heapq.heappush(self.best, equity)
        elif equity > self.best[0]:
            heapq.heapreplace(self.best, equity)
        if len(self.best) == self.count:
            self.bar = self.best[0]

    def most(  # noqa: PLR0913 - a word's state in the search
        self, ahead: Reach, depth: int, score: int, mult: int, cross: int, key: int
    ) -> float:
        """The most a word could be worth, with the tiles it keeps: it has laid letters worth
        `score` times `mult`, cross words worth `cross`, the tiles `key` are left, at most
        `depth` more letters can follow, and `ahead` is the line from where it goes on. The
        better of a word short of a bingo (keeping more) and of a bingo."""
        left, highest, second, more, fewer = self.left(key)
        laid = min(left, len(ahead) - 1, depth)
        placed = self.size - left
        best = -math.inf
        for tiles in (min(laid, BINGO_TILES - 1 - placed), laid):
            if tiles < 0:
                continue
            board, letters, words, cross_base, cross_letters, top_letter, top_cross = ahead[tiles]
            times = mult * words
            spread = letters * times + cross_letters  # what a tile's value counts, in all
            top = top_letter * times + top_cross  # the most it counts on one square
            points = ((score + board) * times + cross + cross_base
                      + second * spread + (highest - second) * top)
            if placed + tiles >= BINGO_TILES:
                points += BINGO_BONUS
                kept = fewer[left - max(0, BINGO_TILES - placed)]
            else:
                kept = more[left - tiles]
            # the points exactly, then the value kept added once: as a play's equity is its
            # score plus the value, rounding cannot take the bound below it
            best = max(best, points + kept)
        return best

    def left(self, key: int) -> Left:
        if key not in self.tiles:
            tiles = rack_of(key)
            values = sorted(map(_VALUE.__getitem__, tiles), reverse=True) + [0, 0]
            exact = self._kept_by_size(key)
            more = list(itertools.accumulate(reversed(exact), max))[::-1]
            fewer = list(itertools.accumulate(exact, max))
            self.tiles[key] = (len(tiles), values[0], values[1], more, fewer)
        return self.tiles[key]

    def _kept_by_size(self, key: int) -> list[float]:
        """The best value of keeping n of the tiles of `key` (index n)."""
        if key not in self.by_size:
            tiles = rack_of(key)
            best = [-math.inf] * len(tiles) + [self.kept(key)]
            for tile in set(tiles):
                for n, value in enumerate(self._kept_by_size(key - WEIGHT[tile])):
                    best[n] = max(best[n], value)
            self.by_size[key] = best
        return self.by_size[key]


def reach(row: str, crosses: Sequence[_Cross | None], letter_bonus: Sequence[int],
          word_bonus: Sequence[int], pos: int) -> Reach:
    """The `Reach` of a line (its tiles, cross-checks and premiums) from `pos` on."""
    out = []
    board = letters = cross_base = cross_letters = top_letter = top_cross = 0
    words = 1
    square = pos
    while True:
        while square < SIZE and row[square] != EMPTY:
            board += _VALUE[row[square]]
            square += 1
        out.append((board, letters, words, cross_base, cross_letters, top_letter, top_cross))
        if square == SIZE:
            return out
        lm, wm = letter_bonus[square], word_bonus[square]
        letters += lm
        words *= wm
        top_letter = max(top_letter, lm)
        cross = crosses[square]
        if cross is not None:
            cross_base += cross.base * wm
            cross_letters += lm * wm
            top_cross = max(top_cross, lm * wm)
        square += 1
