"""Reversi in every language: the engine's events, errors and outcomes are keys and values, and
the adapter (bot/adapters/reversi/) and render/alt.py word them with a voice."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import games.reversi as reversi
from bot.adapters.reversi.presenter import ReversiPresenter
from games.common import Event, GameError
from i18n import BABEL_LOCALES, LANGUAGES, Text, po_path, voice
from render import alt
from tests.bot.adapters.wording import raised, seated

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
MINE = ("bot/adapters/reversi/", "render/reversi.py")
CJK = re.compile(r"[\u4e00-\u9fff]")
GUJARATI = re.compile(r"[\u0a80-\u0aff]")


def cog() -> ReversiPresenter:
    """The presenter without a bot: its wording needs none."""
    return ReversiPresenter.__new__(ReversiPresenter)


def match(names=("alice", "bob")):
    return seated(names)


def every_event() -> list[Event]:
    """One event of each kind, each colour and each way to end."""
    start = reversi.new_game(2, seed=1)
    moved = reversi.apply(start, start.black_seat, reversi.Move.parse("d3"))
    events = [*start.events, *moved.events, *reversi.resign(moved, 0).events]
    rows = ["BBBBBBBB"] * 4 + ["WWWWWWWW"] * 3 + ["WWWWWWB."]
    full = reversi.position("\n".join(rows), black_seat=0, to_move=reversi.WHITE)
    events += reversi.apply(full, 1, reversi.Move.parse("h8")).events  # white, a draw
    lone = reversi.position("." * 27 + "BW" + "." * 35, black_seat=1)
    events += reversi.apply(lone, 1, reversi.Move.parse("f4")).events  # nobody can move
    passing = reversi.position("""
        WBBB.B.. WBBBBBBB WWWBBWWB WWWBWBWB WBWBBWBB BBBWBWWB ..BBBBBW ..W.BW.B""",
                               black_seat=0, to_move=reversi.WHITE)
    events += reversi.apply(passing, 1, reversi.Move.parse("g8")).events
    return events


def every_error() -> list[GameError]:
    state = reversi.new_game(2, seed=1)
    black = state.black_seat
    moved = reversi.apply(state, black, reversi.Move.parse("d3"))
    actions = [
        lambda: reversi.Move.parse("zz"), lambda: reversi.Move.parse("i9"),
        lambda: reversi.Move(99),
        lambda: reversi.apply(state, black, reversi.Move.parse("d4")),
        lambda: reversi.apply(state, black, reversi.Move.parse("d5")),
        lambda: reversi.apply(state, black, reversi.Move.parse("a1")),
        lambda: reversi.apply(moved, 1 - black, reversi.Move.parse("a1")),
        lambda: reversi.apply(state, 1 - black, reversi.Move.parse("d3")),
        lambda: reversi.apply(moved, black, reversi.Move.parse("a1")),
        lambda: reversi.apply(state, black, "d3"),
        lambda: reversi.resign(state, 5),
        lambda: reversi.apply(reversi.resign(state, 0), 0, reversi.Move(0)),
        lambda: reversi.choose_move(state, 1 - black, "easy", seed=0),
        lambda: reversi.choose_move(reversi.State(state.black, 0, black, black), black, "easy",
                                    seed=0),
    ]
    return raised(actions)


def test_engine_events_and_errors_carry_no_sentences():
    for event in every_event():
        assert event.text == ""
        assert all(not isinstance(value, str) or " " not in value
                   for value in event.values.values())
    keys = {error.key for error in every_error()}
    assert all(re.fullmatch(r"reversi\.[a-z_]+", key) for key in keys)
    assert len(keys) == 10


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_event_and_error_is_worded(lang):
    say = voice(lang)
    kinds = set()
    for event in every_event():
        kinds.add(event.kind)
        text = say(cog().event_text(match(), event))
        assert text and "{" not in text and "seat" not in text, (event, text)
        assert "**alice**" in text or "**bob**" in text or event.kind == "end" and "-" in text
        if lang != "en":
            assert CJK.search(text) or GUJARATI.search(text), text
    assert kinds == {"start", "move", "pass", "resign", "end"}
    for error in every_error():
        words = cog().error_text(error)
        assert isinstance(words, Text), error.key
        text = say(words)
        assert "{" not in text and "reversi." not in text
        if lang != "en":
            assert CJK.search(text) or GUJARATI.search(text), text


def test_english_words_are_as_before():
    say = voice("en")
    start, move, resigned, _, draw, _, end, _, passed = every_event()
    assert say(cog().event_text(match(), start)) == (
        f"**{match().seats[start.seat].name}** plays black and moves first; "
        f"**{match().seats[1 - start.seat].name}** plays white.")
    assert say(cog().event_text(match(), move)).endswith("(black) played d3, flipping 1 disc.")
    assert say(cog().event_text(match(), resigned)) == "**alice** resigned."
    assert say(cog().event_text(match(), draw)) == (
        "Game over, the board is full: a draw, 32-32 (black-white).")
    assert say(cog().event_text(match(), end)) == (
        "Game over, neither player can move: **bob** (black) wins 3-0 (black-white).")
    assert say(cog().event_text(match(), passed)) == "**alice** has no legal move and passes."
    worded = [say(cog().error_text(error)) for error in every_error()]
    assert worded[:12] == [
        "`zz` is not a square: give a column a-h and a row 1-8, like d3.",
        "`i9` is off the board: squares run from a1 to h8.",
        "`99` is off the board: squares run from 0 (a1) to 63 (h8).",
        "d4 is already taken by a white disc: play on an empty square.",
        "d5 is already taken by a black disc: play on an empty square.",
        "A disc on a1 would not outflank any white disc: it must close a straight line of white "
        "discs against one of yours. Your legal squares: d3, c4, f5, e6.",
        "A disc on a1 would not outflank any black disc: it must close a straight line of black "
        "discs against one of yours. Your legal squares: c3, e3, c5.",
        "It is not your turn: you play white.",
        "It is not your turn: you play black.",
        "'d3' is not a Reversi move: name a square, like d3.",
        "There is no seat 5 in this game.",
        "The game is over.",
    ]


def test_events_saved_before_the_keys_keep_their_text():
    old = Event("move", "{seat1} (white) played c4, flipping 1 disc.", 1)
    assert voice("zh-TW")(cog().event_text(match(), old)) == (
        "**bob** (white) played c4, flipping 1 disc.")


def test_words_in_chinese_and_gujarati():
    start, move, *_ = every_event()
    names = match(("阿明", "ભાવના"))
    assert voice("zh-TW")(cog().event_text(names, move)).endswith("（黑）下在 d3，翻轉了 1 枚棋子。")
    assert voice("zh-CN")(cog().event_text(names, move)).endswith("（黑）下在 d3，翻转了 1 枚棋子。")
    assert "પલટાવી" in voice("gu")(cog().event_text(names, move))
    wrong_turn = every_error()[7]
    assert voice("zh-TW")(cog().error_text(wrong_turn)) == "還沒輪到你：你執白。"


def test_long_input_is_never_echoed_whole_in_any_language():
    for text in ("x" * 100_000, "z" + "9" * 100_000):
        with pytest.raises(GameError) as caught:
            reversi.parse_move(text)
        for lang in LANGUAGES:
            assert len(voice(lang)(cog().error_text(caught.value))) < 200


def test_alt_text_in_the_channels_language():
    state = reversi.new_game(2, seed=1)
    black = state.black_seat
    names = ["阿明", "ભાવના"]
    after = reversi.apply(state, black, reversi.parse_move("d3"))
    text = alt.reversi_board(reversi.view(after), names, voice("zh-TW"))
    assert text == (f"黑白棋棋盤。 黑方 {names[black]}，4 枚棋子：d3, d4, e4, d5。 白方 "
                    f"{names[1 - black]}，1 枚棋子：e5。 上一手 d3。 輪到 {names[1 - black]} 下白棋，"
                    "可下：c3, e3, c5。")
    assert alt.reversi_board(reversi.view(after), names) == alt.reversi_board(
        reversi.view(after), names, voice("en"))
    assert "હવે" in alt.reversi_board(reversi.view(after), names, voice("gu"))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_reversi_message_is_translated(lang):
    """Every message of the Reversi files, and the Reversi commands' words, in the catalogs."""
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=BABEL_LOCALES[lang])
    found = 0
    for message in catalog:
        if not message.id:
            continue
        files = {path for path, _ in message.locations}
        ours = any(path.startswith(MINE) for path in files) or ("render/alt.py" in files and (
            "Reversi" in str(message.id) or "black" in str(message.id).lower()
            or "white" in str(message.id).lower() or "Last move" in str(message.id)))
        ours = ours or any(c.startswith("/reversi") and " turn_time" not in c
                           for c in message.auto_comments)
        if not ours:
            continue
        found += 1
        strings = [message.string] if isinstance(message.id, str) else list(message.string)
        assert strings and all(strings), message.id
    assert found >= 60
