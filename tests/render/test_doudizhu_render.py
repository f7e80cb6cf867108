"""The Dou Dizhu renderer draws valid PNGs of hands and plays, within the width limit."""

from __future__ import annotations

import io

from PIL import Image

import games.doudizhu as dd
from render.doudizhu import MAX_WIDTH, render_hand, render_play


def image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    picture = Image.open(io.BytesIO(data))
    picture.load()
    return picture


def test_hands_of_every_size_fit_the_width() -> None:
    three = dd.new_game(3, seed=1)
    four = dd.new_game(4, seed=1)
    heights = {}
    for hand in (three.hands[0], three.hands[1] + three.kitty, four.hands[0], four.hands[0] + four.kitty):
        picture = image(render_hand(hand))
        assert picture.format == "PNG" and 0 < picture.width <= MAX_WIDTH
        heights[len(hand)] = picture.height
    assert heights[33] > heights[17]           # large hands go to a second row


def test_small_hands_and_plays() -> None:
    assert image(render_hand(["RJ"])).width < 200
    assert image(render_hand([])).width > 0
    play = image(render_play(["3S", "3H", "3D", "4C", "4S"]))
    assert play.height > image(render_hand(["3S", "3H", "3D", "4C", "4S"])).height  # larger cards
    rocket = image(render_play(["BJ", "RJ", "BJ", "RJ"]))
    assert 300 <= rocket.width < 400 and rocket.height < 200


def test_order_does_not_matter() -> None:
    assert render_hand(["RJ", "3S", "TD", "BJ"]) == render_hand(["3S", "BJ", "TD", "RJ"])


def test_jokers_look_different_from_each_other() -> None:
    assert render_play(["BJ"]) != render_play(["RJ"])
