"""Patchwork move text: canonical forms, accepted variants, helpful errors."""

import pytest

from games.common import BadNotation
from games.patchwork import ORIENTATIONS, Buy, Pass, Place, parse_move, parse_orientation


def test_canonical_texts():
    assert str(Buy(2, "90 mirrored", "c4")) == "buy 2 90m c4"
    assert str(Buy(1, "0", "a1")) == "buy 1 0 a1"
    assert str(Pass()) == "pass"
    assert str(Place("e5")) == "place e5"


@pytest.mark.parametrize(
    "text, move",
    [
        ("buy 2 90m c4", Buy(2, "90 mirrored", "c4")),
        ("buy 2 90 mirrored c4", Buy(2, "90 mirrored", "c4")),
        ("BUY 2 90 Mirror C4", Buy(2, "90 mirrored", "c4")),
        ("buy 3 270 i9", Buy(3, "270", "i9")),
        ("buy 1 c4", Buy(1, "0", "c4")),
        ("buy 1 180° a2", Buy(1, "180", "a2")),
        ("  buy   1   0m   a2 ", Buy(1, "0 mirrored", "a2")),
        ("buy 1 360 a2", Buy(1, "0", "a2")),
        ("pass", Pass()),
        ("Advance", Pass()),
        ("place e5", Place("e5")),
        ("PLACE E5", Place("e5")),
    ],
)
def test_parse_variants(text, move):
    assert parse_move(text) == move


def test_round_trip_every_orientation_and_square():
    from games.patchwork.patches import SQUARES

    for choice in (1, 2, 3):
        for name in ORIENTATIONS:
            for sq in SQUARES[::7]:
                m = Buy(choice, name, sq)
                assert parse_move(str(m)) == m
                assert Buy.parse(str(m)) == m
    for sq in SQUARES:
        assert parse_move(str(Place(sq))) == Place(sq) == Place.parse(f"place {sq}")
    assert parse_move(str(Pass())) == Pass() == Pass.parse("pass")


def test_constructor_normalises():
    assert Buy(1, "90m", "C4") == Buy(1, "90 mirrored", "c4")
    assert Place("E5") == Place("e5")
    assert parse_orientation("270 flipped") == "270 mirrored"


@pytest.mark.parametrize(
    "text, key, values",
    [
        ("", "no_move", {}),
        ("take 2", "unreadable", {"text": "take 2"}),
        ("buy", "short_buy", {}),
        ("b", "short_buy", {}),
        ("sell 1 0 a1", "unreadable", {"text": "sell 1 0 a1"}),
        ("buy 4 0 a1", "choose_patch", {"text": "4"}),
        ("buy 1 45 a1", "bad_orientation", {"text": "45"}),
        ("buy 1 90 j1", "bad_square", {"text": "j1"}),
        ("buy 1 90 a0", "bad_square", {"text": "a0"}),
        ("place", "not_a_place", {"text": "place"}),
        ("place z9", "bad_square", {"text": "z9"}),
        ("pass now", "not_a_pass", {"text": "pass now"}),
    ],
)
def test_bad_text(text, key, values):
    with pytest.raises(BadNotation) as err:
        parse_move(text)
    assert err.value.key == f"patchwork.{key}" and err.value.values == values


def test_bad_text_in_words():
    """The bot words each key as it was said before the languages (bot/adapters/patchwork/)."""
    from bot.adapters.patchwork.words import error_words
    from i18n import ENGLISH_VOICE

    def said(text):
        with pytest.raises(BadNotation) as err:
            parse_move(text)
        return ENGLISH_VOICE(error_words(err.value))

    assert said("") == "write a move: 'buy 2 90m c4', 'pass' or 'place e5'"
    assert said("take 2").startswith("I can't read `take 2`: write 'buy 2 90m c4'")
    assert "buy <1-3>" in said("buy")
    assert said("buy 4 0 a1") == "choose patch 1, 2 or 3 of those on offer, not `4`"
    assert said("buy 1 45 a1").startswith("I can't read the orientation `45`: use 0, 90")
    assert said("buy 1 90 j1").startswith("`j1` is not a square of the quilt")
    assert said("place") == "place a leather patch like 'place e5', not `place`"
    assert said("pass now") == "to pass, write 'pass', not `pass now`"
    with pytest.raises(BadNotation) as err:
        Buy(4, "0", "a1")
    assert ENGLISH_VOICE(error_words(err.value)) == (
        "you can only buy patch 1, 2 or 3 of those on offer, not 4")
