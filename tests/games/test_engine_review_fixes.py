"""Regression tests for defects found by a review of the pure engines in games/.

Each test names the defect it guards against; every one failed before its fix.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import games.doudizhu as dd
import games.patchwork as pw
import games.reversi as rv
import games.scrabble as sc
from games.common import (
    BadNotation,
    GameError,
    IllegalMove,
    NotYourTurn,
    Outcome,
    shown,
)
from games.doudizhu import combinations as dd_combinations
from games.patchwork import engine as pw_engine
from games.patchwork import patches as pw_patches

EMPTY = "\n".join(["." * 15] * 15)
LONG = "x" * 100_000
MAX_MESSAGE = 300


def error_of(action) -> GameError:
    with pytest.raises(GameError) as caught:
        action()
    return caught.value


# --- games/common.py ---------------------------------------------------------------------------


def test_shown_keeps_short_text_and_cuts_long_text():
    assert shown("d3") == "d3"
    assert shown("x" * 40) == "x" * 40
    cut = shown(LONG)
    assert len(cut) == 40 and cut.endswith("…")
    assert shown("a\nb\x00c") == "a b c"  # nothing that does not print reaches the message
    assert shown(12, limit=5) == "12"


def test_outcome_dicts_do_not_share_details():
    outcome = Outcome((1, 2), (1,), "done", details={"racks": ["AB", "C"]})
    data = outcome.to_dict()
    data["details"]["racks"].append("mutated")
    assert outcome.details == {"racks": ["AB", "C"]}

    back = Outcome.from_dict(data)
    data["details"]["racks"].clear()
    assert back.details["racks"] == ["AB", "C", "mutated"]


# --- Scrabble ----------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["\ufb06AR", "\u017fTAR", "\u0131T", "Q\u00df"])
def test_scrabble_play_accepts_only_ascii_letters(word):
    # 'ﬆ'.upper() == "ST": one blank stood for two letters (STAR scored with three tiles).
    with pytest.raises(BadNotation, match="^scrabble.letters_only$"):
        sc.Play(7, 7, sc.ACROSS, word)
    with pytest.raises(BadNotation, match="^scrabble.letters_only$") as refused:
        sc.parse_move(f"H8 across {word}")
    assert refused.value.values == {"word": word}


def test_scrabble_ligature_blank_cannot_be_played():
    game = sc.position(EMPTY, ["?ARTXYZ", "EEEEEEE"], options={"challenge": "void"})
    lex = sc.Lexicon(["STAR", "TAR"])
    with pytest.raises(BadNotation):
        sc.apply(game, 0, "H8 across \ufb06AR", lexicon=lex)
    assert sc.apply(game, 0, "H8 across sTAR", lexicon=lex).scores == (6, 0)


@pytest.mark.parametrize("tiles", ["\u00df", "\u0131", "\ufb06"])
def test_scrabble_exchange_accepts_only_ascii_letters(tiles):
    # "ß".upper() == "SS": exchanging ß put back two S.
    with pytest.raises(BadNotation, match="^scrabble.unexchangeable$"):
        sc.Exchange(tiles)
    with pytest.raises(BadNotation, match="^scrabble.unexchangeable$") as refused:
        sc.parse_move(f"exchange {tiles}")
    assert refused.value.values == {"tiles": tiles}
    assert sc.Exchange("sa?").tiles == "AS?"


def test_scrabble_board_text_accepts_only_ascii_letters():
    rows = ["." * 15] * 15
    rows[7] = "." * 7 + "\ufb06" + "." * 7
    with pytest.raises(BadNotation, match="^scrabble.board_char$") as refused:
        sc.Board.parse("\n".join(rows))
    assert refused.value.values == {"row": 8, "char": "\ufb06"}


@pytest.mark.parametrize("square", ["H\u00b2", "H\u0668", "H\uff18", "H+8", "H08x"])
def test_scrabble_square_needs_ascii_digits(square):
    # "²".isdigit() is True but int("²") raises ValueError.
    with pytest.raises(BadNotation, match="^scrabble.bad_square$") as refused:
        sc.Play.parse(f"{square} across QI")
    assert refused.value.values == {"square": square}


def test_scrabble_square_still_reads_both_cases():
    assert sc.Play.parse("h8 across QI") == sc.Play(7, 7, sc.ACROSS, "QI")
    assert sc.Play.parse("O15 down QI").square == "O15"
    assert sc.Play.parse(" a01 across QI").square == "A1"


@pytest.mark.parametrize("tiles", [7.0, 9.0, True, "7"])
def test_scrabble_tiles_option_must_be_an_int(tiles):
    with pytest.raises(sc.BadOption, match="^scrabble.tiles_option$"):
        sc.new_game(2, seed=1, options={"tiles": tiles})


@pytest.mark.parametrize("finish", [100.0, 0, -5, True, "100", "Expert", [100]])
def test_scrabble_finish_option_must_be_a_positive_int_or_a_level(finish):
    with pytest.raises(sc.BadOption, match="^scrabble.finish_option$"):
        sc.new_game(2, seed=1, options={"finish": finish})


def test_scrabble_finish_option_is_capped():
    assert sc.new_game(2, seed=1, options={"finish": 1000}).finish == 1000
    assert sc.new_game(2, seed=1, options={"finish": "expert"}).finish == 200
    with pytest.raises(sc.BadOption, match="^scrabble.finish_too_high$") as refused:
        sc.new_game(2, seed=1, options={"finish": 10**9})
    assert refused.value.values == {"most": 1000}


def test_scrabble_challenge_names_each_failed_word_once():
    rows = ["." * 15] * 15
    rows[6] = "." * 8 + "Z" + "." * 6
    rows[7] = "." * 7 + "Z" + "." * 7
    lex = sc.Lexicon(["QI"])
    game = sc.apply(
        sc.position("\n".join(rows), ["ZAEIOUT", "EEEEEEE"], bag=""),
        0,
        "H8 across ZZ",
        lexicon=lex,
    )
    assert [w for w, _ in game.pending.words] == ["ZZ", "ZZ"]
    after = sc.apply(game, 1, "challenge", lexicon=lex)
    withdrawn = next(e for e in after.events if e.kind == "withdrawn")
    assert withdrawn.values == {"words": ["ZZ"]}


def test_scrabble_score_play_matches_apply_in_void_games():
    game = sc.position(EMPTY, ["QUIZAEN", "EEEEEEE"], options={"challenge": "void"})
    lex = sc.Lexicon(["QUIZ"])
    assert sc.score_play(game, 0, "H8 across QUIZ", lexicon=lex).score == 44
    for action in (sc.score_play, sc.apply):
        with pytest.raises(sc.UnknownWord, match="^scrabble.unknown_words$") as refused:
            action(game, 0, "H8 across QUIZAE", lexicon=lex)
        assert refused.value.values == {"words": ["QUIZAE"]}


@pytest.mark.parametrize(
    "rack, tiles, key, values",
    [
        ("ABCDEFG", "Q", "no_tile", {"tile": "Q"}),
        ("ABCDEFG", "?", "no_tile", {"tile": "?"}),
        ("AABCDEF", "AAA", "too_few", {"tile": "A", "have": 2, "need": 3}),
    ],
)
def test_scrabble_exchange_missing_tiles_messages(rack, tiles, key, values):
    game = sc.position(EMPTY, [rack, "EEEEEEE"])
    with pytest.raises(sc.MissingTiles) as refused:
        sc.apply(game, 0, sc.Exchange(tiles))
    assert refused.value.key == f"scrabble.{key}"
    assert refused.value.values == {**values, "exchange": True}


def test_scrabble_play_missing_tiles_messages():
    game = sc.position(EMPTY, ["QUIABCD", "EEEEEEE"])
    for play, key, values in [("H8 across QUIZ", "no_tile", {"tile": "Z"}),
                              ("H8 across QUIz", "no_tile", {"tile": "?"}),
                              ("H8 across ABBA", "too_few", {"tile": "B", "have": 1, "need": 2})]:
        with pytest.raises(sc.MissingTiles) as refused:
            sc.apply(game, 0, play)
        assert refused.value.key == f"scrabble.{key}"
        assert refused.value.values == {**values, "exchange": False}


# --- Dou Dizhu ---------------------------------------------------------------------------------


def dd_playing(players: int = 3) -> dd.State:
    state = dd.new_game(players, seed=1)
    return dd.apply(state, dd.current_seat(state), dd.Bid(3))


def test_doudizhu_rank_phrase_beyond_eight():
    from tests.games.doudizhu.positions import refused

    state = dd_playing()
    with refused("doudizhu.not_held", "you do not hold 9 3s", rank="3", count=9):
        dd.apply(state, dd.current_seat(state), dd.parse_move("play 333333333"))


@pytest.mark.parametrize("move", [rv.Move(3), pw.Pass(), sc.Pass(), "pass", None])
def test_doudizhu_rejects_moves_of_other_games(move):
    from tests.games.doudizhu.positions import refused

    state = dd_playing()
    with refused("doudizhu.not_a_move", "is not a Dou Dizhu move"):
        dd.apply(state, dd.current_seat(state), move)


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_doudizhu_seat_must_be_in_the_game(seat):
    state = dd_playing()
    with pytest.raises(NotYourTurn) as error:
        dd.resign(state, seat)
    assert error.value.key == "game.no_seat" and error.value.values == {"seat": str(seat)}
    over = replace(state, phase=dd.ROUND_OVER, turn=None, went_out=0, payments=(2, -1, -1))
    for move in (dd.Next(), dd.Stop()):
        with pytest.raises(NotYourTurn) as error:
            dd.apply(over, seat, move)
        assert error.value.key == "game.no_seat"
    assert dd.apply(over, 2, dd.Stop()).phase == dd.OVER


# --- Reversi -----------------------------------------------------------------------------------


@pytest.mark.parametrize("square", [64, 100, -1, 3.0, True])
def test_reversi_move_must_be_on_the_board(square):
    with pytest.raises(IllegalMove) as caught:
        rv.Move(square)
    assert caught.value.key == "reversi.off_board_index"
    assert caught.value.values == {"square": str(square)}


def test_reversi_move_bounds():
    assert str(rv.Move(0)) == "a1" and str(rv.Move(63)) == "h8"


@pytest.mark.parametrize("move", [pw.Pass(), dd.Pass(), sc.Pass(), "d3", None])
def test_reversi_rejects_moves_of_other_games(move):
    state = rv.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        rv.apply(state, rv.current_seat(state), move)
    assert caught.value.key == "reversi.not_a_move"
    assert caught.value.values == {"move": shown(repr(move))}


@pytest.mark.parametrize("seat", [-1, 2])
def test_reversi_resign_needs_a_seat_in_the_game(seat):
    with pytest.raises(NotYourTurn) as caught:
        rv.resign(rv.new_game(2, seed=1), seat)
    assert caught.value.key == "reversi.no_seat" and caught.value.values == {"seat": str(seat)}


# --- Patchwork ---------------------------------------------------------------------------------


def test_patchwork_constructors_always_normalise_the_square():
    assert pw.Buy(1, "0", " c4").square == "c4"
    assert pw.Buy(1, "0", "c4\n") == pw.Buy(1, "0", "c4")
    assert pw.Place(" e5 ").square == "e5"
    assert str(pw.Buy(1, "0", " c4")) == "buy 1 0 c4"


def test_dead_helpers_are_gone():
    assert not hasattr(pw_patches, "canonical_orientation")
    assert not hasattr(pw_patches, "cell_of")
    assert not hasattr(pw_engine, "is_over")
    assert not hasattr(dd_combinations.Combination, "is_bomb")


# --- Long input never comes back whole ---------------------------------------------------------


def _long_input_errors():
    reversi = rv.new_game(2, seed=1)
    dou = dd_playing()
    scrabble = sc.position(EMPTY, ["QUIZAEN", "EEEEEEE"])
    patchwork = pw.new_game(2, seed=1)
    long_word = "Q" * 100_000
    weird = "".join(chr(0x10000 + i) for i in range(100_000))  # distinct characters
    yield "reversi parse", lambda: rv.parse_move(LONG)
    yield "reversi parse digits", lambda: rv.parse_move("z" + "9" * 100_000)
    yield "reversi apply", lambda: rv.apply(reversi, rv.current_seat(reversi), LONG)
    yield "doudizhu bid", lambda: dd.parse_move("bid " + LONG)
    yield "doudizhu ranks", lambda: dd.parse_move(weird)
    yield "doudizhu apply", lambda: dd.apply(dou, dd.current_seat(dou), LONG)
    yield "doudizhu play", lambda: dd.apply(dou, dd.current_seat(dou), dd.parse_move("3" * 100_000))
    yield "scrabble parse", lambda: sc.parse_move(LONG)
    yield "scrabble square", lambda: sc.parse_move("H8" + "0" * 100_000 + " across QI")
    yield "scrabble direction", lambda: sc.parse_move("H8 " + LONG + " QI")
    yield "scrabble word", lambda: sc.parse_move("H8 across " + long_word + "1")
    yield "scrabble exchange", lambda: sc.parse_move("exchange " + weird)
    yield "scrabble too long", lambda: sc.apply(scrabble, 0, "H8 across " + long_word)
    yield "scrabble apply", lambda: sc.apply(scrabble, 0, [LONG])
    yield "scrabble option", lambda: sc.new_game(2, seed=1, options={LONG: 1})
    yield "scrabble board", lambda: sc.Board.parse(EMPTY.replace(".", "\x00"))
    yield "patchwork parse", lambda: pw.parse_move(LONG)
    yield "patchwork buy", lambda: pw.parse_move("buy " + LONG)
    yield "patchwork choice", lambda: pw.parse_move("buy " + LONG + " 0 c4")
    yield "patchwork orientation", lambda: pw.parse_move("buy 1 " + LONG + " c4")
    yield "patchwork square", lambda: pw.parse_move("buy 1 0 " + LONG)
    yield "patchwork pass", lambda: pw.Pass.parse("pass " + LONG)
    yield "patchwork place", lambda: pw.parse_move("place " + LONG)
    yield "patchwork Buy", lambda: pw.Buy(1, "0", LONG)
    yield "patchwork Place", lambda: pw.Place(LONG)
    yield "patchwork apply", lambda: pw.apply(patchwork, pw.current_seat(patchwork), LONG)
    yield "patchwork options", lambda: pw.new_game(2, seed=1, options={LONG: 1})


@pytest.mark.parametrize("label, action", list(_long_input_errors()))
def test_errors_never_echo_long_input(label, action):
    message = str(error_of(action))
    assert len(message) <= MAX_MESSAGE, (label, len(message))
    assert "…" in message or "xxxx" not in message
