"""A reviewed Scrabble turn as a picture and in words (render/review_scrabble.py): the board
before the turn with both moves marked, the rack and the legend, phone-sized in every language;
its alt text and the judge's reasons worded in all four."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games.scrabble as scrabble
from i18n import LANGUAGES, voice
from render import review
from render.phone import MAX_ASPECT, MAX_BYTES, MIN_TEXT, SHOWN_WIDTH, shown_scale
from render.review_scrabble import BETTER, PLAYED, reason_words, review_alt, review_png
from tests.games.test_records_highlights import EMPTY, scrabble_walk
from tests.render.samples import SCRIPT_NAMES, drawn, scrabble_full_board

NAMES = list(SCRIPT_NAMES[:4])


def cases() -> list[tuple[str, scrabble.View, int, str, str]]:
    """(label, view before the turn, seat, played, best): every kind of move on both sides."""
    walked = scrabble_walk()
    overlap = scrabble.position(EMPTY, ["ACDDEGU", "BFHIKLM"])
    vowels = scrabble.position(EMPTY, ["IIUUVVW", "ABCDEFG"])
    nine = scrabble.position(EMPTY, ["AEHORUZ??", "BCDFGHIKL"], options={"tiles": 9})
    full = scrabble_full_board()
    four = scrabble.position(full.board, ["AEIRT", "B", "C", "D"], bag="", turn=2)
    return [
        ("phony against a play", scrabble.view(walked[0].before, 0), 0, "H8 across QIZ",
         "H8 across QAT"),
        ("plays sharing squares", scrabble.view(overlap, 0), 0, "H8 down CUE",
         "H6 down CADGED"),
        ("pass against an exchange", scrabble.view(vowels, 0), 0, "pass",
         "exchange IIUUVVW"),
        ("two exchanges", scrabble.view(vowels, 0), 0, "exchange UUVVW", "exchange IIUUVVW"),
        ("the best move played", scrabble.view(overlap, 0), 0, "H6 down CADGED",
         "H6 down CADGED"),
        ("9-tile rack, two blanks", scrabble.view(nine, 0), 0, "H8 across ZOA",
         "A8 across AUtHORiZE"),
        ("full board, four players", scrabble.view(four, 2), 2, "pass", "pass"),
    ]


@pytest.fixture(scope="module", params=list(LANGUAGES))
def pictures(request):
    lang = request.param
    speaker = voice(lang)
    return lang, [(f"{lang}: {label}", *drawn(lambda: review_png(view, seat, played, best,
                                                                 speaker, NAMES)))
                  for label, view, seat, played, best in cases()]


def test_every_review_picture_fits_the_phone(pictures):
    _, drawn_pictures = pictures
    for label, png, texts in drawn_pictures:
        image = Image.open(io.BytesIO(png))
        width, height = image.size
        assert width <= 600 and height <= MAX_ASPECT * width, f"{label}: {width}x{height}"
        assert len(png) < MAX_BYTES, f"{label}: {len(png)} bytes"
        scale = shown_scale(width, height)
        size, text = min(texts)
        assert size * scale >= MIN_TEXT, f"{label}: {text!r} is {size * scale:.1f} px"
        assert width * scale == SHOWN_WIDTH


def colour_count(png: bytes, colour: tuple[int, int, int]) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(count for count, pixel in image.getcolors(1 << 24)
               if all(abs(a - b) <= 12 for a, b in zip(pixel, colour)))


def test_the_move_played_and_the_better_move_are_both_marked():
    label, view, seat, played, best = cases()[1]
    png = review_png(view, seat, played, best, voice(), NAMES)
    alone = review_png(view, seat, best, best, voice(), NAMES)
    assert colour_count(png, PLAYED) > 1000 and colour_count(png, BETTER) > 1000
    assert colour_count(alone, BETTER) < 50  # the best move played: no ghost


def test_the_dispatcher_draws_scrabble_turns():
    label, view, seat, played, best = cases()[0]
    assert review.review_png("scrabble", view, seat, played, best, voice(), NAMES)[:4] == \
        b"\x89PNG"
    assert review.review_alt("scrabble", view, seat, played, best, voice(), NAMES)
    assert review.reason_words("scrabble", None, {}) is None


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_alt_text_says_both_moves_the_rack_and_the_board(lang):
    speaker = voice(lang)
    for label, view, seat, played, best in cases():
        alt = review_alt(view, seat, played, best, speaker, NAMES)
        assert 0 < len(alt) <= 1024, label
        assert NAMES[seat] in alt, label
        for move in {played, best}:
            if isinstance(scrabble.parse_move(move), scrabble.Play):
                assert move.split()[0] in alt and move.split()[-1] in alt, (label, move)
        if lang != "en":
            assert alt != review_alt(view, seat, played, best, voice(), NAMES), label
    english = review_alt(*cases()[1][1:], voice(), NAMES)
    assert "not in the dictionary" not in english and "CADGED, 22 points" in english


def test_a_phony_is_said_to_score_nothing():
    label, view, seat, played, best = cases()[0]
    alt = review_alt(view, seat, played, best, voice(), NAMES)
    assert "H8 across QIZ, not in the dictionary" in alt


REASONS = [
    ("phony", {"words": ["QIZ", "ZA"]}),
    ("phony", {"words": ["QIZ"]}),
    ("finish_missed", {"target": 120, "move": "H8 across CHASTER"}),
    ("bingo_missed", {"move": "H4 down STAINER", "score": 66}),
    ("exchange_better", {"tiles": "IIUUVVW", "kept": ""}),
    ("exchange_better", {"tiles": "IUVW", "kept": "EST"}),
    ("bad_leave", {"kept": "A", "better_kept": "AS"}),
    ("bad_leave", {"kept": "", "better_kept": "S"}),
    ("anything else", {}),
]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_reason_is_worded_in_every_language(lang):
    speaker = voice(lang)
    said = [speaker(reason_words(reason, values)) for reason, values in REASONS]
    assert all(text and "{" not in text for text in said), said
    assert "66" in said[3] and "120" in said[2] and "AS" in said[6]
    if lang != "en":
        english = [voice()(reason_words(reason, values)) for reason, values in REASONS]
        assert all(a != b for a, b in zip(said, english)), said
