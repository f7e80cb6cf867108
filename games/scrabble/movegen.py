"""Finding every valid play for a rack: Appel & Jacobson's generator over the lexicon's DAWG.

Each line (rows, then columns via the transposed board) is prepared once: for each empty square
the letters the tiles above and below it allow (its cross-check) and what that cross word is
worth without the new tile; the anchors are the empty squares touching a tile (H8 on an empty
board). From each anchor the generator lays a left part on the free squares before it (or takes
the tiles already there), then extends rightwards through the DAWG, so it only ever follows
letters that continue some word. A play is found once, from its leftmost anchor, and scored as
it is built (a blank is worth 0 whatever it stands for). Left parts are shared by every anchor
of both directions, made a length at a time as anchors need them.

With `one_blank_choice`, a placement is kept with one choice of letters for its blanks: the
first in alphabetical order, as a person would list them. The search then takes a blank as a
wildcard, one step for every letter it may stand for (wildcards.py); otherwise it tries each.

`best_options` looks for the plays of highest equity only (score plus the value of the tiles
kept, what a computer player ranks by): with two blanks it skips every word that cannot catch
up with the best plays found so far (ceiling.py), laying left parts in place.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from .board import Board
from .ceiling import Ceiling, Reach, reach
from .dawg import Node, walk
from .lexicon import Lexicon
from .moves import ACROSS, DOWN, Play
from .racknumbers import WEIGHT, rack_number, rack_of
from .scoring import BINGO_TILES, Placement, ScoredPlay
from .tiles import (
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
from .wildcards import Blanks, Step, Wild

__all__ = [
    "Option", "best_options", "generate", "has_play", "options", "placements", "rack_number",
    "rack_of", "scored_plays", "search_order",
]

EMPTY = "."
_VALUE = {ch: tile_value(ch) for ch in LETTERS + LETTERS.lower() + BLANK}
_LETTERS = LETTERS
_LOWER = {letter: letter.lower() for letter in LETTERS}
_SQUARE_NAMES = tuple(tuple(square_name(r, c) for c in range(SIZE)) for r in range(SIZE))

# line, start, word as written, score, and the rack's tiles left after it (a `rack_number`)
Found = tuple[int, int, str, int, int]


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


def best_options(
    board: Board, rack: str, lexicon: Lexicon, value: Callable[[str], float], *, count: int = 1
) -> list[Option]:
    """The plays (with one blank choice, as `options`) of the `count` highest equities, their
    score plus the `value` of the tiles they keep, and those tied with them.

    With two blanks the search skips every word that cannot catch up with the `count` best
    plays found so far (ceiling.py): that search is ten to thirty times longer than with fewer
    blanks, where checking the bar would cost about what it saves."""
    if rack.count(BLANK) < 2:
        found = options(board, rack, lexicon, one_blank_choice=True)
        equities = [o.score + value(o.kept) for o in found]
        if not found:
            return []
        bar = sorted(equities, reverse=True)[min(count, len(found)) - 1]
        return [o for o, equity in zip(found, equities) if equity >= bar]
    ceiling = Ceiling(rack, value, count)
    with _collector_paused():
        found = [
            Option(item[3], item[4], way, item)
            for way, found in _search(board, rack, lexicon, True, ceiling)
            for item in found
        ]
        return [o for o in found if o.score + ceiling.kept(o.left) >= ceiling.bar]


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


def search_order(option: Option) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Where the search met a play before blanks were searched as wildcards, and still does
    for a rack without blanks: across before down, by line, by its first anchor, the length
    of its left part, then the letters it places (in alphabetical order, a blank after every
    letter). A computer player that takes the first of equal plays takes it in this order."""
    way = option.way
    line, start, word, _, _ = option.found
    row = way.rows[line]
    first = all(r == EMPTY * SIZE for r in way.rows)
    anchor = next(a for a in _anchors(row, way.cross[line], line, first)
                  if start <= a < start + len(word))
    placed = tuple(
        LETTERS.index(ch) if ch.isupper() else len(LETTERS) + LETTERS.index(ch.upper())
        for ch, square in zip(word, row[start:]) if square == EMPTY
    )
    return (0 if way.across else 1), line, anchor, anchor - start, placed


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
    board: Board, rack: str, lexicon: Lexicon, one_blank_choice: bool,
    ceiling: Ceiling | None = None,
) -> list[tuple[_Pass, list[Found]]]:
    """For each direction, across first, the plays found on its lines."""
    if not rack:
        return []
    root = lexicon.dawg
    first = board.is_empty()
    one_choice = one_blank_choice and BLANK in rack
    ways = [_prepare(board if across else board.transpose(), across, root)
            for across in (True, False)]
    blank = Blanks(rack) if one_choice else None
    # Two blanks make tens of thousands of left parts: a search after the best plays lays
    # them in place at each anchor instead, where the bar prunes them letter by letter.
    parts = None if ceiling else _LeftParts(root, rack, blank)
    with _collector_paused():
        out = []
        for way in ways:
            found: list[Found] = []
            for line in range(SIZE):
                _line(way, line, rack, root, first, blank, parts, found, ceiling)
            out.append((way, found))
        return out


