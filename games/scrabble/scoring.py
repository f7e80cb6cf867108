"""Checking a play against the board and a rack, and scoring it.

Pure functions over `Board` values; the engine (`engine.py`) adds turns, the bag and
challenges. Every rejection is an `IllegalMove` subclass with a key and values that the bot
words as a message a player can act on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Protocol

from games.common import IllegalMove, shown

from .board import Board
from .moves import Play
from .tiles import (
    BINGO_BONUS,
    BLANK,
    CENTRE,
    LETTER_MULTIPLIER,
    PREMIUMS,
    SIZE,
    WORD_MULTIPLIER,
    square_name,
    tile_value,
)

BINGO_TILES = 7  # tiles placed in one turn that earn the bingo (7, 8 or 9 with 9-tile racks)


class InvalidPlacement(IllegalMove):
    """The tiles cannot go where the play puts them."""


class MissingTiles(IllegalMove):
    """The play needs tiles the player does not hold."""


class UnknownWord(IllegalMove):
    """A word the play forms is not in the lexicon."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = tuple(words)
        super().__init__("scrabble.unknown_words", words=list(self.words))


Placement = tuple[int, int, str]  # row, col, char as it stands on the board (lower = blank)


@dataclass(frozen=True)
class ScoredPlay:
    """A play that fits the board: its new tiles, the words it forms and their scores."""

    placements: tuple[Placement, ...]
    words: tuple[tuple[str, int], ...]  # main word first, then cross words in reading order
    bingo: bool
    score: int

    @property
    def rack_tiles(self) -> str:
        """The tiles it takes from a rack: letters, and `?` for each blank."""
        return "".join(BLANK if ch.islower() else ch for _, _, ch in self.placements)

    @property
    def squares(self) -> tuple[str, ...]:
        return tuple(square_name(r, c) for r, c, _ in self.placements)


def place(board: Board, play: Play) -> tuple[Placement, ...]:
    """The new tiles of `play`, after every geometric rule: on the board, letters already on
    the board matching, the whole word written, at least one tile placed, the centre covered
    on the first move or the word touching a tile later."""
    squares = play.squares()
    last_row, last_col = squares[-1]
    if last_row >= SIZE or last_col >= SIZE:
        raise InvalidPlacement("scrabble.runs_off", word=shown(play.word),
                               direction=play.direction, square=play.square)
    dr, dc = (0, 1) if play.across else (1, 0)

    placements: list[Placement] = []
    for (r, c), ch in zip(squares, play.word):
        standing = board[r, c]
        if standing is None:
            placements.append((r, c, ch))
        elif standing.upper() != ch.upper():
            raise InvalidPlacement("scrabble.taken", square=square_name(r, c),
                                   tile=standing.upper())

    before = _run(board, play.row - dr, play.col - dc, -dr, -dc)[::-1]
    after = _run(board, last_row + dr, last_col + dc, dr, dc)
    if before or after:
        whole = "".join(board.tile(square) for square in before) + play.word
        whole += "".join(board.tile(square) for square in after)
        start = before[0] if before else (play.row, play.col)
        touching = before[-1] if before else after[0]
        raise InvalidPlacement("scrabble.runs_on", square=square_name(*touching),
                               tile=board.tile(touching).upper(), start=square_name(*start),
                               direction=play.direction, whole=whole)
    if not placements:
        raise InvalidPlacement("scrabble.already_on_board", word=play.word.upper())

    if board.is_empty():
        if CENTRE not in squares:
            raise InvalidPlacement("scrabble.centre")
    elif len(placements) == len(squares) and not any(
        board.occupied(r + ar, c + ac)
        for r, c, _ in placements
        for ar, ac in ((0, 1), (0, -1), (1, 0), (-1, 0))
    ):
        raise InvalidPlacement("scrabble.not_touching")
    return tuple(placements)


def _run(board: Board, r: int, c: int, dr: int, dc: int) -> list[tuple[int, int]]:
    """Occupied squares from (r, c) stepping by (dr, dc) until an empty square or the edge."""
    out = []
    while board.occupied(r, c):
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


def check_rack(rack: str, placements: Sequence[Placement]) -> None:
    """Raise MissingTiles unless `rack` holds every tile the placements need."""
    check_tiles(rack, "".join(BLANK if ch.islower() else ch for _, _, ch in placements))


def check_tiles(rack: str, tiles: str, *, exchange: bool = False) -> None:
    """Raise MissingTiles unless `rack` holds `tiles` (letters, `?` for a blank).

    The first tile found short is named: `scrabble.no_tile` (none at all) or
    `scrabble.too_few` (`have`, `need`), with `tile` and whether it is for an `exchange`.
    """
    have = Counter(rack)
    need: Counter[str] = Counter()
    for tile in tiles:
        need[tile] += 1
        if need[tile] > have[tile]:
            if have[tile] == 0:
                raise MissingTiles("scrabble.no_tile", tile=tile, exchange=exchange)
            raise MissingTiles("scrabble.too_few", tile=tile, have=have[tile],
                               need=tiles.count(tile), exchange=exchange)


def score_placements(
    board: Board, placements: Sequence[Placement], across: bool
) -> ScoredPlay:
    """Score new tiles laid in one line (`across` says which way the main word reads)."""
    new = {(r, c): ch for r, c, ch in placements}
    grid = board.place(placements)
    words: list[tuple[str, int]] = []

    r0, c0, _ = placements[0]
    main = _word_through(grid, r0, c0, across)
    if len(main) >= 2:
        words.append(_score_word(grid, main, new))
    for r, c, _ in placements:
        cross = _word_through(grid, r, c, not across)
        if len(cross) >= 2:
            words.append(_score_word(grid, cross, new))

    bingo = len(placements) >= BINGO_TILES
    total = sum(score for _, score in words) + (BINGO_BONUS if bingo else 0)
    return ScoredPlay(tuple(placements), tuple(words), bingo, total)


def _word_through(grid: Board, r: int, c: int, across: bool) -> list[tuple[int, int]]:
    dr, dc = (0, 1) if across else (1, 0)
    back = _run(grid, r - dr, c - dc, -dr, -dc)[::-1]
    return back + _run(grid, r, c, dr, dc)


def _score_word(
    grid: Board, squares: Sequence[tuple[int, int]], new: dict[tuple[int, int], str]
) -> tuple[str, int]:
    """Letter premiums first, then word premiums, both only for newly covered squares."""
    letters = 0
    multiplier = 1
    for r, c in squares:
        value = tile_value(grid.tile((r, c)))
        if (r, c) in new:
            bonus = PREMIUMS[r][c]
            value *= LETTER_MULTIPLIER.get(bonus or "", 1)
            multiplier *= WORD_MULTIPLIER.get(bonus or "", 1)
        letters += value
    word = "".join(grid.tile(square) for square in squares).upper()
    return word, letters * multiplier


def evaluate(board: Board, play: Play, rack: str | None = None) -> ScoredPlay:
    """Place, check against `rack` (when given) and score `play`. Words are not looked up."""
    placements = place(board, play)
    if rack is not None:
        check_rack(rack, placements)
    return score_placements(board, placements, play.across)


class _HasWords(Protocol):
    @property
    def words(self) -> tuple[tuple[str, int], ...]: ...


def unknown_words(scored: _HasWords, lexicon: Container[str]) -> list[str]:
    """The words of a play that the lexicon lacks, each once, in order.

    `scored` is a ScoredPlay, or anything else with its `words` (a PlayRecord).
    """
    out: list[str] = []
    for word, _ in scored.words:
        if word not in lexicon and word not in out:
            out.append(word)
    return out
