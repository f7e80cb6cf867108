"""Speeding up the move generator changes nothing a player sees: on seeded positions the
computer players choose the moves recorded from the generator before blanks were searched
as wildcards (data/choices.json, see record_choices.py), and on seeded random positions and
racks (0, 1 or 2 blanks, 7 or 9 tiles) every listing of plays equals the previous
generator's (previous_movegen.py); `best_options` gives exactly the plays of highest equity
among them, and `search_order` the order the previous generator found them in."""

from __future__ import annotations

import json
import random

import pytest

from games.scrabble import Board, choose_move, default_lexicon, movegen
from games.scrabble.leave import leave_value
from games.scrabble.scoring import place
from games.scrabble.tiles import rack_value
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


def seeded_racks(rng: random.Random, board: Board) -> list[str]:
    """Racks of 7 tiles with 0, 1 and 2 blanks and of 9 with 2, of tiles not on the board."""
    pool = [t for t in unplaced(board.text()) if t != "?"]
    return ["".join(rng.sample(pool, size - blanks)) + "?" * blanks
            for size, blanks in ((7, 0), (7, 1), (7, 2), (9, 2))]


# what computer players weigh the tiles kept by: the hard and normal levels' leave, nothing
# (the best score, as the end-of-match analysis), and the end of the game (going out pays)
VALUES = {
    "leave": leave_value,
    "half leave": lambda kept: 0.5 * leave_value(kept),
    "score only": lambda kept: 0.0,
    "bag empty": lambda kept: -2.0 * rack_value(kept) if kept else 25.0,
}


def listed(found) -> set[tuple[int, int, str]]:
    return {(o.score, o.left, str(o.play())) for o in found}


@pytest.mark.parametrize("seed", range(6))
def test_best_options_are_exactly_the_plays_of_highest_equity(seed):
    rng = random.Random(50 + seed)
    board = seeded_board(rng, rng.choice([0, 1, 4, 8, 14]))
    for rack in seeded_racks(rng, board):
        every = previous.options(board, rack, ENABLE, one_blank_choice=True)
        for name, value in VALUES.items():
            equities = sorted((o.score + value(o.kept) for o in every), reverse=True)
            for count in (1, 8):
                bar = equities[min(count, len(equities)) - 1] if every else 0.0
                best = [o for o in every if o.score + value(o.kept) >= bar]
                found = movegen.best_options(board, rack, ENABLE, value, count=count)
                assert listed(found) == listed(best), (board.text(), rack, name, count)


@pytest.mark.parametrize("seed", range(3))
def test_search_order_is_the_order_the_previous_generator_found_plays_in(seed):
    rng = random.Random(70 + seed)
    board = seeded_board(rng, rng.choice([0, 5, 12]))
    for rack in seeded_racks(rng, board)[:3]:
        for one in (False, True):
            old = previous.options(board, rack, ENABLE, one_blank_choice=one)
            order = [movegen.search_order(o) for o in old]
            assert order == sorted(set(order))  # increasing: one key per play
            new = movegen.options(board, rack, ENABLE, one_blank_choice=one)
            ranked = sorted(new, key=movegen.search_order)
            assert [(o.score, o.left, str(o.play())) for o in ranked] == [
                (o.score, o.left, str(o.play())) for o in old]
            if "?" not in rack:  # without blanks the search still meets them in that order
                assert [str(o.play()) for o in new] == [str(o.play()) for o in old]
