"""The fonts shipped with the renderers draw names in any script the games' players use:
every character of Chinese (both forms), Gujarati (conjuncts included), Japanese, Korean and
Latin names is drawn by some font of the chain, never as a missing-glyph box; an emoji
becomes a plain mark; and a Patchwork table shows such names."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

import games.patchwork as pw
from render import fonts
from render.patchwork import render_game

NAMES = ["王小明", "陳大文", "地主農民", "ગુજરાતી", "ક્ષિતિજ શ્રી", "さくら", "김민준", "Zoë Ñúñez",
         "Дмитрий"]


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_has_a_font(name):
    for part, face in fonts.runs(name, 40):
        assert fonts.MARK not in part
        assert all(fonts.covers(face, char) for char in part), (name, part)


def test_the_fonts_are_told_apart_by_script():
    faces = {part: face for part, face in fonts.runs("Ann 王 ગુ", 40)}
    paths = {part.strip(): str(face.path) for part, face in faces.items()}
    assert paths["Ann"].endswith("DejaVuSans-Bold.ttf")
    assert paths["王"].endswith("NotoSansCJKsc-Regular-subset.otf")
    assert paths["ગુ"].endswith("NotoSansGujarati-Bold.ttf")


def test_an_emoji_becomes_a_plain_mark():
    assert "".join(part for part, _ in fonts.runs("ok 🎲", 40)) == f"ok {fonts.MARK}"


def test_drawing_a_mixed_name_draws_ink_for_each_part():
    image = Image.new("L", (600, 80), 0)
    fonts.draw_text(ImageDraw.Draw(image), (300, 40), "Ann 王小明 ગુજરાતી", 40, fill=255,
                    anchor="mm")
    box = image.getbbox()
    assert box is not None and box[0] < 300 < box[2]
    width = fonts.text_length("Ann 王小明 ગુજરાતી", 40)
    assert abs((box[2] - box[0]) - width) < 20  # centred as one line


def test_a_patchwork_table_with_chinese_and_gujarati_names():
    state = pw.new_game(2, seed=3)
    png = render_game(pw.view(state), names=["王小明", "ગુજરાતી"])
    image = Image.open(io.BytesIO(png))
    assert image.width == 600


def _open_cjk_faces() -> int:
    import gc

    return sum(1 for obj in gc.get_objects() if isinstance(obj, fonts.ImageFont.FreeTypeFont)
               and str(obj.path).endswith(fonts._CJK))


def test_only_a_few_sizes_of_the_cjk_font_stay_open():
    sizes = range(30, 30 + fonts.FALLBACK_FACES + 4)
    for size in sizes:
        fonts.draw_text(ImageDraw.Draw(Image.new("L", (400, 80))), (0, 0), "王小明", size,
                        fill=255)
        fonts.text_length("王小明", size)
    # one face per size drawn last, and the probe that tells which characters it has
    assert _open_cjk_faces() <= fonts.FALLBACK_FACES + 1


def test_text_drawn_again_after_its_face_was_closed_is_the_same():
    def drawn(size: int) -> bytes:
        image = Image.new("L", (400, 80))
        fonts.draw_text(ImageDraw.Draw(image), (200, 40), "Ann 王小明", size, fill=255,
                        anchor="mm")
        return image.tobytes()

    first = drawn(41)
    for size in range(50, 50 + fonts.FALLBACK_FACES + 1):  # every face of size 41 closes
        drawn(size)
    fonts._mask.cache_clear()
    fonts._width.cache_clear()
    assert drawn(41) == first
