"""The DAWG move generator as it stood before blanks were searched as wildcards
(games/scrabble/movegen.py at commit 0cfb9b9, its code unchanged but for absolute imports):
an oracle for the property tests, which check the current generator finds exactly the same
plays, with the same scores, and that the computer players choose as they did with this one."""


from __future__ import annotations

import functools
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from games.scrabble.board import Board
from games.scrabble.dawg import Node, walk
from games.scrabble.lexicon import Lexicon
from games.scrabble.moves import ACROSS, DOWN, Play
from games.scrabble.scoring import BINGO_TILES, Placement, ScoredPlay
from games.scrabble.tiles import (
    BINGO_BONUS,
    BLANK,
    CENTRE,
    LETTERS,
    LETTER_MULTIPLIER,
    PREMIUMS,
    SIZE,
    WORD_MULTIPLIER,
    square_name,
    tile_value,
)

EMPTY = "."
_VALUE = {ch: tile_value(ch) for ch in LETTERS + LETTERS.lower()}
_LOWER = {ch: ch.lower() for ch in LETTERS}
_BLANKED = str.maketrans(LETTERS.lower(), BLANK * len(LETTERS))
_LETTERS = LETTERS
_SQUARE_NAMES = tuple(tuple(square_name(r, c) for c in range(SIZE)) for r in range(SIZE))

# line, start, word as written, score, and the rack's tiles left after it as a `Left` number
Found = tuple[int, int, str, int, int]

# A rack's tiles as one number, 4 bits a letter and the blanks' count above them: a play's
# tiles are taken off by subtraction as the search places them.
_WEIGHT = {letter: 1 << (4 * i) for i, letter in enumerate(LETTERS)}
_WEIGHT[BLANK] = 1 << (4 * len(LETTERS))


def rack_number(rack: str) -> int:
    return sum(_WEIGHT[tile] for tile in rack)


@functools.lru_cache(maxsize=4096)
def rack_of(number: int) -> str:
    """The tiles a `rack_number` stands for, in `sort_tiles` order (blanks last)."""
    letters = "".join(letter * ((number >> (4 * i)) & 15) for i, letter in enumerate(LETTERS))
    return letters + BLANK * (number >> (4 * len(LETTERS)))


@dataclass(frozen=True, slots=True)
class _Cross:
    """An empty square with tiles above and/or below it (in the line's sense)."""

    allowed: frozenset[str]  # letters that make a word with them
    before: str  # the tiles above, upper case
    after: str  # the tiles below
    base: int  # their value


@dataclass(frozen=True, slots=True)
class _Pass:
    """One direction of the board: its rows, premiums and cross-checks."""

    across: bool
    rows: tuple[str, ...]
    cross: tuple[tuple[_Cross | None, ...], ...]
    letter_bonus: tuple[tuple[int, ...], ...]
    word_bonus: tuple[tuple[int, ...], ...]

    def play(self, line: int, start: int, word: str) -> Play:
        if self.across:
            return _play(line, start, ACROSS, word)
        return _play(start, line, DOWN, word)

    def tiles(self, line: int, start: int, word: str) -> list[Placement]:
        row = self.rows[line]
        return [
            (line, start + i, ch) if self.across else (start + i, line, ch)
            for i, ch in enumerate(word)
            if row[start + i] == EMPTY
        ]

    def sort_key(self, found: Found) -> tuple[int, str]:
        """`scored_plays`' order, (-score, str(play)), without making the Play."""
        line, start, word, score, _ = found
        if self.across:
            return -score, f"{_SQUARE_NAMES[line][start]} {ACROSS} {word}"
        return -score, f"{_SQUARE_NAMES[start][line]} {DOWN} {word}"

    def scored(self, line: int, start: int, word: str, score: int) -> ScoredPlay:
        """The ScoredPlay `score_placements` would give, from the prepared cross words."""
        tiles = self.tiles(line, start, word)
        crosses = self.cross[line]
        bonus_l, bonus_w = self.letter_bonus[line], self.word_bonus[line]
        words = [("", 0)]
        cross_total = 0
        for r, c, ch in tiles:
            pos = c if self.across else r
            cross = crosses[pos]
            if cross is not None:
                value = (cross.base + _VALUE[ch] * bonus_l[pos]) * bonus_w[pos]
                words.append((cross.before + ch.upper() + cross.after, value))
                cross_total += value
        bingo = len(tiles) >= BINGO_TILES
        words[0] = (word.upper(), score - cross_total - (BINGO_BONUS if bingo else 0))
        return ScoredPlay(tuple(tiles), tuple(words), bingo, score)


