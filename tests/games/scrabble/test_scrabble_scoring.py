"""Scrabble scoring: the six worked examples of the rules, each set up from text, and the
other scoring rules (blanks, premiums used once, bingo in both rack sizes)."""

from __future__ import annotations

import pytest

from games.scrabble import Board, Lexicon, Play, apply, evaluate, position, premium

EMPTY = "\n".join(["." * 15] * 15)


def board(*rows: tuple[int, str]) -> str:
    """A board text from (row number, 15-character row) pairs; other rows empty."""
    lines = ["." * 15] * 15
    for number, row in rows:
        assert len(row) == 15
        lines[number - 1] = row
    return "\n".join(lines)


def score(text: str, play: str, rack: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    scored = evaluate(Board.parse(text), Play.parse(play), rack)
    return scored.score, scored.words


def test_premium_layout_is_symmetric_and_complete():
    counts: dict[str | None, int] = {}
    for r in range(15):
        for c in range(15):
            p = premium(r, c)
            counts[p] = counts.get(p, 0) + 1
            assert premium(c, r) == p == premium(14 - r, c) == premium(r, 14 - c)
    assert counts == {"TW": 8, "DW": 17, "TL": 12, "DL": 24, None: 225 - 61}
    assert premium(7, 7) == "DW"


def test_example_1_train_first_word():
    # T on the double letter D8, the word across the centre star: (2+1+1+1+1) x 2 = 12.
    assert score(EMPTY, "D8 across TRAIN", "AINRTEE") == (12, (("TRAIN", 12),))


def test_example_2_trainer_to_strainers():
    # TRAINER already covers D8 and H8; the first S lands on the triple word A8: 9 x 3 = 27.
    text = board((8, ".TRAINER......."))
    assert score(text, "A8 across STRAINERS", "SSEEDOT") == (27, (("STRAINERS", 27),))


def test_example_3_throb_through_a_t():
    # HROB down through the T of STRAINERS, R on the triple letter B10: 1+4+3+1+3 = 12.
    text = board((8, "STRAINERS......"))
    assert score(text, "B8 down THROB", "HROBXYZ") == (12, (("THROB", 12),))


def test_example_4_hob_parallel():
    # HOB above I N E of STRAINERS, B on the double letter G7: 11 + HI 5 + ON 2 + BE 7 = 25.
    text = board(
        (8, "STRAINERS......"),
        (9, ".H............."),
        (10, ".R............."),
        (11, ".O............."),
        (12, ".B............."),
    )
    total, words = score(text, "E7 across HOB", "BHOQQQQ")
    assert words == (("HOB", 11), ("HI", 5), ("ON", 2), ("BE", 7))
    assert total == 25


def test_example_5_s_makes_strainer_and_throbs():
    # H R O B S laid down from the T of TA on A3: THROBS has its H on the double letter A4
    # and its S on the triple word A8, and that S also makes STRAINER: 45 + 24 = 69.
    # (The H premium can only count if the H is laid in this turn, so it is.)
    text = board((3, "TA............."), (8, ".TRAINER......."))
    total, words = score(text, "A3 down THROBS", "BHORSEE")
    assert words == (("THROBS", 45), ("STRAINER", 24))
    assert total == 69


def test_example_6_conquest_two_triple_words():
    # C O N Q U E S T along row 1 from A1 to H1: C on A1 and T on H1 (triple words), Q on the
    # double letter D1; O N and E S already stand. (19 + 10) x 3 x 3 = 261.
    text = board((1, ".ON..ES........"), (2, ".........T....."))
    assert score(text, "A1 across CONQUEST", "CQTUAAA") == (261, (("CONQUEST", 261),))


def test_worked_example_sequence_through_apply():
    """The first four examples as a game, scores accumulating on the seats."""
    lexicon = Lexicon(["TRAIN", "TRAINER", "STRAINERS", "THROB", "HOB", "HI", "ON", "BE"])
    state = position(EMPTY, ["AINRTAA", "ERSSAAA"], turn=0, options={"challenge": "void"})
    state = apply(state, 0, Play.parse("D8 across TRAIN"), lexicon=lexicon)
    assert state.scores == (12, 0)
    state = apply(state, 1, Play.parse("D8 across TRAINER"), lexicon=lexicon)
    # E on I8, R on J8: no premiums there, TRAIN's D8 and H8 are not counted again.
    assert state.scores == (12, 7)
    assert state.last_play.words == (("TRAINER", 7),)


def test_blank_scores_zero_but_keeps_word_premium():
    # A blank on the centre star still doubles the word; a blank on a letter premium is 0.
    assert score(EMPTY, "G8 across zA", "?A") == (2, (("ZA", 2),))
    assert score(EMPTY, "E8 across qUIZ", "?UIZ") == (24, (("QUIZ", 24),))
    assert score(EMPTY, "E8 across QUIZ", "QUIZ") == (44, (("QUIZ", 44),))


def test_blank_on_board_counts_zero_in_later_words():
    text = board((8, "...qUIZ........"))
    assert score(text, "D8 down qI", "I") == (1, (("QI", 1),))
    # Letters already on the board may be written in either case.
    assert score(text, "D8 down QI", "I")[0] == 1


def test_premiums_count_in_both_words():
    # X on the triple letter J10 counts tripled in both directions: XI and XU.
    text = board((10, "..........I...."), (11, ".........U....."))
    total, words = score(text, "J10 down XU", "XAB")
    assert words == (("XU", 25), ("XI", 25))
    assert total == 50


def test_two_double_words_quadruple():
    # B2 and N2 are both double words: a D and an S laid around RAINPROOFED on row 2 cover
    # both, so the word counts four times (the triple letters F2 and J2 are not new).
    text = board((2, "..RAINPROOFED.."))
    assert evaluate(Board.parse(text), Play.parse("B2 across DRAINPROOFEDS"), "DS").score == (
        (2 + 1 + 1 + 1 + 1 + 3 + 1 + 1 + 1 + 4 + 1 + 2 + 1) * 4
    )


def test_bingo_seven_tiles_after_multipliers():
    scored = evaluate(Board(), Play.parse("H8 across RETAINS"), "AEINRST")
    # H8 to N8: the centre doubles the word, the I on L8 is a double letter.
    assert scored.bingo
    assert scored.score == (1 + 1 + 1 + 1 + 2 + 1 + 1) * 2 + 50


def test_going_out_with_fewer_than_seven_has_no_bingo():
    scored = evaluate(Board(), Play.parse("H8 across RETAIN"), "AEINRT")
    assert not scored.bingo
    assert scored.score == (1 + 1 + 1 + 1 + 2 + 1) * 2


@pytest.mark.parametrize("word", ["RETAINER", "ANTISERA"])
def test_nine_tile_bingo_for_eight_tiles(word):
    # G8 to N8 (not H8: eight letters from H8 would reach the triple word O8).
    scored = evaluate(Board(), Play.parse(f"G8 across {word}"), "AAEEINRRST")
    assert scored.bingo and len(scored.placements) == 8
    letters = sum({"R": 1, "E": 1, "T": 1, "A": 1, "I": 1, "N": 1, "S": 1}[c] for c in word)
    assert scored.score == (letters + 1) * 2 + 50  # the letter on L8 is doubled
