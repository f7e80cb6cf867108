"""Scrabble notation and play validation: every rule a tournament director checks, each with
the message the player sees."""

from __future__ import annotations

import pytest

from games.common import BadNotation, GameOver, IllegalMove, NotYourTurn
from games.scrabble import (
    Board,
    Challenge,
    Exchange,
    InvalidPlacement,
    Lexicon,
    MissingTiles,
    Pass,
    Play,
    UnknownWord,
    apply,
    evaluate,
    parse_move,
    position,
    resign,
)

LEX = Lexicon(["QUIZ", "QUIZZES", "QI", "AT", "TA", "EN", "NE", "MEN", "TEN", "ZA", "AE"])

EMPTY = "\n".join(["." * 15] * 15)
QUIZ = "\n".join(["." * 15] * 7 + [".......QUIZ...."] + ["." * 15] * 7)


def test_board_text_round_trip():
    text = "\n".join(
        ["A" + "." * 14]
        + ["." * 15] * 6
        + ["...qUIZ..EN...."]
        + ["." * 15] * 6
        + ["." * 14 + "z"]
    )
    board = Board.parse(text)
    assert str(board) == board.text() == text
    assert Board.parse(str(board)) == board
    assert board[7, 3] == "q" and board[7, 4] == "U" and board[0, 1] is None
    assert Board.parse("\n\n  " + text.replace("\n", "  \n ") + "\n") == board


@pytest.mark.parametrize(
    "text",
    ["." * 15, "\n".join(["." * 14] * 15), "\n".join(["." * 15] * 14 + ["......1........"])],
)
def test_board_parse_rejects_bad_text(text):
    with pytest.raises(BadNotation):
        Board.parse(text)


@pytest.mark.parametrize(
    "text, move",
    [
        ("H8 across QUIz", Play(7, 7, "across", "QUIz")),
        ("h8 ACROSS QUIZ", Play(7, 7, "across", "QUIZ")),
        ("A15 down at", Play(14, 0, "down", "at")),
        ("O1 d ZA", Play(0, 14, "down", "ZA")),
        ("play H8 a QUIZ", Play(7, 7, "across", "QUIZ")),
        ("exchange abc?", Exchange("?CBA")),
        ("swap ZZ", Exchange("ZZ")),
        ("pass", Pass()),
        (" PASS ", Pass()),
        ("challenge", Challenge()),
    ],
)
def test_parse_move(text, move):
    assert parse_move(text) == move
    assert parse_move(str(move)) == move
    assert type(move).parse(str(move)) == move


def test_canonical_text():
    assert str(Play.parse("h8 a QUIz")) == "H8 across QUIz"
    assert str(Exchange("z?a")) == "exchange AZ?"
    assert str(Pass()) == "pass" and str(Challenge()) == "challenge"


@pytest.mark.parametrize(
    "text, key, values",
    [
        ("", "not_a_move", {"text": ""}),
        ("hello", "not_a_move", {"text": "hello"}),
        ("H8 QUIZ", "play_form", {}),
        ("H16 across QUIZ", "bad_square", {"square": "H16"}),
        ("P8 across QUIZ", "not_a_move", {"text": "P8 across QUIZ"}),
        ("H8 sideways QUIZ", "bad_direction", {"direction": "sideways"}),
        ("H8 across Q", "short_word", {}),
        ("H8 across QU1Z", "letters_only", {"word": "QU1Z"}),
        ("exchange", "exchange_what", {}),
        ("exchange A1", "unexchangeable", {"tiles": "1"}),
        ("pass now", "pass_form", {}),
    ],
)
def test_parse_move_errors(text, key, values):
    with pytest.raises(BadNotation) as refused:
        parse_move(text)
    assert (refused.value.key, refused.value.values) == (f"scrabble.{key}", values)


def _error(board: str, play: str, rack: str = "AEIQUZZ?") -> tuple[str, dict]:
    """What `evaluate` refuses: the error's key (without "scrabble.") and values."""
    with pytest.raises(IllegalMove) as info:
        evaluate(Board.parse(board), Play.parse(play), rack)
    return info.value.key.removeprefix("scrabble."), info.value.values


def test_square_already_taken():
    board = "\n".join(["." * 15] * 8 + ["............E.."] + ["." * 15] * 6)
    assert _error(board, "M9 down QI") == ("taken", {"square": "M9", "tile": "E"})
    board = "\n".join(["." * 15] * 8 + ["............e.."] + ["." * 15] * 6)
    assert _error(board, "L9 across QIZ") == ("taken", {"square": "M9", "tile": "E"})


def test_missing_tiles():
    assert _error(EMPTY, "H8 across QUIZ", "QUIAAAA") == (
        "no_tile", {"tile": "Z", "exchange": False})
    assert _error(EMPTY, "H8 across ZIZz", "ZIZ") == ("no_tile", {"tile": "?", "exchange": False})
    assert _error(EMPTY, "H8 across QUIZZES", "QUIZESS") == (
        "too_few", {"tile": "Z", "have": 1, "need": 2, "exchange": False})
    with pytest.raises(MissingTiles):
        evaluate(Board(), Play.parse("H8 across QUIZ"), "")


def test_word_must_touch():
    with pytest.raises(InvalidPlacement):
        evaluate(Board.parse(QUIZ), Play.parse("A1 across QI"), "QI")
    assert _error(QUIZ, "A1 across QI") == ("not_touching", {})
    # Diagonal contact is not contact.
    assert _error(QUIZ, "L9 across QI") == ("not_touching", {})


