"""Finding every valid play for a rack (anchor-based, with the lexicon's prefix set).

For each line (rows, then columns via the transposed board) the generator works out, for each
empty square, which letters may go there given the tiles above and below it (cross-checks),
and which empty squares touch a tile (anchors; H8 on an empty board). It then extends words
rightwards from every square that starts a run, placing rack tiles only while the letters so
far are a prefix of some word, and keeps the words that use an anchor.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .board import Board
from .lexicon import Lexicon
from .moves import ACROSS, DOWN, Play
from .scoring import ScoredPlay, score_placements
from .tiles import BLANK, CENTRE, LETTERS, SIZE

_ALL = frozenset(LETTERS)


def generate(board: Board, rack: str, lexicon: Lexicon) -> Iterator[tuple[Play, ScoredPlay]]:
    """Yield every play `rack` can make on `board` whose words are all in `lexicon`.

    A play of one tile that forms words both ways is yielded once, as its across word.
    """
    if not rack:
        return
    seen_single: set[tuple[int, int, str]] = set()
    for across in (True, False):
        grid = board if across else board.transpose()
        for line, word, start, placed in _lines(grid, rack, lexicon, board.is_empty()):
            if across:
                play = Play(line, start, ACROSS, word)
                placements = [(line, c, ch) for c, ch in placed]
            else:
                play = Play(start, line, DOWN, word)
                placements = [(r, line, ch) for r, ch in placed]
            if len(placements) == 1:
                if placements[0] in seen_single:
                    continue
                seen_single.add(placements[0])
            yield play, score_placements(board, placements, across)


def has_play(board: Board, rack: str, lexicon: Lexicon) -> bool:
    return next(generate(board, rack, lexicon), None) is not None


def _lines(
    grid: Board, rack: str, lexicon: Lexicon, first_move: bool
) -> Iterator[tuple[int, str, int, list[tuple[int, str]]]]:
    """Across words in `grid`: (row, word, start col, [(col, char placed)])."""
    prefixes = lexicon.prefixes
    words = lexicon.words
    rows = grid.rows
    counts = Counter(rack)
    size = len(rack)

    for r in range(SIZE):
        row = rows[r]
        anchors = [False] * SIZE
        checks: list[frozenset[str] | None] = [None] * SIZE
        for c in range(SIZE):
            if row[c] != ".":
                continue
            if first_move:
                anchors[c] = (r, c) == CENTRE
                continue
            up = _column_run(rows, r, c, -1)
            down = _column_run(rows, r, c, 1)
            neighbour = bool(up or down) or (c > 0 and row[c - 1] != ".") or (
                c < SIZE - 1 and row[c + 1] != "."
            )
            anchors[c] = neighbour
            if up or down:
                checks[c] = frozenset(L for L in LETTERS if up + L + down in words)
        if not any(anchors):
            continue

        # Furthest start: a word must reach an anchor with at most `size` tiles placed.
        for start in range(SIZE):
            if start > 0 and row[start - 1] != ".":
                continue
            empties = 0
            reachable = False
            for c in range(start, SIZE):
                if row[c] == ".":
                    if anchors[c]:
                        reachable = True
                        break
                    empties += 1
                    if empties >= size:
                        break
            if not reachable:
                continue
            yield from (
                (r, word, start, placed)
                for word, placed in _extend(
                    row, start, "", [], counts, anchors, checks, prefixes, words, False
                )
            )


def _column_run(rows: tuple[str, ...], r: int, c: int, step: int) -> str:
    out = []
    r += step
    while 0 <= r < SIZE and rows[r][c] != ".":
        out.append(rows[r][c].upper())
        r += step
    return "".join(reversed(out)) if step < 0 else "".join(out)


def _extend(
    row: str,
    pos: int,
    prefix: str,
    placed: list[tuple[int, str]],
    counts: Counter[str],
    anchors: list[bool],
    checks: list[frozenset[str] | None],
    prefixes: frozenset[str],
    words: frozenset[str],
    anchored: bool,
) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    at_end = pos == SIZE or row[pos] == "."
    if at_end and anchored and len(prefix) >= 2 and prefix in words:
        # The word as written in notation: board letters as they stand, blanks lower case.
        start = pos - len(prefix)
        written = [row[start + i] for i in range(len(prefix))]
        for c, ch in placed:
            written[c - start] = ch
        yield "".join(written), list(placed)
    if pos == SIZE:
        return
    here = row[pos]
    if here != ".":
        nxt = prefix + here.upper()
        if nxt in prefixes:
            yield from _extend(
                row, pos + 1, nxt, placed, counts, anchors, checks, prefixes, words, anchored
            )
        return
    allowed = checks[pos]
    now_anchored = anchored or anchors[pos]
    for tile in list(counts):
        if counts[tile] <= 0:
            continue
        letters = LETTERS if tile == BLANK else tile
        for letter in letters:
            if allowed is not None and letter not in allowed:
                continue
            nxt = prefix + letter
            if nxt not in prefixes:
                continue
            counts[tile] -= 1
            placed.append((pos, letter.lower() if tile == BLANK else letter))
            yield from _extend(
                row, pos + 1, nxt, placed, counts, anchors, checks, prefixes, words,
                now_anchored,
            )
            placed.pop()
            counts[tile] += 1
