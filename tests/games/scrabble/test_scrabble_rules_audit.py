"""An audit of the engine against /work/shared/rules/scrabble.md, rule by rule.

Each test names the rule it checks. Rules already pinned elsewhere (the six worked examples,
challenges, the opening draw, ...) are not repeated here; these tests fill the gaps the audit
found, pin the readings chosen where the rules are ambiguous, and cover the one divergence
found (an exchange in a 9-tile game with fewer tiles in the bag than were put back).
"""

from __future__ import annotations

import json

import pytest

from games.common import IllegalMove
from games.scrabble import (
    COUNTS,
    EXCHANGE_MIN_BAG,
    VALUES,
    Board,
    CannotExchange,
    Exchange,
    InvalidPlacement,
    Lexicon,
    Pass,
    Play,
    State,
    apply,
    evaluate,
    legal_moves,
    outcome,
    parse_move,
    position,
    premium,
)
from games.scrabble.tiles import FULL_SET, parse_square, sort_tiles

LEX = Lexicon(["QUIZ", "QI", "AT", "TA", "ZA", "AX", "XI"])
EMPTY = "\n".join(["." * 15] * 15)
QUIZ = "\n".join(["." * 15] * 7 + [".......QUIZ...."] + ["." * 15] * 7)


def board(*rows: tuple[int, str]) -> str:
    """A board text from (row number, 15-character row) pairs; other rows empty."""
    lines = ["." * 15] * 15
    for number, row in rows:
        lines[number - 1] = row.ljust(15, ".")
    return "\n".join(lines)


def act(state: State, seat: int, text: str, lexicon: Lexicon = LEX) -> State:
    after = apply(state, seat, parse_move(text), lexicon=lexicon)
    assert after.tile_count() == state.tile_count()
    again = State.from_dict(json.loads(json.dumps(after.to_dict())))
    assert again == after
    return again


# --- Components -----------------------------------------------------------------------------


def test_letter_values_as_listed():
    # "0 blank; 1 A E I L N O R S T U; 2 D G; 3 B C M P; 4 F H V W Y; 5 K; 8 J X; 10 Q Z."
    listed = {0: "?", 1: "AEILNORSTU", 2: "DG", 3: "BCMP", 4: "FHVWY", 5: "K", 8: "JX",
              10: "QZ"}
    expected = {tile: value for value, tiles in listed.items() for tile in tiles}
    assert VALUES == expected


def test_letter_counts_as_listed():
    # "A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1, blank 2"
    listed = ("A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1 "
              "?2")
    expected = {item[0]: int(item[1:]) for item in listed.split()}
    assert COUNTS == expected
    assert len(FULL_SET) == 100 and FULL_SET.count("?") == 2


def test_premium_squares_exactly_as_listed():
    listed = {
        "TW": "A1 H1 O1 A8 O8 A15 H15 O15",
        "DW": "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
        "TL": "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14",
        "DL": "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 "
              "L15",
    }
    expected = {parse_square(sq): kind for kind, squares in listed.items()
                for sq in squares.split()}
    actual = {(r, c): premium(r, c) for r in range(15) for c in range(15) if premium(r, c)}
    assert actual == expected


def test_a_blank_keeps_its_letter_once_played():
    # The blank on H8 stands for Q for the rest of the game: it cannot be read as another letter.
    text = board((8, ".......qUIZ"))
    with pytest.raises(InvalidPlacement, match="^scrabble.taken$") as refused:
        evaluate(Board.parse(text), Play.parse("H8 down ZA"), "A")
    assert refused.value.values == {"square": "H8", "tile": "Q"}
    assert evaluate(Board.parse(text), Play.parse("H8 down QI"), "I").words == (("QI", 1),)


# --- Set-up and refilling -------------------------------------------------------------------


def test_refill_only_while_the_bag_has_tiles():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"], bag="BC", options={"challenge": "void"})
    state = act(state, 0, "H8 across QUIZ")
    assert state.racks[0] == "AAABC" and state.bag == ""
    assert outcome(state) is None  # the rack is not empty: nobody went out


# --- Exchanges and passes -------------------------------------------------------------------


def test_exchange_draws_before_the_tiles_go_back():
    # "the returned tiles go back into the bag after the new ones are drawn": the new tiles
    # are the first ones of the bag, never the ones just put back.
    state = position(QUIZ, ["AAEEIOU", "TTTTTTA"], bag="BCDFGHJ")
    after = act(state, 0, "exchange AAEEIOU")
    assert after.racks[0] == "BCDFGHJ"
    assert sort_tiles(after.bag) == "AAEEIOU"
    assert after.scores == (0, 0) and after.turn == 1