def test_first_word_covers_centre():
    assert _error(EMPTY, "A1 across QUIZ") == ("centre", {})
    assert evaluate(Board(), Play.parse("H5 down QUIZ"), "QUIZ").score == 44


def test_word_must_fit():
    assert _error(EMPTY, "M8 across QUIZ") == (
        "runs_off", {"word": "QUIZ", "direction": "across", "square": "M8"})
    assert _error(EMPTY, "H13 down QUIZ") == (
        "runs_off", {"word": "QUIZ", "direction": "down", "square": "H13"})


def test_whole_word_must_be_written():
    assert _error(QUIZ, "L8 across ZA") == ("runs_on", {
        "square": "K8", "tile": "Z", "start": "H8", "direction": "across", "whole": "QUIZZA"})
    assert _error(QUIZ, "F8 across AE") == ("runs_on", {
        "square": "H8", "tile": "Q", "start": "F8", "direction": "across", "whole": "AEQUIZ"})


def test_play_must_place_a_tile():
    assert _error(QUIZ, "H8 across QUIZ") == ("already_on_board", {"word": "QUIZ"})


def test_through_play_and_case_of_board_letters():
    scored = evaluate(Board.parse(QUIZ), Play.parse("H8 down qI"), "I")
    assert scored.placements == ((8, 7, "I"),)
    assert scored.words == (("QI", 11),)


def test_words_not_in_dictionary_void_mode():
    state = position(EMPTY, ["PLAYSXE", "AEIOUUU"], options={"challenge": "void"})
    with pytest.raises(UnknownWord, match="^scrabble.unknown_words$") as refused:
        apply(state, 0, Play.parse("H8 across PLAYS"), lexicon=LEX)
    assert refused.value.values == {"words": ["PLAYS"]}
    # Several bad words are named together, main word first.
    board = "\n".join(["." * 15] * 7 + [".......AT......"] + ["." * 15] * 7)
    state = position(board, ["XYEEEEE", "AEIOUUU"], options={"challenge": "void"})
    with pytest.raises(UnknownWord) as refused:
        apply(state, 0, Play.parse("H9 across XY"), lexicon=LEX)
    assert refused.value.values == {"words": ["XY", "AX", "TY"]}


def test_cross_words_checked():
    board = "\n".join(["." * 15] * 7 + [".......AT......"] + ["." * 15] * 7)
    state = position(board, ["TAEEEEE", "AEIOUUU"], options={"challenge": "void"})
    # TA under AT makes AT and TA down; the A lands on the double letter I9.
    after = apply(state, 0, Play.parse("H9 across TA"), lexicon=LEX)
    assert after.last_play.words == (("TA", 3), ("AT", 2), ("TA", 3))
    state = position(board, ["ENEEEEE", "AEIOUUU"], options={"challenge": "void"})
    with pytest.raises(UnknownWord) as refused:
        apply(state, 0, Play.parse("H9 across EN"), lexicon=Lexicon(["EN", "AT"]))
    assert refused.value.words == ("AE", "TN")


def test_rejected_action_changes_nothing():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"])
    before = state.to_dict()
    for move in ["A1 across QUIZ", "H8 across ZZZ", "exchange B", "challenge"]:
        with pytest.raises(IllegalMove):
            apply(state, 0, parse_move(move), lexicon=LEX)
    assert state.to_dict() == before


def test_not_your_turn_and_game_over():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"])
    with pytest.raises(NotYourTurn, match="^scrabble.not_your_turn$") as refused:
        apply(state, 1, Pass(), lexicon=LEX)
    assert refused.value.values == {"can_challenge": False}
    over = resign(state, 1)
    with pytest.raises(GameOver):
        apply(over, 0, Pass(), lexicon=LEX)
    with pytest.raises(GameOver):
        resign(over, 0)


def test_default_lexicon_is_enable():
    from games.scrabble import default_lexicon, load_lexicon

    lexicon = default_lexicon()
    assert lexicon is default_lexicon() and len(lexicon) == 172_820
    assert "quiz" in lexicon and "QUIZ" in lexicon and "QI" not in lexicon
    assert lexicon.name == "ENABLE" and load_lexicon() is lexicon


def test_lexicon_from_a_file_or_the_environment(tmp_path, monkeypatch):
    import gzip

    from games.scrabble import load_lexicon

    words = tmp_path / "mine.txt"
    words.write_text("qi\nZA\n\nquiz\n")
    lexicon = load_lexicon(words)
    assert len(lexicon) == 3 and "QI" in lexicon and "qi" in lexicon
    packed = tmp_path / "mine.txt.gz"
    packed.write_bytes(gzip.compress(b"xu\nqat\n"))
    monkeypatch.setenv("GAMENIGHT_LEXICON", str(packed))
    assert load_lexicon().words == frozenset({"XU", "QAT"})
    monkeypatch.setenv("GAMENIGHT_LEXICON", str(tmp_path / "missing.txt"))
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        load_lexicon()


def test_lexicon_prefixes():
    assert LEX.prefixes >= {"Q", "QU", "QUI", "QUIZ", "QUIZZ", "QUIZZES"}
    assert LEX.next_letters("QU") == "I" and LEX.next_letters("QI") == ""
