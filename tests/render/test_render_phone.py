"""Every picture is readable on a 390-px-wide phone without zoom (the rule in render/phone.py):
at its worst-case content (tests/render/samples.py), in every language the bot speaks, it is at
most 1.5 times as tall as wide, its smallest text is at least 10 px once Discord scales it to the
phone, and it is at most 200 KB."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from i18n import LANGUAGES, voice
from render.phone import MAX_ASPECT, MAX_BYTES, MIN_TEXT, SHOWN_WIDTH, shown_scale
from tests.render.samples import drawn, samples


@pytest.fixture(scope="module", params=list(LANGUAGES))
def pictures(request) -> list[tuple[str, bytes, list[tuple[float, str]]]]:
    """Every sample picture worded in one language (each label starts with the language)."""
    lang = request.param
    return [(f"{lang}: {label}", *drawn(draw)) for label, draw in samples(voice(lang))]


def test_the_phone_rule() -> None:
    assert shown_scale(600, 600) == SHOWN_WIDTH / 600      # wide: fitted to the width
    assert shown_scale(240, 100) == 1.0                    # small: never enlarged
    assert shown_scale(300, 900) < 1.0                     # too tall: shrunk further


def test_every_picture_fits_the_phone_width_and_height(pictures) -> None:
    for label, png, _ in pictures:
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG", label
        width, height = image.size
        assert height <= MAX_ASPECT * width, f"{label}: {width}x{height} is too tall"


def test_the_smallest_text_is_readable_once_scaled(pictures) -> None:
    problems = []
    for label, png, texts in pictures:
        assert texts, f"{label}: no text seen"
        scale = shown_scale(*Image.open(io.BytesIO(png)).size)
        size, text = min(texts)
        if size * scale < MIN_TEXT:
            problems.append(f"{label}: {text!r} is {size * scale:.1f} px on the phone")
    assert not problems, problems


def test_no_picture_is_over_200_kb(pictures) -> None:
    sizes = {label: len(png) for label, png, _ in pictures}
    assert all(size <= MAX_BYTES for size in sizes.values()), sizes


def test_a_played_card_is_shown_large() -> None:
    """The cards just played were a 240x106 stamp; now a strip as wide as the phone shows."""
    from render.doudizhu import render_play

    image = Image.open(io.BytesIO(render_play(["TH"])))
    assert image.width >= SHOWN_WIDTH and image.height >= 150


def test_a_missing_condensed_face_falls_back_to_the_regular_dejavu(monkeypatch):
    """Without the condensed face, condensed labels are drawn in the regular DejaVu, not
    Pillow's bitmap-like default, which has other metrics."""
    from render import fonts

    monkeypatch.setitem(fonts._FACES, (True, True), "NoSuchCondensed-Bold.ttf")
    fonts.font.cache_clear()
    try:
        face = fonts.font(20, condensed=True)
        assert Path(face.path).name == "DejaVuSans-Bold.ttf"
    finally:
        fonts.font.cache_clear()