def test_nine_tile_exchange_keeps_a_full_rack():
    # 9-tile Scrabble is "exactly as above": an exchange needs 7 tiles in the bag and swaps
    # tiles one for one. With 7 in the bag a player may swap up to 7 of their 9 tiles; putting
    # back more than the bag can replace would leave the rack short, so it is refused.
    state = position(QUIZ, ["AEEIOUURS", "TTTTTTAAA"], bag="BCDFGHJ", options={"tiles": 9})
    with pytest.raises(CannotExchange, match="^scrabble.exchange_too_many$") as refused:
        apply(state, 0, Exchange("AEEIOUURS"), lexicon=LEX)
    assert refused.value.values == {"bag": 7}
    with pytest.raises(CannotExchange):
        apply(state, 0, Exchange("AEEIOUUR"), lexicon=LEX)
    after = act(state, 0, "exchange AEEIOUU")
    assert after.racks[0] == "BCDFGHJRS" and len(after.bag) == 7
    exchanges = [m for m in legal_moves(state, 0, lexicon=LEX) if isinstance(m, Exchange)]
    assert exchanges and max(len(m.tiles) for m in exchanges) == EXCHANGE_MIN_BAG
    # With a bigger bag the whole rack may go back.
    roomy = position(QUIZ, ["AEEIOUURS", "TTTTTTAAA"], options={"tiles": 9})
    assert len(act(roomy, 0, "exchange AEEIOUURS").racks[0]) == 9


def test_pass_is_allowed_even_with_a_play_available():
    state = position(QUIZ, ["IAAEEOU", "TTTTTTA"])
    assert any(isinstance(m, Play) for m in legal_moves(state, 0, lexicon=LEX))
    assert Pass() in legal_moves(state, 0, lexicon=LEX)
    after = act(state, 0, "pass")
    assert after.scores == (0, 0) and after.turn == 1 and outcome(after) is None


# --- The five ways a play can form words: the literal readings of examples 5 and 6 ----------


def test_adding_one_letter_that_extends_a_word_and_forms_another():
    # The literal "S of THROBS also making STRAINER": only the S is laid, on the triple word A8.
    # The H of THROB already sits on the double letter A4 and is not doubled again, so the play
    # scores 33 + 24 = 57, not the worked example's 69 (see test_scrabble_scoring for the
    # reading that reaches 69: H R O B S all laid this turn).
    text = board((3, "T"), (4, "H"), (5, "R"), (6, "O"), (7, "B"), (8, ".TRAINER"))
    scored = evaluate(Board.parse(text), Play.parse("A3 down THROBS"), "S")
    assert scored.placements == ((7, 0, "S"),)
    assert scored.words == (("THROBS", 33), ("STRAINER", 24)) and scored.score == 57


def test_joining_letters_already_on_the_board():
    # The literal "N and S placed around CO, QUE and T -> CONQUEST" on row 1: N on C1 and S on
    # G1 cover no premium, and the premiums under C, Q and T were used when they were laid:
    # 19. The worked example's 261 needs C, Q and T laid this turn (test_scrabble_scoring).
    text = board((1, "CO.QUE.T"), (2, ".........T"))
    scored = evaluate(Board.parse(text), Play.parse("A1 across CONQUEST"), "NS")
    assert scored.squares == ("C1", "G1")
    assert scored.words == (("CONQUEST", 19),) and scored.score == 19


# --- Bingo ----------------------------------------------------------------------------------


def test_bingo_through_apply_only_with_seven_tiles():
    lexicon = Lexicon(["RETAINS", "RETAIN"])
    state = position(EMPTY, ["AEINRST", "EEEEEEE"], options={"challenge": "void"})
    after = act(state, 0, "H8 across RETAINS", lexicon)
    # H8 doubles the word, the I on L8 is a double letter: 8 x 2 + 50.
    assert after.last_play.bingo and after.scores == (16 + 50, 0)
    # Going out with six tiles at the end earns no bingo.
    short = position(EMPTY, ["AEINRT", "EEEEEEE"], bag="", options={"challenge": "void"})
    done = act(short, 0, "H8 across RETAIN", lexicon)
    assert not done.last_play.bingo
    assert outcome(done).details["before"] == [14, 0]


def test_nine_tile_bingo_for_nine_and_seven_tiles_but_not_six():
    # D8 to L8: both S on the double letters D8 and L8, the centre doubles the word.
    nine = evaluate(Board(), Play.parse("D8 across STRAINERS"), "AEINRRSST")
    assert nine.bingo and len(nine.placements) == 9 and nine.score == 11 * 2 + 50
    lexicon = Lexicon(["RETAINS", "RETAIN"])
    state = position(EMPTY, ["AEINRSTEE", "EEEEEEEEE"], options={"tiles": 9,
                                                                 "challenge": "void"})
    assert act(state, 0, "H8 across RETAINS", lexicon).scores == (16 + 50, 0)
    assert act(state, 0, "H8 across RETAIN", lexicon).scores == (14, 0)


