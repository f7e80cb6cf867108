"""A replay (render/replay.py) has one frame per logged action of every game, stays under
Discord's upload limit for a long Dou Dizhu series, holds text readable on a phone, and is
drawn from the public view only: a hand never shows, even in a running match."""

from __future__ import annotations

import io
from dataclasses import replace
from importlib import import_module

import pytest
from PIL import Image

from bot.workers.replay_animation import animate
from games.replay import steps
from i18n import voice
from render import replay as replay_render
from render.phone import MAX_ASPECT, MIN_TEXT, SHOWN_WIDTH, shown_scale
from tests.games.playouts import played

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def replay(game: str, players: int, log, lang: str = "en") -> bytes:
    return animate(game, players, 7, None, list(log), NAMES[:players], lang)


@pytest.mark.parametrize("game, players, rounds", [
    ("reversi", 2, 1), ("scrabble", 2, 1), ("patchwork", 2, 1), ("doudizhu", 3, 2)])
def test_a_replay_has_one_frame_per_move(game, players, rounds):
    log = played(game, players, 7, rounds)
    gif = Image.open(io.BytesIO(replay(game, players, log)))
    assert gif.format == "GIF" and gif.n_frames == len(log)
    width, height = gif.size
    assert height <= MAX_ASPECT * width  # the phone rule (render/phone.py)
    assert replay_render.TEXT * shown_scale(width, height) >= MIN_TEXT


def test_a_long_series_stays_under_discords_upload_limit():
    """Ten rounds of four-player Dou Dizhu: hundreds of actions, a frame each."""
    log = played("doudizhu", 4, 7, rounds=10)
    assert len(log) > 500
    data = replay("doudizhu", 4, log)
    assert len(data) < replay_render.MAX_BYTES
    assert Image.open(io.BytesIO(data)).n_frames == len(log)


def test_a_replay_over_the_limit_is_drawn_smaller_but_no_narrower_than_a_phone_shows_it():
    engine = import_module("games.reversi")
    log = played("reversi", 2, 7)
    moves = list(steps(engine, 2, 7, None, log))
    full = replay_render.animation(engine, moves, NAMES[:2], voice("en"))
    limit = len(full) * 2 // 3
    smaller = replay_render.animation(engine, moves, NAMES[:2], voice("en"), max_bytes=limit)
    gif = Image.open(io.BytesIO(smaller))
    assert len(smaller) <= limit and gif.n_frames == len(log)
    assert SHOWN_WIDTH <= gif.width < replay_render.WIDTH
    with pytest.raises(replay_render.ReplayTooLarge):
        replay_render.animation(engine, moves, NAMES[:2], voice("en"), max_bytes=len(full) // 20)


def test_the_last_frame_stays_longer_and_long_replays_play_faster():
    log = played("reversi", 2, 7)
    gif = Image.open(io.BytesIO(replay("reversi", 2, log)))
    gif.seek(1)
    assert gif.info["duration"] == replay_render.FRAME_MS
    gif.seek(gif.n_frames - 1)
    assert gif.info["duration"] == replay_render.LAST_MS
    assert replay_render.frame_ms(1000) == replay_render.SHORTEST_MS


def test_frames_are_drawn_from_the_public_view_only(monkeypatch):
    engine = import_module("games.doudizhu")
    seen: list[object] = []
    real_view = engine.view

    def spy(state, seat=None):
        seen.append(seat)
        return real_view(state, seat)

    monkeypatch.setattr(engine, "view", spy)
    log = played("doudizhu", 3, 7)[:10]  # a round still being played
    replay("doudizhu", 3, log)
    assert len(seen) == len(log) and set(seen) == {None}


def test_a_running_rounds_frame_does_not_change_with_the_hidden_hands():
    """Two deals that differ only in the cards two players hold give the same frame."""
    engine = import_module("games.doudizhu")
    log = played("doudizhu", 3, 7)[:2]  # two bids: the hands are still hidden
    step = list(steps(engine, 3, 7, None, log))[-1]
    hands = step.after.hands
    assert len(hands[0]) == len(hands[1]) and hands[0] != hands[1]
    swapped = replace(step, after=replace(step.after, hands=(hands[1], hands[0], *hands[2:])))

    def frame(s):
        return next(replay_render.frames(engine, [s], NAMES[:3], voice("en"))).tobytes()

    assert frame(step) == frame(swapped)



def test_a_series_of_a_fixed_number_of_deals_is_captioned_deal_of_how_many(monkeypatch):
    said: list[str] = []
    real = replay_render.caption_strip

    def spy(caption, standing, *rest):
        said.append(standing)
        return real(caption, standing, *rest)

    monkeypatch.setattr(replay_render, "caption_strip", spy)
    log = played("doudizhu", 3, 7)[:2]  # two bids of the first deal
    animate("doudizhu", 3, 7, {"deals": 2}, log, NAMES[:3], "en")
    assert len(said) == 2 and all(s.startswith("Dou Dizhu \N{MIDDLE DOT} deal 1 of 2 ")
                                  for s in said)
    said.clear()
    replay("doudizhu", 3, log)
    assert all(s.startswith("Dou Dizhu \N{MIDDLE DOT} round 1 ") for s in said)

@pytest.mark.parametrize("lang", ["zh-TW", "gu"])
def test_captions_in_other_languages(lang):
    log = played("scrabble", 2, 7)[:3]
    gif = Image.open(io.BytesIO(replay("scrabble", 2, log, lang)))
    assert gif.n_frames == 3


def test_a_long_name_is_cut_to_fit_the_caption():
    text, size, condensed = replay_render.fitted("W" * 80, 24, 300)
    assert text.endswith("\N{HORIZONTAL ELLIPSIS}") and size == replay_render.TEXT and condensed
    assert replay_render.fitted("Bob", 24, 300) == ("Bob", 24, False)
