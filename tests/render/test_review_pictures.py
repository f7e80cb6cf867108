"""The review pictures of Reversi and Patchwork turns (render/review_reversi.py,
render/review_patchwork.py): phone-sized in every language with the longest names, the move
played and the better one marked where they go, alt text and reasons worded in every
language."""

from __future__ import annotations

import io
from functools import partial

import pytest
from PIL import Image

import games.patchwork as pw
import games.reversi as reversi
from i18n import LANGUAGES, voice
from render import review_patchwork, review_reversi
from render.alt import LIMIT
from render.phone import MAX_ASPECT, MAX_BYTES, MIN_TEXT, WIDTH, shown_scale
from tests.render.samples import LONG_NAMES, SCRIPT_NAMES, drawn, patchwork_states, reversi_states

REVERSI_REASONS = {"wipeout": {"square": "c4"}, "corner_missed": {"square": "a1"},
                   "corner_given": {"square": "h8"}, "pass_forced": {"square": "b2"}, None: {}}
PATCHWORK_REASONS = {"bonus_missed": {"points": 7}, "blocks_7x7": {}, "holes": {"holes": 2},
                     "placement": {}, "pass_better": {"buttons": 4},
                     "buttons": {"more": 2}, "time": {"spaces": 3},
                     "squares": {"squares": 1}, None: {}}


def reversi_turns() -> list[tuple[str, object, int, str, str]]:
    """(label, view, seat, played, best): a busy midgame, and a best move played."""
    busiest, _ = reversi_states()
    seat = reversi.current_seat(busiest)
    legal = [str(m) for m in reversi.legal_moves(busiest, seat)]
    view = reversi.view(busiest, seat)
    return [("reversi, played and better", view, seat, legal[0], legal[-1]),
            ("reversi, the best move played", view, seat, legal[1], legal[1])]


def patchwork_turns() -> list[tuple[str, object, int, str, str]]:
    """A buy against a pass, one patch in two places, and a leather patch placed."""
    states = patchwork_states()
    mid = next(s for s in states[len(states) // 3:] if pw.turn_reason(s) != pw.TURN_LEATHER
               and any(isinstance(m, pw.Buy) and m.choice == 3
                       for m in pw.legal_moves(s, pw.current_seat(s))))
    seat = pw.current_seat(mid)
    buys = [str(m) for m in pw.legal_moves(mid, seat) if isinstance(m, pw.Buy)]
    third = [b for b in buys if b.startswith("buy 3")]
    leather = next(s for s in states if pw.turn_reason(s) == pw.TURN_LEATHER)
    leather_seat = pw.current_seat(leather)
    places = [str(m) for m in pw.legal_moves(leather, leather_seat)]
    view = pw.view(mid, seat)
    return [("patchwork, a buy and a pass", view, seat, third[-1], "pass"),
            ("patchwork, one patch in two places", view, seat, buys[0], buys[len(buys) // 2]),
            ("patchwork, the best move played", view, seat, "pass", "pass"),
            ("patchwork, leather", pw.view(leather, leather_seat), leather_seat, places[0],
             places[-1])]


CASES = ([(review_reversi, *turn) for turn in reversi_turns()]
         + [(review_patchwork, *turn) for turn in patchwork_turns()])


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_review_picture_fits_a_phone(lang):
    problems = []
    for module, label, view, seat, played, best in CASES:
        for names in (LONG_NAMES, SCRIPT_NAMES[2:4]):
            png, texts = drawn(partial(module.review_png, view, seat, played, best,
                                       voice(lang), names))
            image = Image.open(io.BytesIO(png))
            width, height = image.size
            scale = shown_scale(width, height)
            assert texts, label
            size, text = min(texts)
            if width > WIDTH or height > MAX_ASPECT * width or len(png) > MAX_BYTES:
                problems.append(f"{lang} {label}: {width}x{height}, {len(png)} bytes")
            if size * scale < MIN_TEXT:
                problems.append(f"{lang} {label}: {text!r} is {size * scale:.1f} px")
    assert not problems, problems


def near(image: Image.Image, box: tuple[int, int, int, int], colour) -> int:
    """How many pixels in `box` are close to `colour`."""
    counted = image.convert("RGB").crop(box).getcolors(1 << 16) or []
    return sum(count for count, pixel in counted
               if sum(abs(a - b) for a, b in zip(pixel, colour)) < 60)


def test_the_reversi_marks_are_where_the_moves_go():
    from render.reversi import CELL, MARGIN

    (_, view, seat, played, best), _same = reversi_turns()
    image = Image.open(io.BytesIO(review_reversi.review_png(view, seat, played, best)))

    def square(name: str) -> tuple[int, int, int, int]:
        index = reversi.parse_move(name).square
        row, col = divmod(index, 8)
        return (MARGIN + col * CELL, MARGIN + row * CELL, MARGIN + (col + 1) * CELL,
                MARGIN + (row + 1) * CELL)

    assert near(image, square(played), review_reversi.PLAYED) > 50
    assert near(image, square(best), review_reversi.PLAYED) == 0
    assert near(image, square(best), review_reversi.BETTER) > 50
    assert near(image, square(played), review_reversi.BETTER) == 0


def test_the_patchwork_marks_are_on_the_quilt_where_the_patches_go():
    from render.review_patchwork import CELL, QUILT_X, QUILT_Y

    _, view, seat, played, best = patchwork_turns()[3]  # leather: one square each
    image = Image.open(io.BytesIO(review_patchwork.review_png(view, seat, played, best)))

    def square(name: str) -> tuple[int, int, int, int]:
        row, col = divmod(pw.square_index(name.split()[1]), 9)
        return (int(QUILT_X + col * CELL), int(QUILT_Y + row * CELL),
                int(QUILT_X + (col + 1) * CELL), int(QUILT_Y + (row + 1) * CELL))

    assert near(image, square(played), review_patchwork.PLAYED) > 50
    assert near(image, square(best), review_patchwork.BETTER) > 50
    assert near(image, square(best), review_patchwork.PLAYED) == 0


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_alt_text_says_both_moves_in_every_language(lang):
    for module, label, view, seat, played, best in CASES:
        said = module.review_alt(view, seat, played, best, voice(lang), LONG_NAMES)
        assert 0 < len(said) <= LIMIT, label
        assert played in said and best in said and LONG_NAMES[seat] in said, label
        if lang != "en":
            assert said != module.review_alt(view, seat, played, best, voice("en"),
                                             LONG_NAMES), label


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_reason_is_one_translated_line(lang):
    english = voice("en")
    for module, reasons in ((review_reversi, REVERSI_REASONS),
                            (review_patchwork, PATCHWORK_REASONS)):
        for reason, values in reasons.items():
            words = module.reason_words(reason, values)
            said = voice(lang)(words)
            assert said and "\n" not in said and said != english(words), (reason, said)
            for value in values.values():
                assert str(value) in said, (reason, said)
