"""Scrabble in every language: the engine's events, errors and outcomes are keys and values, and
the adapter (bot/adapters/scrabble/), render/scrabble.py and render/alt.py word them with a
voice."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace


import games.scrabble as scrabble
from bot.adapters.scrabble.presenter import ScrabblePresenter
from bot.adapters.scrabble.words import ERRORS
from games.common import Event, GameError
from games.scrabble import Lexicon, apply, new_game, parse_move, position, resign
from i18n import ENGLISH_VOICE, LANGUAGES, voice
from render import alt
from render.scrabble import render_board, render_rack
from tests.bot.adapters.wording import raised

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
CJK = re.compile(r"[\u4e00-\u9fff]")
GUJARATI = re.compile(r"[\u0a80-\u0aff]")
LATIN_WORD = re.compile(r"\b[a-z]{4,}\b")  # an English word left in a translation
EMPTY = "\n".join(["." * 15] * 15)
QUIZ = "\n".join(["." * 15] * 7 + [".......QUIZ...."] + ["." * 15] * 7)
LEX = Lexicon(["QUIZ", "QI", "AT", "TA", "ZA", "RETAINER"])


def cog() -> ScrabblePresenter:
    """The presenter without a bot: its wording needs none."""
    return ScrabblePresenter.__new__(ScrabblePresenter)


def table(state: scrabble.State, names=("alice", "bob", "carol", "dave"), match_id=7):
    """A match as the cog reads it: seats with names, and the state."""
    seats = [SimpleNamespace(seat=i, name=names[i], away=None, kind="user", user_id=100 + i)
             for i in range(state.seats)]
    return SimpleNamespace(id=match_id, seats=seats, state=state,
                           player=lambda seat: seats[seat])


def act(state, seat, text, lexicon=LEX):
    return apply(state, seat, parse_move(text), lexicon=lexicon)


def scenes() -> list[scrabble.State]:
    """States whose events are, together, every kind of event and every way a game ends."""
    states = [new_game(4, seed=seed, options={"tiles": 9, "finish": 100, "challenge": "void"})
              for seed in (3, 14)]  # the draws: 3 ties, 14 draws a blank
    bingo = position(EMPTY, ["AAEEINRRT", "EEEEEEEEE"], options={"tiles": 9})
    states.append(act(bingo, 0, "G8 across RETAINER"))
    going_out = act(position(EMPTY, ["AT", "QV"], bag=""), 0, "H8 across AT")
    states += [going_out, act(going_out, 1, "pass")]  # final_play (out), accept, end (out)
    finish = act(position(EMPTY, ["QUIZAAA", "EEEEEEE"], options={"finish": 40}), 0,
                 "H8 across QUIZ")
    states += [finish, act(finish, 1, "pass")]  # final_play (finish), end (finish)
    three = position(EMPTY, ["QIZAAAB", "EEEEEEE", "TTTTTTA"])
    phony = act(three, 0, "H8 across QIZ")
    states.append(act(phony, 1, "challenge"))  # challenge, withdrawn
    good = act(three, 0, "H8 across ZA")
    failed = act(good, 2, "challenge")  # challenge_failed, later
    states += [failed, act(failed, 1, "pass"), act(good, 1, "challenge")]  # lost_turn
    states.append(act(position(QUIZ, ["AEEIOUU", "TTTTTTA"]), 0, "exchange AE"))
    passes = position(QUIZ, ["AEEIOUU", "TTTTTTA"])
    for seat in (0, 1, 0, 1):
        passes = act(passes, seat, "pass")
    states.append(passes)  # end (passes)
    states.append(act(position(QUIZ, ["VVWW", "KJ"], bag="Y"), 0, "pass"))  # end (blocked)
    states.append(act(position(QUIZ, ["E", "C"], bag="", scores=(10, 12)), 0, "pass"))  # tie
    states.append(act(position(QUIZ, ["E", "C"], bag="", scores=(10, 11)), 0, "pass"))  # draw
    four = position(QUIZ, ["E", "C", "A", "T"], scores=(50, 12, 30, 5))
    states += [resign(four, 0), resign(resign(resign(four, 0), 1), 2)]  # resign, end
    words = Lexicon(["QUIZ", "ZA"])
    out = apply(position(QUIZ, ["A", "EEE", "TTTTTTA"], bag=""), 0, parse_move("K8 down ZA"),
                lexicon=words)
    states.append(resign(out, 2, lexicon=words))  # play_goes_on
    return states


def every_event() -> list[tuple[scrabble.State, Event]]:
    return [(state, event) for state in scenes() for event in state.events]


def every_error() -> list[GameError]:
    """One engine error of each key."""
    state = position(EMPTY, ["QUIABCD", "EEEEEEE", "TTTTTTA"])
    played = act(state, 0, "H8 across QI")
    void = position(EMPTY, ["QIZAAAB", "EEEEEEE"], options={"challenge": "void"})
    final = act(position(EMPTY, ["AT", "QV"], bag=""), 0, "H8 across AT")
    over = resign(position(EMPTY, ["QUIABCD", "EEEEEEE"]), 1)
    gone = resign(state, 0)
    low = position(QUIZ, ["AEEIOUU", "TTTTTTA"], bag="ABCDEF")
    nine = position(QUIZ, ["AEEIOUURS", "TTTTTTAAA"], bag="BCDFGHJ", options={"tiles": 9})
    actions = [
        lambda: new_game(2, seed=1, options={"colour": "red"}),
        lambda: new_game(2, seed=1, options={"tiles": 8}),
        lambda: new_game(2, seed=1, options={"finish": "legend"}),
        lambda: new_game(2, seed=1, options={"finish": 5000}),
        lambda: new_game(2, seed=1, options={"challenge": "single"}),
        lambda: apply(over, 0, scrabble.Pass(), lexicon=LEX),
        lambda: apply(state, 7, scrabble.Pass(), lexicon=LEX),
        lambda: apply(gone, 0, scrabble.Pass(), lexicon=LEX),
        lambda: resign(gone, 0),
        lambda: apply(state, 1, scrabble.Pass(), lexicon=LEX),
        lambda: apply(played, 2, scrabble.Pass(), lexicon=LEX),
        lambda: act(final, 1, "H7 down QAT"),
        lambda: apply(state, 0, "bogus", lexicon=LEX),
        lambda: apply(state, 0, object(), lexicon=LEX),
        lambda: act(low, 0, "exchange AE"),
        lambda: act(nine, 0, "exchange AEEIOUURS"),
        lambda: act(void, 1, "challenge"),
        lambda: act(state, 1, "challenge"),
        lambda: act(played, 0, "challenge"),
        lambda: scrabble.Play(7, 7, "sideways", "QI"),
        lambda: scrabble.Play(20, 7, "across", "QI"),
        lambda: parse_move("H8 across Q"),
        lambda: parse_move("H8 across QU1Z"),
        lambda: parse_move("H8 QUIZ"),
        lambda: parse_move("H8 sideways QUIZ"),
        lambda: scrabble.Exchange(""),
        lambda: scrabble.Exchange.parse("trade AB"),
        lambda: scrabble.Pass.parse("pass now"),
        lambda: scrabble.Challenge.parse("challenge it"),
        lambda: parse_move("exchange A1"),
        lambda: parse_move("hello"),
        lambda: scrabble.Play.parse("Z9 across QI"),
        lambda: act(void, 0, "H8 across QIZ"),
        lambda: act(state, 0, "M8 across QUIZ"),
        lambda: act(state, 0, "H13 down QUIZ"),
        lambda: act(played, 1, "H8 down ZE"),
        lambda: act(position(QUIZ, ["AEEEEEE", "TTTTTTA"]), 0, "L8 across ZA"),
        lambda: act(position(QUIZ, ["AEEEEEE", "TTTTTTA"]), 0, "H8 across QUIZ"),
        lambda: act(state, 0, "A1 across QI"),
        lambda: act(position(QUIZ, ["AEEEEEE", "TTTTTTA"]), 0, "A1 across AE"),
        lambda: act(state, 0, "H8 across QUIZ"),
        lambda: act(state, 0, "H8 across QUIz"),
        lambda: act(state, 0, "exchange ?"),
        lambda: act(state, 0, "H8 across ABBA"),
        lambda: act(state, 0, "exchange AA"),
    ]
    return raised(actions)


def test_engine_events_and_errors_carry_keys_and_plain_values():
    for state, event in every_event():
        assert event.text == "" and json.loads(json.dumps(event.values)) == event.values
    keys = [error.key for error in every_error()]
    assert all(key.startswith("scrabble.") for key in keys)
    for state in scenes():
        if state.result is not None:
            assert state.result.reason in ("out", "passes", "blocked", "finish", "resigned")


def test_every_kind_of_event_is_worded_in_every_language():
    kinds = set()
    for state, event in every_event():
        kinds.add(event.kind)
        match = table(state)
        english = ENGLISH_VOICE(cog().event_text(match, event))
        assert english and "{" not in english and event.kind not in english.split(), event
        for lang in OTHERS:
            said = voice(lang)(cog().event_text(match, event))
            script = GUJARATI if lang == "gu" else CJK
            assert script.search(said) and "{" not in said, (lang, event, said)
            assert not LATIN_WORD.search(re.sub(r"\*\*\w+\*\*", "", said)), (lang, said)
    assert kinds == {"opening_draw", "order", "options", "play", "final_play", "accept",
                     "exchange", "pass", "challenge", "withdrawn", "challenge_failed",
                     "lost_turn", "resign", "play_goes_on", "end"}


def test_events_read_in_english_as_they_always_did():
    said = {}
    for state, event in every_event():
        said.setdefault(event.kind, []).append(ENGLISH_VOICE(cog().event_text(table(state),
                                                                              event)))
    assert "**alice** exchanged 2 tiles." in said["exchange"]
    assert "**alice** played G8 across RETAINER for 68 (RETAINER 18 + 50 bingo)." in said["play"]
    assert ("This game: 9-tile racks; first to 100 points wins; words are checked as they are "
            "played.") in said["options"]
    assert "QIZ is not in the dictionary: **alice** takes the tiles back, scores nothing and " \
           "loses the turn." in said["withdrawn"]
    assert "Every word stands: **carol** loses their next turn." in said["challenge_failed"]
    assert "**alice** resigned: their 1 tile went back into the bag, and the others play on." \
        in said["resign"]
    assert "**alice** reached 40 points." in said["final_play"]
    assert any(line.startswith("Draw for first turn: ") and "tie and draw again" in line
               for line in said["opening_draw"])
    assert any("drew a blank" in line for line in said["opening_draw"])


ENGLISH_ERRORS = {
    "scrabble.unknown_option": "Scrabble has no option `colour`: use tiles, finish, challenge",
    "scrabble.not_your_turn": "It is not your turn.",
    "scrabble.answer_final_play": "the last play ends the game if it stands: challenge it, or "
                                  "pass to accept it",
    "scrabble.exchange_bag_low": "you can exchange only while the bag holds at least 7 tiles; it "
                                 "holds 6",
    "scrabble.exchange_too_many": "the bag holds 7 tiles: you can exchange at most 7",
    "scrabble.letters_only": "`QU1Z` must be letters A-Z only (lower case for a blank)",
    "scrabble.bad_square": "`Z9` is not a square: write the column A-O then the row 1-15, e.g. H8",
    "scrabble.unknown_words": "QIZ is not in the dictionary",
    "scrabble.taken": "H8 is already taken by Q",
    "scrabble.runs_on": "the word runs on into K8 (Z): write the whole word as it will read, e.g. "
                        "H8 across QUIZZA",
    "scrabble.centre": "the first word must cover the centre square H8",
    "scrabble.too_few": "you have only 1 B, the play needs 2",
}


def test_every_engine_error_is_worded_in_every_language():
    seen = {}
    for error in every_error():
        english = cog().error_text(error)
        assert english is not None, error.key
        text = ENGLISH_VOICE(english)
        assert "{" not in text and "scrabble." not in text, (error.key, text)
        seen.setdefault(error.key, text)
        for lang in OTHERS:
            said = voice(lang)(cog().error_text(error))
            script = GUJARATI if lang == "gu" else CJK
            assert script.search(said) and "{" not in said, (lang, error.key, said)
    for key, text in ENGLISH_ERRORS.items():
        assert seen[key] == text
    special = {"not_your_turn", "unknown_words", "runs_off", "runs_on", "no_tile", "too_few",
               "exchange_too_many"}
    assert set(seen) == {f"scrabble.{what}" for what in (*ERRORS, *special)}
    assert "you have no blank (a lower-case letter in the word means a blank)" in [
        ENGLISH_VOICE(cog().error_text(e)) for e in every_error()]
    assert cog().error_text(GameError("reversi.occupied")) is None


def scored_game() -> scrabble.State:
    state = new_game(2, seed=1)
    for _ in range(6):
        seat = scrabble.current_seat(state)
        plays = scrabble.scored_plays(state, seat)
        state = apply(state, seat, plays[0][1] if plays else scrabble.Pass())
    return state


async def test_a_board_post_in_chinese_and_gujarati(monkeypatch):
    async def drawn_here(function, *args):
        return function(*args)

    monkeypatch.setattr("bot.adapters.scrabble.presenter.render_off_loop", drawn_here)
    state = scored_game()
    match = table(state)
    english = await cog().board_reply(match, state.events, ENGLISH_VOICE)
    for lang in OTHERS:
        reply = await cog().board_reply(match, state.events, voice(lang))
        embed = reply.embed.to_dict()
        script = GUJARATI if lang == "gu" else CJK
        texts = [reply.content, embed["title"], embed["description"], embed["footer"]["text"],
                 *(f["name"] for f in embed["fields"]), reply.alt]
        assert all(script.search(text) for text in texts), (lang, texts)
        assert reply.png != english.png  # the premium squares are labelled in the language
        assert "<@10" in reply.content  # the player to move is still called by mention


async def test_a_rack_in_chinese_and_gujarati(monkeypatch):
    async def drawn_here(function, *args):
        return function(*args)

    monkeypatch.setattr("bot.adapters.scrabble.presenter.render_off_loop", drawn_here)
    state = position(EMPTY, ["AEQ?RST", "EEEEEEE"])
    match = table(state)
    for lang in OTHERS:
        reply = await cog().private_reply(match, 0, voice(lang))
        embed = reply.embed.to_dict()
        script = GUJARATI if lang == "gu" else CJK
        assert script.search(reply.content) and script.search(embed["title"])
        assert script.search(embed["description"]) and script.search(reply.alt)
        assert "A E Q R S T ?" in reply.content
        assert reply.png == render_rack("AEQRST?", voice(lang)) != render_rack("AEQRST?")


def test_labels_fit_their_squares_in_every_language():
    """One line at MIN_FONT (10 px on a phone) in every square, whatever the language."""
    from render.scrabble import CELL, GAP, MIN_FONT, PREMIUM_LABELS, _fit
    from render.png import SCALE

    for lang in LANGUAGES:
        for label in PREMIUM_LABELS.values():
            size, lines = _fit(voice(lang)(label), (CELL - GAP) * SCALE, MIN_FONT)
            assert (size, len(lines)) == (MIN_FONT * SCALE, 1), (lang, label)
    assert render_board(scrabble.view(scored_game()), voice("zh-TW")).startswith(b"\x89PNG")


def test_a_legend_names_the_premium_squares_when_their_labels_are_ambiguous():
    """English labels (TW, DW, TL, DL) name their squares: the board stays 600 x 600. The
    Chinese and Gujarati labels ("3倍", "3×") leave word and letter to the colours, so a
    legend under the board names each square in the reader's language."""
    import io

    from PIL import Image

    from render.scrabble import PREMIUM_LABELS, PREMIUM_NAMES
    from tests.render.samples import drawn

    board = scrabble.view(scored_game())
    assert Image.open(io.BytesIO(render_board(board))).size == (600, 600)
    for lang in OTHERS:
        labels = [voice(lang)(label) for label in PREMIUM_LABELS.values()]
        assert len(set(labels)) < len(labels), lang  # else no legend is needed
        png, texts = drawn(lambda: render_board(board, voice(lang)))
        width, height = Image.open(io.BytesIO(png)).size
        assert width == 600 and 600 < height <= 700, (lang, height)
        # A name may be drawn in runs, one per font (spaces between them not seen).
        everything = "".join(text for _, text in texts).replace(" ", "")
        for name in PREMIUM_NAMES.values():
            assert voice(lang)(name).replace(" ", "") in everything, (lang, name)


def test_alt_text_in_chinese():
    rows = ["." * 15] * 15
    rows[7] = ".......QUIz...."
    rows[8] = ".......A......."
    view = scrabble.view(new_game(2, seed=3))
    view = SimpleNamespace(**{**view.__dict__, "board": scrabble.Board.parse("\n".join(rows)).rows})
    assert alt.scrabble_board(view, voice("zh-TW")) == (
        "英文拼字遊戲板；依起始格列出單字（小寫：空白牌）：H8 橫向 QUIz, H8 直向 QA。")
    assert alt.scrabble_rack("QI?", voice("zh-TW")) == "你的牌架，3 張字母牌：Q I 空白。"


def test_events_and_reasons_saved_in_english_still_read_with_names():
    """A match saved before events carried values shows its English text, names put in."""
    from bot.adapters.scrabble.words import reason_text
    from bot.ui.present import seat_names

    match = table(new_game(2, seed=1))
    old = Event("pass", "{seat0} passes; {seat1} is next.", 0)
    assert ENGLISH_VOICE(cog().event_text(match, old)) == "**alice** passes; **bob** is next."
    said = ENGLISH_VOICE(reason_text("{seat1} went out", {}, seat_names(match)))
    assert said == "**bob** went out."
