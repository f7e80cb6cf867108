"""The move generator as it was before the DAWG one (anchor-based, with the lexicon's prefix
set), kept as a slow but simple oracle: tests check the fast generator gives the same plays.

For each line (rows, then columns via the transposed board) the generator works out, for each
empty square, which letters may go there given the tiles above and below it (cross-checks),
and which empty squares touch a tile (anchors; H8 on an empty board). It then extends words
rightwards from every square that starts a run, placing rack tiles only while the letters so
far are a prefix of some word, and keeps the words that use an anchor.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from games.scrabble.board import Board
from games.scrabble.lexicon import Lexicon
from games.scrabble.moves import ACROSS, DOWN, Play
from games.scrabble.scoring import Placement, ScoredPlay, score_placements
from games.scrabble.tiles import BLANK, CENTRE, LETTERS, SIZE


def placements(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> Iterator[tuple[Play, list[Placement]]]:
    """Yield every play `rack` can make on `board` whose words are all in `lexicon`, with
    its new tiles. A one-tile play forming words both ways is yielded once, across.

    With `one_blank_choice`, plays that put the same tiles on the same squares and differ only
    in the letters their blanks stand for are yielded once: a blank scores 0 whatever it is,
    so they share their score and their leave (what a computer player needs)."""
    if not rack:
        return
    empty = board.is_empty()
    seen_single: set[Placement] = set()
    seen_shapes: set[frozenset[Placement]] = set()
    for across in (True, False):
        grid = board if across else board.transpose()
        for line in range(SIZE):
            for start, word, placed in _line_words(grid, line, rack, lexicon, empty):
                if across:
                    play = Play(line, start, ACROSS, word)
                    tiles = [(line, c, ch) for c, ch in placed]
                else:
                    play = Play(start, line, DOWN, word)
                    tiles = [(r, line, ch) for r, ch in placed]
                if len(tiles) == 1:
                    if tiles[0] in seen_single:
                        continue
                    seen_single.add(tiles[0])
                if one_blank_choice and any(ch.islower() for _, _, ch in tiles):
                    shape = frozenset((r, c, ch if ch.isupper() else BLANK) for r, c, ch in tiles)
                    if shape in seen_shapes:
                        continue
                    seen_shapes.add(shape)
                yield play, tiles


def generate(
    board: Board, rack: str, lexicon: Lexicon, *, one_blank_choice: bool = False
) -> Iterator[tuple[Play, ScoredPlay]]:
    """Every valid play with its score (see `placements`)."""
    for play, tiles in placements(board, rack, lexicon, one_blank_choice=one_blank_choice):
        yield play, score_placements(board, tiles, play.across)


def has_play(board: Board, rack: str, lexicon: Lexicon) -> bool:
    return next(placements(board, rack, lexicon), None) is not None


def _column_run(rows: tuple[str, ...], r: int, c: int, step: int) -> str:
    out = []
    r += step
    while 0 <= r < SIZE and rows[r][c] != ".":
        out.append(rows[r][c].upper())
        r += step
    return "".join(reversed(out)) if step < 0 else "".join(out)


def _line_words(
    grid: Board, r: int, rack: str, lexicon: Lexicon, first_move: bool
) -> list[tuple[int, str, list[tuple[int, str]]]]:
    """Across words on row `r` of `grid`: (start col, word as written, [(col, char)])."""
    rows = grid.rows
    row = rows[r]
    anchors = [False] * SIZE
    checks: list[frozenset[str] | None] = [None] * SIZE
    words = lexicon.words
    for c in range(SIZE):
        if row[c] != ".":
            continue
        if first_move:
            anchors[c] = (r, c) == CENTRE
            continue
        up = _column_run(rows, r, c, -1)
        down = _column_run(rows, r, c, 1)
        if up or down:
            anchors[c] = True
            checks[c] = frozenset(L for L in LETTERS if up + L + down in words)
        else:
            anchors[c] = (c > 0 and row[c - 1] != ".") or (c < SIZE - 1 and row[c + 1] != ".")
    if not any(anchors):
        return []

    next_letters = lexicon.next_letters
    counts = dict(Counter(rack))
    size = len(rack)
    found: list[tuple[int, str, list[tuple[int, str]]]] = []
    placed: list[tuple[int, str]] = []
    upper = [ch.upper() for ch in row]

    def extend(pos: int, prefix: str, anchored: bool) -> None:
        if (pos == SIZE or row[pos] == ".") and anchored and len(prefix) >= 2 and (
            prefix in words
        ):
            start = pos - len(prefix)
            written = list(row[start:pos])
            for c, ch in placed:
                written[c - start] = ch
            found.append((start, "".join(written), list(placed)))
        if pos == SIZE:
            return
        if row[pos] != ".":
            if upper[pos] in next_letters(prefix):
                extend(pos + 1, prefix + upper[pos], anchored)
            return
        allowed = checks[pos]
        anchored = anchored or anchors[pos]
        blanks = counts.get(BLANK, 0)
        for letter in next_letters(prefix):
            if allowed is not None and letter not in allowed:
                continue
            left = counts.get(letter, 0)
            if left:
                counts[letter] = left - 1
                placed.append((pos, letter))
                extend(pos + 1, prefix + letter, anchored)
                placed.pop()
                counts[letter] = left
            if blanks:
                counts[BLANK] = blanks - 1
                placed.append((pos, letter.lower()))
                extend(pos + 1, prefix + letter, anchored)
                placed.pop()
                counts[BLANK] = blanks

    for start in range(SIZE):
        if start > 0 and row[start - 1] != ".":
            continue
        # A word must reach an anchor with at most `size` tiles placed.
        empties = 0
        for c in range(start, SIZE):
            if row[c] == ".":
                if anchors[c]:
                    extend(start, "", False)
                    break
                empties += 1
                if empties >= size:
                    break
    return found
