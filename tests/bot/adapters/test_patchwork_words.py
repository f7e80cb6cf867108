"""Patchwork in every language: the engine's events, errors and outcomes are keys and plain
values, and bot/adapters/patchwork/ and render/alt.py word them with a voice."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from babel.messages.pofile import read_po

import games.patchwork as pw
from bot.adapters.patchwork.presenter import PatchworkPresenter
from bot.adapters.patchwork.words import (
    error_words, event_words, orientation_words, phase_problem, preview_problem,
)
from games.common import Event, GameError
from i18n import BABEL_LOCALES, LANGUAGES, Text, po_path, voice
from render import alt
from tests.bot.adapters.wording import raised, seated

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
MINE = ("bot/adapters/patchwork/", "render/patchwork.py")
CJK = re.compile(r"[\u4e00-\u9fff]")
GUJARATI = re.compile(r"[\u0a80-\u0aff]")
NAMES = {"seat0": "**alice**", "seat1": "**bob**"}


def cog() -> PatchworkPresenter:
    """The presenter without a bot: its wording needs none."""
    return PatchworkPresenter.__new__(PatchworkPresenter)


def match(names=("alice", "bob")):
    return seated(names)


def make(**fields) -> pw.State:
    return replace(pw.new_game(2, seed=7), events=(), **fields)


def every_event() -> list[Event]:
    """One event of each kind (and each way of taking income and of ending)."""
    events = list(pw.new_game(2, seed=7).events)  # start
    s = make(circle=(0, 3, 1, 2, 4), positions=(2, 5), top_seat=1, buttons=(20, 5))
    events += pw.apply(s, 0, pw.Buy(1, "90m", "a1")).events  # buy, again (behind)
    s = make(circle=(3, 0, 1), positions=(3, 5), top_seat=1, buttons=(10, 10))
    events += pw.apply(s, 0, pw.Buy(1, "0", "a1")).events  # buy, again (on top)
    s = make(positions=(3, 8))
    events += pw.apply(s, 0, pw.Pass()).events  # pass, income (none)
    s = make(circle=(8, 0, 1), positions=(0, 6), top_seat=0, buttons=(6, 5), leather_spaces=())
    events += pw.apply(s, 0, pw.Buy(1, "0", "a1")).events  # income (2 buttons)
    s = make(circle=(0, 1, 2), positions=(19, 30), top_seat=1, buttons=(10, 5))
    leather = pw.apply(s, 0, pw.Buy(1, "0", "a1"))
    events += leather.events + pw.apply(leather, 0, pw.Place("e5")).events  # leather, place
    full = tuple(pw.Placed(pw.LEATHER_ID, "0", sq) for sq in pw.SQUARES[:-1])
    s = make(quilts=(full, ()), positions=(48, 52), top_seat=1, leather_spaces=(50,))
    bonus = pw.apply(s, 0, pw.Pass())  # income, leather, then the last free square
    events += pw.apply(bonus, 0, pw.Place(pw.SQUARES[-1])).events  # place, bonus
    s = make(quilts=(full + (pw.Placed(pw.LEATHER_ID, "0", pw.SQUARES[-1]),), ()),
             positions=(48, 52), top_seat=1, leather_spaces=(50,), bonus_seat=1)
    events += pw.apply(s, 0, pw.Pass()).events  # the leather patch is lost
    s = make(positions=(52, 53), top_seat=1, finished=(1,), buttons=(5, 6), leather_spaces=())
    events += pw.apply(s, 0, pw.Pass()).events  # final income, finish, end (tie broken)
    s = make(positions=(52, 53), top_seat=1, finished=(1,), buttons=(9, 6), leather_spaces=())
    events += pw.apply(s, 0, pw.Pass()).events[-1:]  # end on points
    events += pw.resign(pw.new_game(2, seed=7), 1).events
    return events


def every_error() -> list[GameError]:
    s = make(circle=(13, 8, 0), positions=(0, 0), top_seat=0, buttons=(4, 5), turn=2)
    roomy = replace(s, buttons=(20, 5), quilts=((pw.Placed(pw.LEATHER_ID, "0", "e5"),), ()))
    leather = pw.apply(make(circle=(0, 1, 2), positions=(19, 30), top_seat=1, buttons=(10, 5)),
                       0, pw.Buy(1, "0", "a1"))
    actions = [
        lambda: pw.apply(s, 1, pw.Pass()),  # not your turn: on top
        lambda: pw.apply(make(positions=(3, 5)), 1, pw.Pass()),  # behind
        lambda: pw.apply(pw.new_game(2, seed=7), 1 - pw.new_game(2, seed=7).start_seat,
                         pw.Pass()),  # drawn to start
        lambda: pw.apply(leather, 1, pw.Pass()),  # the other must place leather
        lambda: pw.apply(pw.resign(s, 0), 0, pw.Pass()),  # over
        lambda: pw.resign(s, 5),  # not playing
        lambda: pw.new_game(3, seed=1),
        lambda: pw.new_game(2, seed=1, options={"fast": True}),
        lambda: pw.apply(leather, 0, pw.Pass()),  # place first
        lambda: pw.apply(s, 0, pw.Place("a1")),  # no leather
        lambda: pw.apply(s, 0, "pass"),  # not a move
        lambda: pw.apply(s, 0, pw.Buy(1, "0", "a1")),  # too dear
        lambda: pw.apply(roomy, 0, pw.Buy(2, "0", "d4")),  # overlap
        lambda: pw.apply(roomy, 0, pw.Buy(1, "0", "f1")),  # past column i
        lambda: pw.apply(roomy, 0, pw.Buy(1, "90", "a6")),  # past row 9
        lambda: pw.apply(roomy, 0, pw.Buy(2, "0", "i9")),  # past both
        lambda: pw.apply(replace(roomy, circle=(13, 8)), 0, pw.Buy(3, "0", "a1")),  # few left
        lambda: pw.apply(replace(roomy, circle=()), 0, pw.Buy(1, "0", "a1")),  # none left
        lambda: pw.apply(leather, 0, pw.Place("a1")),  # filled
        lambda: pw.parse_move(""), lambda: pw.parse_move("sew it"), lambda: pw.parse_move("buy"),
        lambda: pw.parse_move("buy 4 0 a1"), lambda: pw.parse_move("buy 1 45 a1"),
        lambda: pw.parse_move("buy 1 0 z9"), lambda: pw.parse_move("place"),
        lambda: pw.parse_move("pass now"), lambda: pw.Buy(4, "0", "a1"),
        lambda: pw.Buy.parse("sell 1 0 a1"),
    ]
    errors = raised(actions)
    finished = replace(s, positions=(53, 0), finished=(0,))
    errors.append(pw.buy_problem(finished, 0, pw.Buy(1, "0", "a1"), any_turn=True))
    errors.append(pw.buy_problem(leather, 0, pw.Buy(1, "0", "c3")))
    return errors


def test_engine_events_and_errors_carry_no_sentences():
    kinds = set()
    for event in every_event():
        kinds.add(event.kind)
        assert event.text == ""
        assert all(not isinstance(value, str) or len(value.split()) <= 2  # "90 mirrored"
                   for value in event.values.values())
    assert kinds == {"start", "buy", "again", "pass", "income", "leather", "place", "bonus",
                     "lost", "finish", "end", "resign"}
    keys = {error.key for error in every_error()}
    assert all(re.fullmatch(r"patchwork\.[a-z_]+", key) for key in keys)
    assert len(keys) == 26


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_event_and_error_is_worded(lang):
    say = voice(lang)
    for event in every_event():
        text = say(cog().event_text(match(), event))
        assert text and "{" not in text and "seat" not in text, (event, text)
        assert "**alice**" in text or "**bob**" in text, text
        if lang != "en":
            assert CJK.search(text) or GUJARATI.search(text), text
    for error in every_error():
        words = cog().error_text(error)
        assert isinstance(words, Text), error.key
        text = say(words)
        assert "{" not in text and "patchwork." not in text, text
        if lang != "en":
            assert CJK.search(text) or GUJARATI.search(text), text


def test_english_words_are_as_before():
    say = voice("en")
    said = [say(event_words(event, NAMES)) for event in every_event()]
    assert said[0] in ("**alice** was drawn to start.", "**bob** was drawn to start.")
    assert said[1] == ("**alice** bought a 2-square patch (2 buttons, 1 time, 0 income) and "
                       "placed it on a1 (turned 90 mirrored).")
    assert said[2] == "**alice** is still behind and moves again."
    assert "**alice** arrived last on the shared space and moves again." in said
    assert "**alice** passed, moving 6 spaces and taking 6 buttons." in said
    assert ("**alice** crossed the income space 5 and took no income (no buttons on their quilt "
            "yet).") in said
    assert "**alice** crossed the income space 5 and took 2 buttons of income." in said
    assert "**alice** reached space 20 first and takes its leather patch." in said
    assert "**alice** placed a leather patch on e5." in said
    assert "**alice** filled a 7x7 square first and takes the bonus tile (+7)." in said
    assert "**alice**'s quilt is full, so the leather patch is set aside." in said
    assert "**alice** reached the final space." in said
    assert ("The game is over: **alice** -156, **bob** -156. **bob** wins (tie broken: first to "
            "reach the final space).") in said
    assert "The game is over: **alice** -152, **bob** -156. **alice** wins." in said
    assert said[-1] == "**bob** resigned; **alice** wins."
    worded = [say(error_words(error)) for error in every_error()]
    assert worded[:6] == [
        "It is not your turn: your tokens share a space and the other player's arrived last, so "
        "it is on top and moves.",
        "It is not your turn: the other player's time token is behind yours, so they move.",
        "It is not your turn: the other player was drawn to start.",
        "It is not your turn: the other player must place a leather patch first.",
        "The game is over.",
        "seat 5 is not playing in this game",
    ]
    assert worded[8:19] == [
        "you must place a leather patch first: write 'place' and a free square, e.g. 'place e5'",
        "you have no leather patch to place: buy a patch ('buy 1 0 a1') or 'pass'",
        "'pass' is not a Patchwork move: use 'buy 2 90m c4', 'pass' or 'place e5'",
        "that patch costs 7 buttons, you have 4",
        "patch 2 can't go on d4 turned 0: it would cover e5, already filled",
        "patch 1 can't go on f1 turned 0: it sticks out past column i",
        "patch 1 can't go on a6 turned 90: it sticks out past row 9",
        "patch 2 can't go on i9 turned 0: it sticks out past column i and row 9",
        "only 2 patches are left on offer; choose 1-2",
        "every patch has been bought: pass instead",
        "a1 is already filled: place the leather patch on an empty square",
    ]
    assert worded[-2:] == [
        "your time token is on the final space: you have no turns left to buy with",
        "you must place your leather patch first"]


def test_events_saved_before_the_keys_keep_their_text():
    old = Event("place", "{seat1} placed a leather patch on e5.", 1)
    assert voice("zh-TW")(cog().event_text(match(), old)) == (
        "**bob** placed a leather patch on e5.")


def test_words_in_chinese_and_gujarati():
    buy = every_event()[1]
    assert voice("zh-TW")(event_words(buy, NAMES)) == (
        "**alice** 買下一塊 2 格的布塊（2 顆鈕扣、1 時間、收入 0），放在 a1（方向 90 鏡像）。")
    assert voice("zh-CN")(event_words(buy, NAMES)).endswith("放在 a1（方向 90 镜像）。")
    assert "પેચ ખરીદ્યો" in voice("gu")(event_words(buy, NAMES))
    assert voice("zh-TW")(orientation_words("270 mirrored")) == "270 鏡像"
    assert voice("zh-TW")(orientation_words("180")) == "180"
    overlap = every_error()[12]
    assert voice("zh-CN")(error_words(overlap)) == (
        "第 2 块布块无法以方向 0 放在 d4：会盖住已经填满的 e5")
    assert voice("zh-TW")(error_words(every_error()[13])).endswith("會超出 i 欄")
    assert voice("zh-CN")(error_words(every_error()[13])).endswith("会超出第 i 列")


def test_phase_and_preview_problems_in_the_players_language():
    leather = pw.apply(make(circle=(0, 1, 2), positions=(19, 30), top_seat=1, buttons=(10, 5)),
                       0, pw.Buy(1, "0", "a1"))
    assert voice("en")(phase_problem(leather, 0, placing=False)).startswith(
        "You must place your leather patch first: use `/patchwork place`")
    assert voice("zh-TW")(phase_problem(leather, 0, placing=False)).startswith(
        "你必須先放置你的皮革布塊：使用 `/patchwork place`")
    dear = make(circle=(13, 8, 0), positions=(0, 0), top_seat=0, buttons=(4, 5))
    assert voice("gu")(preview_problem(dear, 0, pw.Buy(1, "0", "a1"))) == (
        "એ પેચની કિંમત 7 બટન છે, તમારી પાસે 4 છે")


def test_long_input_is_never_echoed_whole_in_any_language():
    for text in ("x" * 100_000, "buy 1 0 " + "z" * 100_000, "buy 1 " + "9" * 100_000 + " a1"):
        with pytest.raises(GameError) as caught:
            pw.parse_move(text)
        for lang in LANGUAGES:
            assert len(voice(lang)(cog().error_text(caught.value))) < 300


def test_alt_text_in_the_channels_language():
    state = pw.new_game(2, seed=4)
    names = ["阿明", "ભાવના"]
    view = pw.view(state)
    text = alt.patchwork_table(view, names, voice("zh-TW"))
    assert text.startswith("拼布對決的桌面。 阿明：5 顆鈕扣，收入 0，時間軌 0/53，81 個空格，"
                           "目前 -157 分。")
    assert f"輪到 {names[view.turn]}（抽籤先開始）。" in text
    assert text.endswith(f"圈中還剩 {len(view.circle)} 塊布塊。")
    assert alt.patchwork_table(view, names) == alt.patchwork_table(view, names, voice("en"))
    assert "પેચવર્કનું ટેબલ." in alt.patchwork_table(view, names, voice("gu"))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_patchwork_message_is_translated(lang):
    """Every message of the Patchwork files, and the Patchwork commands' words, in the
    catalogs (the turn clock's words are the core's)."""
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=BABEL_LOCALES[lang])
    found = 0
    for message in catalog:
        if not message.id:
            continue
        files = {path for path, _ in message.locations}
        ours = any(path.startswith(MINE) for path in files) or any(
            c.startswith("/patchwork") and " turn_time" not in c for c in message.auto_comments)
        if not ours:
            continue
        found += 1
        strings = [message.string] if isinstance(message.id, str) else list(message.string)
        assert strings and all(strings), message.id
    assert found >= 130
