"""The Patchwork renderer draws valid PNGs for every phase of a game."""

import io
import random
from dataclasses import replace

from PIL import Image

import games.patchwork as pw
from bot.adapters.patchwork.words import error_words
from i18n import ENGLISH_VOICE, voice
from render.patchwork import render_game, render_preview

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def _states(seed=32):
    rng = random.Random(seed)
    s = pw.new_game(2, seed=seed)
    out = [s]
    while not s.over:
        seat = pw.current_seat(s)
        moves = pw.legal_moves(s, seat)
        buys = [m for m in moves if isinstance(m, pw.Buy)]
        s = pw.apply(s, seat, rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves))
        out.append(s)
    return out


def test_render_game_every_phase():
    states = _states()
    picks = [states[0], states[len(states) // 2], states[-1]]
    picks.append(next(s for s in states if s.pending_seat is not None))
    picks.append(replace(states[5], positions=(9, 9), top_seat=1))
    picks.append(pw.resign(states[3], 0))
    for k, s in enumerate(picks):
        for seat in (None, 0, 1) if k == 1 else (k % 2,):
            image = _image(render_game(pw.view(s, seat)))
            assert image.width == 600  # 300 px wide on a phone: render/phone.py
            assert 500 <= image.height <= 900


def test_render_game_with_bonus_and_few_patches_left():
    s = _states()[-1]
    s = replace(s, bonus_seat=1, circle=s.circle[:2])
    image = _image(render_game(pw.view(s, 1)))
    assert image.width == 600 and image.height < 800  # one row of patches left to show


def test_render_preview_legal_and_illegal():
    s = pw.new_game(2, seed=4)
    s = replace(s, buttons=(20, 20), quilts=((pw.Placed(pw.LEATHER_ID, "0", "e5"),), ()))
    seat = pw.current_seat(s)
    v = pw.view(s, seat)
    ok = _image(render_preview(v, seat, 1, "0", "a1", True, None))
    bad_move = pw.Buy(1, "90 mirrored", "i9")
    reason = error_words(pw.buy_problem(s, seat, bad_move))
    assert "sticks out" in ENGLISH_VOICE(reason)
    bad = _image(render_preview(v, seat, 1, "90m", "i9", False, reason))
    assert bad.width > ok.width or bad.height > ok.height  # room for the cells off the quilt
    _image(render_preview(v, seat, 2, "180", "d4", False, "it would cover e5, already filled"))
    # unreadable input still draws the quilt
    _image(render_preview(v, seat, 3, "45", "z9", False, "no such square"))
    _image(render_preview(v, seat, 0, "0", "e5", False, "e5 is already filled"))
    short = pw.view(replace(s, circle=s.circle[:1]), seat)
    _image(render_preview(short, seat, 3, "0", "a1", False, "only 1 patch is left on offer; choose 1-1"))


LONG = ("W" * 32, "M" * 32)


def test_fit_text_cuts_long_text_with_an_ellipsis():
    from render.patchwork import fit_text, text_width

    assert fit_text("alice", 24, 200) == "alice"
    cut = fit_text("W" * 32, 24, 200)
    assert cut.endswith("…") and cut.startswith("WWW") and len(cut) < 32
    assert text_width(cut, 24) <= 200 < text_width(cut[:-1] + "W…", 24)
    assert fit_text("W" * 32, 24, 0) == "…"


def test_player_name_fits_its_box_and_keeps_you():
    from render.patchwork import _player_name, text_width

    v = pw.view(pw.new_game(2, seed=4), 0)
    name = _player_name(v, 0, LONG, size=24, width=300)
    assert name.endswith("… (you)") and text_width(name, 24) <= 300
    assert _player_name(v, 1, LONG, size=24, width=300).endswith("…")
    assert _player_name(v, 1, ["bob", "carl"], size=24, width=300) == "carl"


def test_render_game_with_32_character_names():
    states = _states()
    s = replace(states[len(states) // 2], bonus_seat=0)
    poor = replace(states[0], buttons=(0, 0))  # "can't afford" on every card
    for state in (states[0], s, poor, next(t for t in states if t.pending_seat is not None)):
        for seat in (None, 0):
            image = _image(render_game(pw.view(state, seat), LONG))
            assert image.width == 600


def test_header_says_who_was_drawn_to_start_and_names_the_place_command():
    from render.patchwork import _status

    states = _states()
    title, note = _status(pw.view(states[0]), ["alice", "bob"])
    assert title == f"{['alice', 'bob'][states[0].start_seat]} to move"
    assert "drawn to start" in note and "arrived last" not in note
    on_top = replace(states[5], positions=(9, 9), top_seat=1)
    assert "arrived last" in _status(pw.view(on_top), None)[1]
    leather = next(t for t in states if t.pending_seat is not None)
    note = _status(pw.view(leather), None)[1]
    assert "/patchwork place" in note and "write" not in note


def test_header_and_labels_in_every_language():
    from render.patchwork import _status

    states = _states()
    leather = next(t for t in states if t.pending_seat is not None)
    for lang in ("zh-TW", "zh-CN", "gu"):
        said = voice(lang)
        title, note = _status(pw.view(leather), ["alice", "bob"], said)
        assert "place" not in title and "/patchwork place" in note  # the command stays
        assert "alice" in title or "bob" in title
        for state in (states[0], leather, states[-1], pw.resign(states[3], 0)):
            for seat in (None, 0):
                assert _image(render_game(pw.view(state, seat), LONG, said)).width == 600


def test_wrap_text_breaks_words_and_chinese_sentences():
    from render.patchwork import text_width, wrap_text

    english = "it would cover e5, already filled, and stick out past the edge"
    lines = wrap_text(english, 22, 200)
    assert len(lines) > 1 and " ".join(lines) == english
    chinese = "第 1 塊布塊無法以 90 方向放在 i9：它會超出 i 欄和第 9 列"
    lines = wrap_text(chinese, 22, 200)
    assert len(lines) > 1 and "".join(lines).replace(" ", "") == chinese.replace(" ", "")
    assert all(text_width(line, 22) <= 200 for line in lines)


def test_preview_in_chinese_and_gujarati():
    s = pw.new_game(2, seed=4)
    s = replace(s, buttons=(20, 20), quilts=((pw.Placed(pw.LEATHER_ID, "0", "e5"),), ()))
    seat = pw.current_seat(s)
    v = pw.view(s, seat)
    reason = error_words(pw.buy_problem(s, seat, pw.Buy(1, "90 mirrored", "i9")))
    for lang in ("zh-TW", "gu"):
        said = voice(lang)
        english = render_preview(v, seat, 1, "90m", "i9", False, reason)
        worded = render_preview(v, seat, 1, "90m", "i9", False, reason, said)
        assert english != worded
        _image(worded)
        _image(render_preview(v, seat, 1, "0", "a1", True, None, said))


def test_a_table_put_together_from_cached_pieces_is_the_table_drawn_afresh():
    """Every cached piece (panels, track, circle patches, header) is keyed by all it shows:
    a game's states drawn in turn, reusing pieces, equal each state drawn with nothing cached."""
    from render.patchwork import clear_caches

    names = ("Ann", "Bob")
    states = _states()
    clear_caches()
    warm = [render_game(pw.view(state, k % 2), names) for k, state in enumerate(states)]
    for k in range(0, len(states), 7):
        clear_caches()
        assert render_game(pw.view(states[k], k % 2), names) == warm[k], f"state {k}"


def test_a_circle_patch_starting_mid_pixel_is_shrunk_as_if_drawn_whole():
    """A circle patch that starts at an odd pixel of the drawing (half a final pixel) is
    shrunk with that offset: pasted at the final size it is the whole drawing shrunk."""
    from render.patchwork import PAPER, _draw_item, _item
    from render.png import SCALE, shrink

    patch = pw.view(_states()[0], 0).circle[2]
    drawn = _draw_item(patch, 3, False, 108.8)
    whole = Image.new("RGB", (600 * SCALE, drawn.height), PAPER)
    whole.paste(drawn, (491, 0))  # 245.5 final pixels in
    pieces = Image.new("RGB", (600, drawn.height // SCALE), PAPER)
    pieces.paste(_item(patch, 3, False, 108.8, 1), (245, 0))
    assert pieces.tobytes() == shrink(whole).tobytes()
