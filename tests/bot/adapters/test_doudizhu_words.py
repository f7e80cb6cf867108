"""Dou Dizhu in every language: the engine gives keys and plain data, the adapter words them
(bot/adapters/doudizhu/words.py) with the players' own terms, and the renderer draws the jokers'
corner word in the reader's script."""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, replace
from types import SimpleNamespace

import pytest
from PIL import Image

import games.doudizhu as dd
from bot.adapters.doudizhu.controls import capitalised, play_kinds, round_over_controls
from bot.adapters.doudizhu.presenter import DouDizhuPresenter
from bot.adapters.doudizhu.words import (
    TYPE_NAMES, describe, error_words, event_words, hand_footer, payment_words, private_prompt,
    reason_words, round_over_line, standings_words, table_title,
)
from games.common import GameError
from i18n import ENGLISH_VOICE, voice
from render.alt import doudizhu_cards
from render.doudizhu import _Size, render_hand, render_play, stacked
from tests.games.doudizhu.positions import play, staged

ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")  # plays, cards and names are not lower-case words
LANGS = ("zh-TW", "zh-CN", "gu")


@dataclass
class Seat:
    seat: int
    name: str
    kind: str = "user"


class Table:
    """What the words need of a match: its players' names."""

    def __init__(self, players: int) -> None:
        self.seats = [Seat(seat, name) for seat, name in
                      enumerate(["Alice", "Bob", "Carol", "Dave"][:players])]

    def player(self, seat: int) -> Seat:
        return self.seats[seat]


def english_left(text: str) -> list[str]:
    return ENGLISH_WORD.findall(text)


def series_events(players: int, seed: int) -> list[dd.Event]:
    """Every event of a seeded series: rounds played out, a redeal, then a resignation."""
    rng = random.Random(seed)
    state = dd.new_game(players, seed=seed)
    events = list(state.events)
    while state.round_no < 3:
        seat = dd.current_seat(state)
        moves = dd.legal_moves(state, seat)
        move = dd.Next() if state.phase == dd.ROUND_OVER else rng.choice(moves[:3])
        state = dd.apply(state, seat, move)
        events += state.events
    state = dd.apply(state, dd.current_seat(state), dd.Bid(3))
    events += dd.forfeit(state, (state.landlord + 1) % players).events
    events += dd.resign(state, state.landlord).events
    return events


@pytest.mark.parametrize("players", [3, 4])
def test_every_event_is_worded_in_every_language(players):
    table = Table(players)
    events = series_events(players, seed=players)
    kinds = {event.kind for event in events}
    assert {"deal", "bid", "landlord", "play", "pass", "trick", "round_end", "forfeit",
            "resign", "end"} <= kinds
    for event in events:
        english = ENGLISH_VOICE(event_words(table, event))
        assert english and "{" not in english
        for lang in LANGS:
            said = voice(lang)(event_words(table, event))
            assert said and said != english and not english_left(said), (lang, said)


def test_the_players_own_terms():
    tw, cn, gu = (voice(lang) for lang in LANGS)
    assert [tw(TYPE_NAMES[kind]) for kind in (dd.SINGLE, dd.PAIR, dd.TRIO_SINGLE, dd.SEQUENCE,
                                              dd.PAIR_SEQUENCE, dd.QUADPLEX, dd.BOMB, dd.ROCKET)] \
        == ["單張", "對子", "三帶一", "順子", "連對", "四帶二", "炸彈", "王炸"]
    assert cn(TYPE_NAMES[dd.TRIO_SEQUENCE_SINGLES]).startswith("飞机带翅膀")
    assert cn(TYPE_NAMES[dd.BOMB]) == "炸弹" and cn(TYPE_NAMES[dd.PAIR_SEQUENCE]) == "连对"
    assert gu(TYPE_NAMES[dd.PAIR]) == "જોડી" and gu(TYPE_NAMES[dd.TRIO]) == "ત્રિપુટી"
    assert gu(TYPE_NAMES[dd.SEQUENCE]) == "ક્રમ" and gu(TYPE_NAMES[dd.BOMB]) == "બોમ્બ"
    assert ENGLISH_VOICE(describe(dd.SEQUENCE, 6)) == "sequence of 6 cards"
    assert tw(describe(dd.SEQUENCE, 6)) == "順子（6 張）"


def test_a_round_end_and_the_standings_in_chinese():
    state = staged(["BR345", "6666Q", "7"], landlord=0, bid=2)
    state = play(state, "BR", "pass", "pass", "3", "6666", "pass", "pass", "Q")
    table = Table(3)
    english = ENGLISH_VOICE(event_words(table, state.events[-1]))
    assert english == ("**Bob** is out of cards: the landlord loses. bid 2 \u00d7 2 (rocket BR) "
                       "\u00d7 2 (bomb 6666) = 8: **Bob** went out first, so the landlord "
                       "**Alice** pays 8 to each other player (-16).")
    chinese = voice("zh-TW")(payment_words(table, dd.payment(state)))
    assert "王炸 BR" in chinese and "炸彈 6666" in chinese and "地主 **Alice**" in chinese
    over = dd.apply(state, 2, dd.Stop())
    result = dd.outcome(over)
    assert voice("zh-CN")(reason_words(table, result)) == "玩家结束了牌局"
    said = voice("zh-CN")(standings_words(table, over.ledger, result.winners))
    assert said == "**Bob**和**Carol** 以 +8 分并列赢得这场牌局。"