# the letters as written (BLANK for a placed blank), node, rack letters left, blanks left, the
# rack left (a `rack_number`), the letters it can place next
LeftPart = tuple[str, Step, dict[str, int], int, int, frozenset[str]]


def _left_part(part: str, node: Step, counts: dict[str, int], blanks: int, key: int) -> LeftPart:
    letters = node.following() if isinstance(node, Wild) else node.keys()
    nexts = frozenset(letters if blanks else [x for x in letters if counts[x]])
    return part, node, counts, blanks, key, nexts


class _LeftParts:
    """The ways to start a word with the rack's tiles (left parts), made a length at a time
    as anchors need them, shortest first; and for each kind of anchor (its cross-check, the
    tiles just after it) those that fit it, found once: shared by every line of both
    directions."""

    def __init__(self, root: Node, rack: str, blank: Blanks | None) -> None:
        counts = {letter: rack.count(letter) for letter in LETTERS}
        self.parts = [_left_part("", root, counts, rack.count(BLANK), rack_number(rack))]
        self.newest = self.parts[:]  # the longest made so far
        self.longest = len(rack) - 1
        self.blank = blank
        # (cross-check, tiles after) -> [fitting parts, how many parts were looked at]
        self.fitting: dict[tuple[frozenset[str] | None, str], tuple[list[LeftPart], list[int]]] = {}

    def _grow(self, length: int) -> None:
        """Make the parts up to `length` letters (one letter more at a time)."""
        while self.newest and len(self.newest[0][0]) < min(length, self.longest):
            longer = []
            for part, node, counts, blanks, key, _ in self.newest:
                for letter, child in node.items():
                    if counts[letter]:
                        left = dict(counts)
                        left[letter] -= 1
                        longer.append(_left_part(part + letter, child, left, blanks,
                                                 key - WEIGHT[letter]))
                if not blanks:
                    continue
                if self.blank is None:  # a blank for each letter, in turn
                    for letter, child in node.items():
                        longer.append(_left_part(part + _LOWER[letter], child, counts,
                                                 blanks - 1, key - WEIGHT[BLANK]))
                elif (wild := self.blank.after(node, None)) is not None:
                    longer.append(_left_part(part + BLANK, wild, counts, blanks - 1,
                                             key - WEIGHT[BLANK]))
            self.parts.extend(longer)
            self.newest = longer

    def fit(self, allowed: frozenset[str] | None, run: str, limit: int) -> list[LeftPart]:
        """The fitting parts, those up to `limit` letters first (looked at once per kind)."""
        self._grow(limit)
        found, looked = self.fitting.setdefault((allowed, run), ([], [0]))
        parts = self.parts
        i = looked[0]
        while i < len(parts) and len(parts[i][0]) <= limit:
            if _fits(parts[i], allowed, run):
                found.append(parts[i])
            i += 1
        looked[0] = i
        return found


def _fits(part: LeftPart, allowed: frozenset[str] | None, run: str) -> bool:
    """Whether the part can place a letter on the anchor (in its cross-check) that goes on
    through the `run` of tiles after it (upper case)."""
    node, nexts = part[1], part[5]
    if allowed is not None:
        nexts = nexts & allowed
    if not run or not nexts:
        return bool(nexts)
    for one in node.nodes() if isinstance(node, Wild) else [node]:
        for letter in nexts:
            if walk(one.get(letter), run) is not None:
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


