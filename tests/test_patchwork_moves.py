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
    "text, fragment",
    [
        ("", "write a move"),
        ("take 2", "I can't read"),
        ("buy", "buy <1-3>"),
        ("buy 4 0 a1", "choose patch 1, 2 or 3"),
        ("buy 1 45 a1", "orientation"),
        ("buy 1 90 j1", "not a square"),
        ("buy 1 90 a0", "not a square"),
        ("place", "place a leather patch like"),
        ("place z9", "not a square"),
        ("pass now", "to pass"),
    ],
)
def test_bad_text(text, fragment):
    with pytest.raises(BadNotation, match=fragment):
        parse_move(text)