def _play(row: int, col: int, direction: str, word: str) -> Play:
    """A Play the generator found: valid by construction, so made without Play's checks
    (they would cost more than finding it)."""
    play = object.__new__(Play)
    play.__dict__.update(row=row, col=col, direction=direction, word=word)
    return play


class Option(NamedTuple):
    """A play the search found, before its Play and ScoredPlay are made: what a computer
    player ranks (tens of thousands of plays, of which it looks closer at a few)."""

    score: int
    left: int  # the rack's tiles left after it, a `rack_number`
    way: _Pass
    found: Found

    @property
    def kept(self) -> str:
        """The tiles left on the rack, in `sort_tiles` order."""
        return rack_of(self.left)

    @property
    def word(self) -> str:
        """The main word, upper case."""
        return self.found[2].upper()

    def play(self) -> Play:
        return self.way.play(*self.found[:3])

    def scored(self) -> ScoredPlay:
        return self.way.scored(*self.found[:4])


def options(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> list[Option]:
    """Every valid play (see `placements`) as an `Option`, in the search's order."""
    with _collector_paused():
        return [
            Option(item[3], item[4], way, item)
            for way, found in _search(board, rack, lexicon, one_blank_choice)
            for item in found
        ]


def placements(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> Iterator[tuple[Play, list[Placement]]]:
    """Yield every play `rack` can make on `board` whose words are all in `lexicon`, with
    its new tiles. A one-tile play forming words both ways is yielded once, across.

    With `one_blank_choice`, plays that put the same tiles on the same squares and differ only
    in the letters their blanks stand for are yielded once: a blank scores 0 whatever it is,
    so they share their score and their leave (what a computer player needs)."""
    for way, found in _search(board, rack, lexicon, one_blank_choice):
        for line, start, word, _, _ in found:
            yield way.play(line, start, word), way.tiles(line, start, word)


def generate(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> Iterator[tuple[Play, ScoredPlay]]:
    """Every valid play with its score (see `placements`)."""
    for way, found in _search(board, rack, lexicon, one_blank_choice):
        for line, start, word, score, _ in found:
            yield way.play(line, start, word), way.scored(line, start, word, score)


def scored_plays(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> list[tuple[int, Play]]:
    """Every valid play with its score, best first, ties in the order of their text."""
    with _collector_paused():
        keyed = [
            (way.sort_key(item), way, item)
            for way, found in _search(board, rack, lexicon, one_blank_choice)
            for item in found
        ]
        keyed.sort(key=lambda entry: entry[0])
        return [(item[3], way.play(*item[:3])) for _, way, item in keyed]


def has_play(board: Board, rack: str, lexicon: Lexicon) -> bool:
    return any(found for _, found in _search(board, rack, lexicon, False))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The search makes many small objects and no reference cycles; meanwhile the cyclic
    garbage collector would walk the lexicon's graph again and again (a third of the time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _search(
    board: Board, rack: str, lexicon: Lexicon, one_blank_choice: bool
) -> list[tuple[_Pass, list[Found]]]:
    """For each direction, across first, the plays found on its lines."""
    if not rack:
        return []
    root = lexicon.dawg
    with _collector_paused():
        return list(_directions(board, rack, root, one_blank_choice))


def _directions(
    board: Board, rack: str, root: Node, one_blank_choice: bool
) -> Iterator[tuple[_Pass, list[Found]]]:
    first = board.is_empty()
    one_choice = one_blank_choice and BLANK in rack
    ways = [_prepare(board if across else board.transpose(), across, root)
            for across in (True, False)]
    room = max(_room(way, line, first) for way in ways for line in range(SIZE))
    longest = min(len(rack) - 1, room)
    parts = _LeftParts(_left_parts(root, rack, longest))
    for way in ways:
        found: list[Found] = []
        for line in range(SIZE):
            _line(way, line, rack, root, first, one_choice, parts, found)
        yield way, found


def _room(way: _Pass, line: int, first: bool) -> int:
    """The most free squares before an anchor of the line that has no tile just before it:
    the longest left part it can take."""
    row = way.rows[line]
    room, previous = 0, -1
    for anchor in _anchors(row, way.cross[line], line, first):
        if anchor == 0 or row[anchor - 1] == EMPTY:
            room = max(room, anchor - previous - 1)
        previous = anchor
    return room


# letters, node, rack letters left, blanks left, the rack left (a `rack_number`)
LeftPart = tuple[str, Node, dict[str, int], int, int]


def _left_parts(root: Node, rack: str, longest: int) -> list[LeftPart]:
    """Every way to start a word with the rack's tiles, up to `longest` letters, in the
    search's order (alphabetical, a letter before a blank standing for it)."""
    counts = {letter: rack.count(letter) for letter in LETTERS}
    blanks = rack.count(BLANK)
    out: list[LeftPart] = []

    def grow(part: str, node: Node, limit: int, key: int) -> None:
        nonlocal blanks
        out.append((part, node, dict(counts), blanks, key))
        if not limit:
            return
        for letter, child in node.items():
            left = counts[letter]
            if left:
                counts[letter] = left - 1
                grow(part + letter, child, limit - 1, key - _WEIGHT[letter])
                counts[letter] = left
        if blanks:
            blanks -= 1
            for letter, child in node.items():
                grow(part + _LOWER[letter], child, limit - 1, key - _WEIGHT[BLANK])
            blanks += 1

    grow("", root, longest, rack_number(rack))
    return out


class _LeftParts:
    """The left parts, shortest first, and for each kind of anchor (its cross-check, the tile
    after it, how many free squares before it) those whose node can go on through it: shared
    by every line of both directions."""

    def __init__(self, parts: list[LeftPart]) -> None:
        self.parts = sorted(parts, key=lambda part: len(part[0]))  # stable: keeps the order
        # (cross-check, tile after) -> [fitting parts, how many parts were looked at]
        self.fitting: dict[tuple[frozenset[str] | None, str], tuple[list[LeftPart], list[int]]] = {}

    def fit(self, allowed: frozenset[str] | None, tile: str, limit: int) -> list[LeftPart]:
        """The fitting parts, those up to `limit` letters first (looked at once per kind)."""
        found, looked = self.fitting.setdefault((allowed, tile), ([], [0]))
        parts = self.parts
        i = looked[0]
        while i < len(parts) and len(parts[i][0]) <= limit:
            if _fits(parts[i], allowed, tile):
                found.append(parts[i])
            i += 1
        looked[0] = i
        return found


def _fits(part: LeftPart, allowed: frozenset[str] | None, tile: str) -> bool:
    """Whether the part's node has a letter for the anchor (from what the rack has left, in
    its cross-check) that can go on through the tile after it."""
    _, node, counts, blanks, _ = part
    if blanks and not tile:
        return bool(node) if allowed is None else not allowed.isdisjoint(node)
    for letter, child in node.items():
        if (
            (blanks or counts[letter])
            and (allowed is None or letter in allowed)
            and (not tile or tile in child)
        ):
            return True
    return False


def _prepare(grid: Board, across: bool, root: Node) -> _Pass:
    rows = grid.rows
    cross = tuple(tuple(_cross(rows, r, c, root) for c in range(SIZE)) for r in range(SIZE))
    premiums = [
        [PREMIUMS[r][c] if across else PREMIUMS[c][r] for c in range(SIZE)] for r in range(SIZE)
    ]
    return _Pass(
        across,
        rows,
        cross,
        tuple(tuple(LETTER_MULTIPLIER.get(p or "", 1) for p in row) for row in premiums),
        tuple(tuple(WORD_MULTIPLIER.get(p or "", 1) for p in row) for row in premiums),
    )


def _cross(rows: tuple[str, ...], r: int, c: int, root: Node) -> _Cross | None:
    if rows[r][c] != EMPTY:
        return None
    top = r
    while top > 0 and rows[top - 1][c] != EMPTY:
        top -= 1
    bottom = r
    while bottom < SIZE - 1 and rows[bottom + 1][c] != EMPTY:
        bottom += 1
    if top == r and bottom == r:
        return None
    above = [rows[i][c] for i in range(top, r)]
    below = [rows[i][c] for i in range(r + 1, bottom + 1)]
    before, after = "".join(above).upper(), "".join(below).upper()
    node = walk(root, before)
    allowed = frozenset(
        letter
        for letter, child in (node.items() if node is not None else ())
        if (end := walk(child, after)) is not None and end.end
    )
    return _Cross(allowed, before, after, sum(_VALUE[ch] for ch in above + below))


def _anchors(row: str, crosses: tuple[_Cross | None, ...], line: int, first: bool) -> list[int]:
    """The empty squares a play along `row` must cover one of."""
    if first:
        return [CENTRE[1]] if line == CENTRE[0] else []
    return [
        c
        for c in range(SIZE)
        if row[c] == EMPTY
        and (
            crosses[c] is not None
            or (c > 0 and row[c - 1] != EMPTY)
            or (c < SIZE - 1 and row[c + 1] != EMPTY)
        )
    ]


def _line(  # noqa: C901 - one closure per step of the search keeps the hot loop in locals
    way: _Pass,
    line: int,
    rack: str,
    root: Node,
    first: bool,
    one_choice: bool,
    parts: _LeftParts,
    found: list[Found],
) -> None:
    """Append the plays along one line of `way` to `found`."""
    row = way.rows[line]
    crosses = way.cross[line]
    anchors = _anchors(row, crosses, line, first)
    if not anchors:
        return
    bonus_l, bonus_w = way.letter_bonus[line], way.word_bonus[line]
    value_of = _VALUE
    weight, blank_weight = _WEIGHT, _WEIGHT[BLANK]
    full_key = rack_number(rack)
    lower = _LOWER
    counts = {letter: rack.count(letter) for letter in _LETTERS}
    blanks = rack.count(BLANK)
    shapes: set[tuple[int, str]] = set()
    # the tile just after each square (upper case), "" if none: a letter is only placed when
    # its DAWG node can go on through that tile
    follow = [
        row[c + 1].upper() if row[c + 1 : c + 2] not in ("", EMPTY) else "" for c in range(SIZE)
    ]
    empties = [0] * (SIZE + 1)  # empty squares before each position
    for c in range(SIZE):
        empties[c + 1] = empties[c] + (row[c] == EMPTY)
    anchor = 0
    skip_single = False  # a one-tile play down that also forms an across word was found across

    def keep(end: int, word: str, score: int, key: int) -> None:
        start = end - len(word)
        tiles = empties[end] - empties[start]
        if end - start < 2 or (tiles == 1 and skip_single):
            return
        if one_choice:
            # Lower case marks the blanks, placed or on the board; from one start the board's
            # are on the same squares whatever the word, so this names the placement.
            shape = word.translate(_BLANKED)
            if shape != word:  # keep the first choice of letters for its blanks
                if (start, shape) in shapes:
                    return
                shapes.add((start, shape))
        if tiles >= BINGO_TILES:
            score += BINGO_BONUS
        found.append((line, start, word, score, key))

    def extend(  # noqa: PLR0913 - the search's state, passed down without allocating
        pos: int, node: Node, word: str, score: int, mult: int, cross: int, key: int
    ) -> None:
        """Extend `word` (which ends before `pos`) rightwards; keep it where it can end."""
        nonlocal blanks
        while pos < SIZE and row[pos] != EMPTY:  # tiles already on the board
            ch = row[pos]
            node = node.get(ch.upper())  # type: ignore[assignment]
            if node is None:
                return
            word += ch
            score += value_of[ch]
            pos += 1
        if pos > anchor and node.end:
            keep(pos, word, score * mult + cross, key)
        if pos == SIZE:
            return
        check = crosses[pos]
        lm, wm = bonus_l[pos], bonus_w[pos]
        after = pos + 1
        tile = follow[pos]
        if check is None:
            for letter, child in node.items():
                left = counts[letter]
                if left and (not tile or tile in child):
                    counts[letter] = left - 1
                    extend(after, child, word + letter, score + value_of[letter] * lm,
                           mult * wm, cross, key - weight[letter])
                    counts[letter] = left
        else:
            allowed, base = check.allowed, check.base
            for letter, child in node.items():
                left = counts[letter]
                if left and letter in allowed and (not tile or tile in child):
                    counts[letter] = left - 1
                    value = value_of[letter] * lm
                    extend(after, child, word + letter, score + value, mult * wm,
                           cross + (base + value) * wm, key - weight[letter])
                    counts[letter] = left
        if blanks:
            blanks -= 1
            blank_allowed = None if check is None else check.allowed
            extra = 0 if check is None else check.base * wm
            for letter, child in node.items():
                if ((blank_allowed is not None and letter not in blank_allowed)
                        or (tile and tile not in child)):
                    continue
                extend(after, child, word + lower[letter], score, mult * wm, cross + extra,
                       key - blank_weight)
            blanks += 1

    previous = -1
    size = len(rack)
    for anchor in anchors:
        skip_single = not way.across and crosses[anchor] is not None
        if anchor > 0 and row[anchor - 1] != EMPTY:  # the tiles before it start the word
            start = anchor - 1
            while start > 0 and row[start - 1] != EMPTY:
                start -= 1
            written = row[start:anchor]
            node = walk(root, written.upper())
            if node is not None:
                extend(anchor, node, written, sum(value_of[ch] for ch in written), 1, 0,
                       full_key)
        else:
            limit = min(anchor - previous - 1, size - 1)
            check = crosses[anchor]
            full, full_blanks = counts, blanks
            for part, node, counts, blanks, key in parts.fit(
                None if check is None else check.allowed, follow[anchor], limit
            ):
                if len(part) > limit:
                    break
                start = anchor - len(part)
                score, mult = 0, 1
                for i, ch in enumerate(part, start):
                    score += value_of[ch] * bonus_l[i]
                    mult *= bonus_w[i]
                extend(anchor, node, part, score, mult, 0, key)
            counts, blanks = full, full_blanks
        previous = anchor