def _run_after(row: str, square: int) -> str:
    """The tiles just after an empty square, up to the next empty one, upper case."""
    end = square + 1
    while end < SIZE and row[end] != EMPTY:
        end += 1
    return row[square + 1 : end].upper()


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


def _line(  # noqa: C901, PLR0913, PLR0915 - one closure per step keeps the hot loop in locals
    way: _Pass,
    line: int,
    rack: str,
    root: Node,
    first: bool,
    blank: Blanks | None,
    parts: _LeftParts | None,
    found: list[Found],
    ceiling: Ceiling | None,
) -> None:
    """Append the plays along one line of `way` to `found`: all of them, or with a `ceiling`
    those that can still reach its bar (and some others on the way). With `blank`, blanks are
    searched as wildcards (one blank choice). Without `parts`, left parts are laid in place."""
    row = way.rows[line]
    crosses = way.cross[line]
    anchors = _anchors(row, crosses, line, first)
    if not anchors:
        return
    bonus_l, bonus_w = way.letter_bonus[line], way.word_bonus[line]
    value_of = _VALUE
    weight, blank_weight = WEIGHT, WEIGHT[BLANK]
    full_key = rack_number(rack)
    counts = {letter: rack.count(letter) for letter in _LETTERS}
    blanks = rack.count(BLANK)
    lower = _LOWER
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
    aheads: list[Reach | None] = [None] * (SIZE + 1)  # the ceiling's view of the line

    def most(pos: int, depth: int, score: int, mult: int, cross: int, key: int) -> float:
        """The most a word going on from `pos` could be worth (see `Ceiling.most`)."""
        assert ceiling is not None
        ahead = aheads[pos]
        if ahead is None:
            ahead = aheads[pos] = reach(row, crosses, bonus_l, bonus_w, pos)
        return ceiling.most(ahead, depth, score, mult, cross, key)

    def keep(end: int, word: str, score: int, key: int, node: Step) -> None:
        start = end - len(word)
        tiles = empties[end] - empties[start]
        if end - start < 2 or (tiles == 1 and skip_single):
            return
        if tiles >= BINGO_TILES:
            score += BINGO_BONUS
        found.append((line, start, node.word(word) if type(node) is Wild else word, score, key))
        if ceiling is not None:
            ceiling.found(score, key)

    def extend(  # noqa: PLR0913 - the search's state, passed down without allocating
        pos: int, node: Step, word: str, score: int, mult: int, cross: int, key: int
    ) -> None:
        """Extend `word` (which ends before `pos`) rightwards; keep it where it can end."""
        nonlocal blanks
        if ceiling is not None and most(pos, node.depth, score, mult, cross, key) < ceiling.bar:
            return
        if type(node) is Wild and len(node.members) == 1:  # one node left: go on from it
            word = node.written(word)
            node = node.members[0][0]
        while pos < SIZE and row[pos] != EMPTY:  # tiles already on the board
            ch = row[pos]
            node = node.get(ch.upper())  # type: ignore[assignment]
            if node is None:
                return
            word += ch
            score += value_of[ch]
            pos += 1
        if pos > anchor and node.end:
            keep(pos, word, score * mult + cross, key, node)
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
            only = None if check is None else check.allowed
            if check is not None:
                cross += check.base * wm
            if blank is None:  # the blank as each letter in turn
                for letter, child in node.items():
                    if (only is None or letter in only) and (not tile or tile in child):
                        extend(after, child, word + lower[letter], score, mult * wm, cross,
                               key - blank_weight)
            elif (wild := blank.after(node, only)) is not None and (not tile or tile in wild):
                extend(after, wild, word + BLANK, score, mult * wm, cross, key - blank_weight)
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
            through = walk(root, written.upper())
            if through is not None:
                extend(anchor, through, written, sum(value_of[ch] for ch in written), 1, 0,
                       full_key)
            previous = anchor
            continue
        limit = min(anchor - previous - 1, size - 1)
        previous = anchor
        if parts is None:  # laid from each square before the anchor
            for start in range(anchor - limit, anchor + 1):
                extend(start, root, "", 0, 1, 0, full_key)
            continue
        check = crosses[anchor]
        full, full_blanks = counts, blanks
        for part, node, counts, blanks, key, _ in parts.fit(
            None if check is None else check.allowed, _run_after(row, anchor), limit
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
    del extend  # it refers to itself: a cycle that would keep every Wild for the collector