def test_refusals_in_every_language():
    state = staged(["7444K", "777J2", "3456"])
    for move, key in (("777", "doudizhu.not_held"), ("pass", "doudizhu.lead_no_pass"),
                      ("3456", "doudizhu.not_held"), ("4445", "doudizhu.not_held")):
        with pytest.raises(GameError) as caught:
            play(state, move)
        assert caught.value.key == key
    with pytest.raises(GameError) as caught:
        play(state, "777")
    assert voice("zh-TW")(error_words(caught.value)) == "你手上沒有三張7（你只有一張）"
    assert voice("gu")(error_words(caught.value)) == "તમારી પાસે ત્રણ 7 નથી (તમારી પાસે ફક્ત એક છે)"
    assert error_words(GameError("reversi.occupied")) is None


def test_kinds_of_play_are_labelled_in_the_readers_language():
    kinds = play_kinds(dd.legal_plays("333444556677BR", None, 3))
    labels = [capitalised(voice("zh-TW"), kind.label) for kind in kinds]
    assert labels[0] == "單張（7）" and "順子（1）" in labels
    assert capitalised(ENGLISH_VOICE, kinds[0].label) == "Single (7)"


def test_alt_text_says_the_jokers_in_the_readers_language():
    assert doudizhu_cards(["RJ", "BJ", "TS"], "x", voice("zh-CN")) == "x：10\u2660 小王 大王。"
    assert "કાળો જોકર" in doudizhu_cards(["BJ"], "x", voice("gu"))


def test_the_corner_word_is_cut_into_letters_characters_and_syllables():
    assert stacked("JOKER") == ["J", "O", "K", "E", "R"]
    assert stacked("જોકર") == ["જો", "ક", "ર"]
    assert stacked("ક્રમ") == ["ક્ર", "મ"]


@pytest.mark.parametrize("lang", LANGS)
def test_jokers_are_drawn_in_every_script_and_fit(lang):
    """The corner word fits the strip of card a hand shows, and the pictures differ from the
    English ones only where the jokers are."""
    for width, step in ((88, 44), (88, 60), (100, 50), (100, 66)):
        size = _Size(width, step, voice(lang))
        assert size.joker_line_size >= 16
        assert all(size.corner_x + right <= step for right in size.joker_right.values())
        assert size.joker_steps[-1] + size.joker_line_size < size.height * 0.8
    hand = ["3S", "TD", "BJ", "RJ"]
    assert render_hand(hand, voice(lang)) != render_hand(hand)
    assert render_hand(["3S", "TD"], voice(lang)) == render_hand(["3S", "TD"])
    picture = Image.open(io.BytesIO(render_play(["BJ", "RJ"], voice(lang))))
    assert picture.size == Image.open(io.BytesIO(render_play(["BJ", "RJ"]))).size



def round_won(state: dd.State, card: str) -> dd.State:
    """The round's opener bids 3 and goes out at once with `card`."""
    state = dd.apply(state, state.turn, dd.Bid(3))
    hands = list(state.hands)
    hands[state.landlord] = (card,)
    return play(replace(state, hands=tuple(hands)), card[0])


def buttons(state: dd.State) -> list[str]:
    match = SimpleNamespace(id=7, row=SimpleNamespace(version=3), state=state)
    return [item["label"] for row in round_over_controls(match).to_components()
            for item in row["components"]]


def test_a_series_of_a_fixed_number_of_rounds_in_words():
    """`deal 1 of 2` where the round is shown, the round's end without `stop` (and without a
    Stop button), the series' end by itself; an open series keeps its words."""
    table = Table(3)
    table.id = 7
    between = round_won(dd.new_game(3, seed=4, options={"deals": 2}), "3S")
    view = dd.view(between, 0)
    with pytest.raises(GameError) as refused:
        dd.apply(between, 0, dd.Stop())
    over = round_won(dd.apply(between, 1, dd.Next()), "4S")
    end, result = over.events[-1], dd.outcome(over)
    rules = DouDizhuPresenter(None).lobby_rules(SimpleNamespace(
        table_size=3, engine_options={"deals": 2}))
    said = {
        "title": table_title(view), "footer": hand_footer(table, view),
        "channel": round_over_line(view), "hand": private_prompt(table, view, 0),
        "refusal": error_words(refused.value), "end": event_words(table, end),
        "reason": reason_words(table, result), "lobby": rules,
    }
    assert {key: ENGLISH_VOICE(words) for key, words in said.items()} == {
        "title": "Dou Dizhu \u00b7 deal 1 of 2",
        "footer": "Dou Dizhu match #7 \u00b7 deal 1 of 2",
        "channel": "**Deal 1 of 2 is over.** `/doudizhu next` deals the next one.",
        "hand": "Deal 1 of 2 is over: the hands and the payment are in the channel. Deal the "
                "next one when you are ready.",
        "refusal": "this series is 2 deals long and ends by itself after the last: it cannot "
                   "be stopped",
        "end": "That was deal 2 of 2: the series is over.",
        "reason": "its last deal is played",
        "lobby": "3 players, one deck (54 cards): 17 cards each, 3 in the kitty \u00b7 2 deals"}
    for lang in LANGS:
        for key, words in said.items():
            text = voice(lang)(words)
            assert text and not english_left(text.replace("`/doudizhu next`", "")), (lang, text)
    assert voice("zh-CN")(said["title"]) == "斗地主 · 第 1 局（共 2 局）"
    assert buttons(between) == ["Next round"]

    still_open = replace(between, deals=None)
    assert ENGLISH_VOICE(table_title(dd.view(still_open))) == "Dou Dizhu \u00b7 round 1"
    assert ENGLISH_VOICE(round_over_line(dd.view(still_open))) == (
        "**Round 1 is over.** `/doudizhu next` deals round 2; `/doudizhu stop` ends the series.")
    assert buttons(still_open) == ["Next round", "Stop the series"]
