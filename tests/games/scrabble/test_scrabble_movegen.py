"""The DAWG move generator against the old prefix-set generator
(tests/games/scrabble/reference_movegen.py) on seeded random positions and racks: the same
plays, tiles, scores and order, with and without `one_blank_choice`; and the packaged DAWG
against the packaged word list."""

from __future__ import annotations

import io
import random

import pytest

from games.scrabble import Board, Lexicon, default_lexicon, movegen
from games.scrabble import dawg as dawg_module
from games.scrabble.tiles import FULL_SET
from tests.games.scrabble import reference_movegen as reference

ENABLE = default_lexicon()
# The old generator is slow with blanks on the whole list: most positions use short words.
# Two blanks branch 26 x 26 ways at every pair of squares: those racks use words of 2-3 letters.
SHORT = Lexicon((w for w in ENABLE.words if len(w) <= 4), name="short")
TINY = Lexicon((w for w in ENABLE.words if len(w) <= 3), name="tiny")


def random_position(rng: random.Random, lexicon: Lexicon, turns: int) -> Board:
    """A board after `turns` plays picked at random among all plays of random racks."""
    board = Board()
    bag = list(FULL_SET)
    rng.shuffle(bag)
    for _ in range(turns):
        rack = "".join(bag[:7])
        plays = [tiles for _, tiles in movegen.placements(board, rack, lexicon)]
        if plays:
            tiles = rng.choice(plays)
            board = board.place(tiles)
            for _, _, ch in tiles:
                bag.remove("?" if ch.islower() else ch)
        rng.shuffle(bag)
    return board


def random_rack(rng: random.Random, size: int, blanks: int) -> str:
    letters = [t for t in FULL_SET if t != "?"]
    return "".join(rng.sample(letters, size - blanks)) + "?" * blanks


def assert_same(board: Board, rack: str, lexicon: Lexicon) -> None:
    for one in (False, True):
        old = list(reference.generate(board, rack, lexicon, one_blank_choice=one))
        new = list(movegen.generate(board, rack, lexicon, one_blank_choice=one))
        assert len(new) == len(set(new)), (rack, one)
        assert set(new) == set(old), (board.text(), rack, one)
        placed = movegen.placements(board, rack, lexicon, one_blank_choice=one)
        assert {(play, tuple(tiles)) for play, tiles in placed} == {
            (play, scored.placements) for play, scored in old
        }
        best_first = sorted(
            ((scored.score, play) for play, scored in old),
            key=lambda item: (-item[0], str(item[1])),
        )
        assert movegen.scored_plays(board, rack, lexicon, one_blank_choice=one) == best_first
    assert movegen.has_play(board, rack, lexicon) == bool(old)


@pytest.mark.parametrize("seed", range(6))
def test_same_plays_as_the_old_generator_on_random_positions(seed):
    rng = random.Random(seed)
    board = random_position(rng, SHORT, turns=rng.choice([0, 1, 4, 8, 14]))
    for size, blanks in ((7, 0), (7, 1), (9, rng.choice([0, 1]))):
        assert_same(board, random_rack(rng, size, blanks), SHORT)
    assert_same(board, random_rack(rng, rng.choice([7, 9]), 2), TINY)


@pytest.mark.parametrize("seed", range(2))
def test_same_plays_with_the_whole_word_list(seed):
    rng = random.Random(100 + seed)
    board = random_position(rng, ENABLE, turns=8 * seed)
    assert_same(board, random_rack(rng, 7, seed), ENABLE)


def test_nine_tiles_and_blanks_on_the_empty_board_and_a_crowded_one():
    rng = random.Random(7)
    assert_same(Board(), "AEIRST??N", TINY)
    assert_same(Board(), "AEIRST?NO", SHORT)
    assert_same(random_position(rng, SHORT, turns=25), "AEIRST??N", TINY)


def test_a_blank_choice_is_kept_once_per_placement_with_its_first_letters():
    board = Board().place([(7, 7, "A"), (7, 8, "T")])
    lexicon = Lexicon(["AT", "BAT", "CAT", "EAT", "OAT", "ATE", "ATS", "TA", "BE"])
    every = list(movegen.generate(board, "?", lexicon))
    one = list(movegen.generate(board, "?", lexicon, one_blank_choice=True))
    assert {str(play) for play, _ in every} >= {"G8 across bAT", "G8 across cAT"}
    across = {str(play): scored.score for play, scored in one if play.across}
    assert across == {"G8 across bAT": 2, "H8 across ATe": 2}


def test_rack_of_nothing_has_no_play():
    assert list(movegen.placements(Board(), "", ENABLE)) == []
    assert not movegen.has_play(Board(), "", ENABLE)


def test_the_packaged_dawg_holds_exactly_the_packaged_words():
    assert set(dawg_module.words(ENABLE.dawg)) == ENABLE.words
    assert ENABLE.dawg.depth == max(map(len, ENABLE.words))


def test_a_dawg_survives_its_text_form_and_shares_suffixes():
    words = ["CAT", "CATS", "BAT", "BATS", "BE", "A"]
    root = dawg_module.build(words)
    text = io.StringIO()
    dawg_module.dump(root, text)
    loaded = dawg_module.load(text.getvalue())
    assert list(dawg_module.words(loaded)) == sorted(words)
    assert loaded["B"]["A"] is loaded["C"]["A"]  # -AT, -ATS stored once
    assert len(dawg_module.nodes(loaded)) == len(dawg_module.nodes(root))
    for graph in (root, loaded):  # the most letters that can follow
        assert (graph.depth, graph["B"].depth, graph["B"]["E"].depth, graph["A"].depth) == (
            4, 3, 0, 0)