# --- The end of the game --------------------------------------------------------------------


def test_out_example_x_and_a():
    # "a player left with X and A loses 9, and the player who went out gains 9."
    state = position(EMPTY, ["AT", "AX"], bag="", options={"challenge": "void"})
    result = outcome(act(state, 0, "H8 across AT"))
    assert result.details["adjustments"] == [9, -9]
    assert result.scores == (4 + 9, -9) and result.winners == (0,)


def test_out_player_gains_everyone_elses_tiles():
    state = position(EMPTY, ["AT", "QV", "E?"], bag="", scores=(0, 30, 0),
                     options={"challenge": "void"})
    result = outcome(act(state, 0, "H8 across AT"))
    assert result.details["adjustments"] == [14 + 1, -14, -1]
    assert result.scores == (19, 16, -1) and result.winners == (0,)


def test_a_tie_on_both_counts_is_shared():
    state = position(QUIZ, ["E", "E"], bag="", scores=(10, 10))
    result = outcome(act(state, 0, "pass"))  # nobody can play: the game ends
    assert result.reason == "blocked"
    assert result.scores == (9, 9) and result.winners == (0, 1) and result.draw
    assert result.details["tiebreak"]


def test_passes_count_again_after_any_play():
    # "every player has passed twice in a row": counted per player over their own turns; after
    # a play every player must pass twice more (here seats 0 and 1 already had two passes
    # each when seat 2 played, and the game still needs six passes after that play).
    state = position(QUIZ, ["AEEOUUV", "TTTTTTA", "IEEEEEE"], options={"challenge": "void"})
    for seat in (0, 1, 2, 0, 1):
        state = act(state, seat, "pass")
    state = act(state, 2, "H8 down QI")
    for seat in (0, 1, 2, 0, 1):
        state = act(state, seat, "pass")
        assert outcome(state) is None
    state = act(state, 2, "pass")
    assert outcome(state).reason == "passes"


def test_three_players_need_six_passes():
    state = position(QUIZ, ["AEEOUUV", "TTTTTTA", "EEEEEEE"])
    for seat in (0, 1, 2, 0, 1):
        state = act(state, seat, "pass")
        assert outcome(state) is None
    assert outcome(act(state, 2, "pass")).reason == "passes"


def test_a_lost_turn_breaks_a_run_of_passes():
    # A turn lost to a failed challenge is one of the player's turns, and not a pass: the
    # player has not "passed twice in a row" across it. (Counting it as transparent, as the
    # engine did, ended this game after seat 0 had passed only once since seat 1's play.)
    state = position(QUIZ, ["AEEOUUV", "IEEEEEE"])
    state = act(state, 0, "pass")
    state = act(state, 1, "H8 down QI")
    state = act(state, 0, "challenge")  # QI is good: seat 0 loses the turn in hand
    assert state.turn == 1 and state.passes == (0, 0)
    for seat in (1, 0, 1):
        state = act(state, seat, "pass")
        assert outcome(state) is None
    assert state.passes == (1, 2)
    assert outcome(act(state, 0, "pass")).reason == "passes"


def test_a_lost_turn_later_in_the_round_breaks_the_run_too():
    # Seat 2 challenges seat 0's good play while seat 1 is to move, and loses its next turn.
    state = position(QUIZ, ["IAEEOUU", "TTTTTTA", "EEEEEEV"], turn=1)
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    state = act(state, 0, "H8 down QI")
    state = act(state, 2, "challenge")
    assert state.skips == (0, 0, 1) and state.turn == 1
    state = act(state, 1, "pass")  # then seat 2 loses its turn
    assert state.turn == 0 and state.passes == (0, 1, 0)  # the play restarted every run
    for seat in (0, 1, 2, 0, 1):
        state = act(state, seat, "pass")
        assert outcome(state) is None  # seat 2 has passed only once since seat 0's play
    assert outcome(act(state, 2, "pass")).reason == "passes"


def test_a_refused_move_is_not_a_turn():
    # An illegal action changes nothing, so it cannot count as a pass or end a run.
    state = position(QUIZ, ["AEEOUUV", "TTTTTTA"])
    with pytest.raises(IllegalMove):
        apply(state, 0, Play.parse("A1 across AT"), lexicon=LEX)
    assert state.passes == (0, 0) and state.turn == 0
