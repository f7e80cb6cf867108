"""A reviewed Dou Dizhu turn pictured (render/review_doudizhu.py): phone-sized in every
language at its fullest (33 cards in hand, a 30-card airplane to beat, the longest names),
the cards of the move played and of the better move marked in their colours, and the alt text
and reasons worded in every language."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games.doudizhu as dd
from i18n import LANGUAGES, PSEUDO, voice
from render.phone import MAX_ASPECT, MAX_BYTES, MIN_TEXT, WIDTH, shown_scale
from render.review_doudizhu import BETTER, PLAYED, reason_words, review_alt, review_png
from tests.games.doudizhu.positions import play, staged
from tests.pseudo import leftover_words
from tests.render.samples import SCRIPT_NAMES, drawn

NAMES = list(SCRIPT_NAMES[:4])
AIRPLANE = "333444555666777888" + "99TTJJQQKKAA"  # 6 trios and 6 pairs: 30 cards


def turns() -> list[tuple[str, dd.View, int, str, str]]:
    """(label, view, seat, played, better) at the fullest each part of the picture gets."""
    auction = dd.new_game(4, seed=7)
    seat = dd.current_seat(auction)
    # the landlord holds 33 cards and answers a peasant's 24-card pair sequence
    long_answer = play(staged(["3456789TJQKA2" * 2 + "2BBRRA2", "3456789TJQKA2" + "3456789TJQ"
                               + "BR", "3456789TJQKA2" + "3456789TJQ" + "RR",
                               "33445566778899TTJJQQKKAA2"], landlord=0, turn=3),
                       "33445566778899TTJJQQKKAA")
    # a peasant with 25 cards answers the landlord's 30-card airplane
    airplane = play(staged([AIRPLANE + "22B", "3456789TJQKA2" + "3456789TJQK" + "B",
                            "3456789TJQKA2" + "3456789TJQKA", "3456789TJQKA2" + "456789TJQKA2"],
                           landlord=0), AIRPLANE)
    lead = staged(["3456789TJQKA2" * 2 + "2BBRRA2", "3" * 4 + "4" * 4, "55", "66"], landlord=0)
    three = play(staged(["33344456", "TJQKA", "2B"], landlord=0), "33344456")
    return [
        ("4 players, auction", dd.view(auction, seat), seat, "bid pass", "bid 3"),
        ("4 players, 33 cards answer 24", dd.view(long_answer, 0), 0, "BBRR", "pass"),
        ("4 players, 25 cards answer 30", dd.view(airplane, 1), 1, "pass", "pass"),
        ("4 players, 33 cards lead", dd.view(lead, 0), 0, "3", str(dd.Play("3456789TJQKA"))),
        ("3 players, trio chain to beat", dd.view(three, 1), 1, "pass", "pass"),
    ]


@pytest.fixture(scope="module", params=[*LANGUAGES])
def pictures(request) -> list[tuple[str, bytes, list[tuple[float, str]]]]:
    say = voice(request.param)
    return [(f"{request.param}: {label}", *drawn(lambda v=view, s=seat, p=played, b=best:
                                                   review_png(v, s, p, b, say, NAMES)))
            for label, view, seat, played, best in turns()]


def test_every_review_picture_fits_the_phone(pictures):
    for label, png, texts in pictures:
        image = Image.open(io.BytesIO(png))
        width, height = image.size
        assert width <= WIDTH and height <= MAX_ASPECT * width, f"{label}: {width}x{height}"
        assert len(png) < MAX_BYTES, label
        scale = shown_scale(width, height)
        size, text = min(texts)
        assert size * scale >= MIN_TEXT, f"{label}: {text!r} is {size * scale:.1f} px"


def colour_count(png: bytes, colour: tuple[int, int, int]) -> int:
    data = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    return sum(1 for at in range(0, len(data), 3)
               if sum(abs(a - b) for a, b in zip(data[at:at + 3], colour)) < 40)


def test_the_cards_of_each_move_are_marked_in_its_colour():
    """The played cards in orange, the better move's in green; a pass marks no card, so a
    pass judged best leaves only the legend's green mark."""
    state = staged(["33345678TJ", "KK", "AA"], landlord=0)
    view = dd.view(state, 0)
    both = review_png(view, 0, "3", "34567", voice("en"), NAMES)
    same = review_png(view, 0, "34567", "34567", voice("en"), NAMES)
    quiet = play(staged(["33345678TJ", "KK", "AA"], landlord=0, turn=1), "KK")
    passed = review_png(dd.view(quiet, 2), 2, "pass", "pass", voice("en"), NAMES)
    legend = colour_count(passed, BETTER)  # the legend's mark and its words
    assert colour_count(both, PLAYED) > 3 * colour_count(passed, PLAYED)
    assert colour_count(both, BETTER) > 3 * legend
    assert colour_count(same, BETTER) > 3 * legend
    assert colour_count(same, PLAYED) <= colour_count(passed, PLAYED)


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_the_alt_text_says_the_moves_the_turn_and_the_hand(lang):
    say = voice(lang)
    for label, view, seat, played, best in turns():
        alt = review_alt(view, seat, played, best, say, NAMES)
        assert 0 < len(alt) <= 1024, label
        assert NAMES[seat] in alt
        if lang == PSEUDO:
            assert leftover_words(alt, NAMES) == [], (label, alt)
        if lang == "en":
            assert "hand" in alt and ("better" in alt or "best move" in alt)


REASONS = [("pass_could_win", {"play": "22"}), ("out_missed", {"play": "33"}),
           ("bomb_early", {"play": "7777", "type": "bomb"}),
           ("bomb_early", {"play": "BR", "type": "rocket"}),
           ("partner_beaten", {}), ("broke_chain", {"chain": "34567", "play": "5"}),
           ("bid_too_high", {"bid": 0, "played": 2}), ("bid_too_high", {"bid": 1, "played": 3}),
           ("bid_too_low", {"bid": 2, "played": 0}), ("bid_too_low", {"bid": 3, "played": 1}),
           (None, {})]


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_every_reason_is_worded(lang):
    say = voice(lang)
    said = [say(reason_words(reason, values)) for reason, values in REASONS]
    assert all(said) and len(set(said)) == len(said)
    if lang == PSEUDO:
        assert all(leftover_words(text, []) == [] for text in said), said
    if lang != "en":
        english = voice("en")
        assert all(text != english(reason_words(reason, values))
                   for text, (reason, values) in zip(said, REASONS))
