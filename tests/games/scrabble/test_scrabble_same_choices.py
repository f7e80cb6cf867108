"""Speeding up the move generator changes nothing a player sees: on seeded positions the
computer players choose the moves recorded from the generator before blanks were searched
as wildcards (data/choices.json, see record_choices.py), and on seeded random positions and
racks (0, 1 or 2 blanks, 7 or 9 tiles) every listing of plays equals the previous
generator's (previous_movegen.py)."""

from __future__ import annotations

import json
import random

import pytest

from games.scrabble import Board, choose_move, default_lexicon, movegen
from games.scrabble.scoring import place
from tests.games.scrabble import previous_movegen as previous
from tests.games.scrabble.record_choices import FILE, state_of, unplaced

ENTRIES = json.loads(FILE.read_text())
ENABLE = default_lexicon()


@pytest.mark.parametrize("n", range(len(ENTRIES)))
def test_every_level_chooses_the_recorded_move(n):
    entry = ENTRIES[n]
    state = state_of(entry)
    chosen = {level: str(choose_move(state, 0, level, seed=n)) for level in entry["chosen"]}
    assert chosen == entry["chosen"], entry["racks"]


def seeded_board(rng: random.Random, turns: int) -> Board:
    """A board after `turns` plays, each picked at random among the 20 best of a random rack
    (blanks included)."""
    board = Board()
    for _ in range(turns):
        pool = unplaced(board.text())
        rack = "".join(rng.sample(pool, 7))
        plays = movegen.scored_plays(board, rack, ENABLE, one_blank_choice=True)[:20]
        if plays:
            board = board.place(place(board, rng.choice(plays)[1]))
    return board


def assert_same_listings(board: Board, rack: str) -> None:
    for one in (False, True):
        old = previous.scored_plays(board, rack, ENABLE, one_blank_choice=one)
        assert movegen.scored_plays(board, rack, ENABLE, one_blank_choice=one) == old
        old_options = {(o.score, o.left, str(o.play()), o.scored())
                       for o in previous.options(board, rack, ENABLE, one_blank_choice=one)}
        new_options = [(o.score, o.left, str(o.play()), o.scored())
                       for o in movegen.options(board, rack, ENABLE, one_blank_choice=one)]
        assert len(new_options) == len(old_options) == len(old)
        assert set(new_options) == old_options
        placed = {(str(p), tuple(t)) for p, t in movegen.placements(board, rack, ENABLE,
                                                                      one_blank_choice=one)}
        assert placed == {(str(p), tuple(t)) for p, t in previous.placements(
            board, rack, ENABLE, one_blank_choice=one)}
    assert movegen.has_play(board, rack, ENABLE) == bool(old)


@pytest.mark.parametrize("seed", range(8))
def test_every_play_and_score_as_before(seed):
    rng = random.Random(seed)
    board = seeded_board(rng, rng.choice([0, 1, 3, 6, 10, 16]))
    pool = [t for t in unplaced(board.text()) if t != "?"]
    for size, blanks in ((7, 0), (7, 1), (7, 2), (9, seed % 3)):
        rack = "".join(rng.sample(pool, size - blanks)) + "?" * blanks
        assert_same_listings(board, rack)

