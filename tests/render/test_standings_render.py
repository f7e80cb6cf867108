"""A game night's standings picture and its alt text (render/standings.py): phone-sized in every
language, the top of a night of 256 with the rest counted, names kept to their column in every
script, the podium at the end, and the alt text within Discord's limit."""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import replace

import pytest
from PIL import Image

from i18n import LANGUAGES, PSEUDO, voice
from render import standings as st
from render.fonts import text_length
from render.phone import MAX_ASPECT, MAX_BYTES
from render.png import SCALE
from render.standings import (
    StandingsLine,
    StandingsView,
    fitted,
    layout,
    render_standings,
    standings_alt,
)
from tests.render.samples import SCRIPT_NAMES, standings_view

ENGLISH = voice()


def small_night(*, final: bool, two_player: bool = True) -> StandingsView:
    tiebreak = (lambda *t: t) if two_player else (lambda *t: t[-1:])
    rows = (
        StandingsLine(1, "Ann", 3, tiebreak(4.0, 3.5, 120.0), 3),
        StandingsLine(2, "Ben", 2, tiebreak(5.0, 2.0, 35.0), 3),
        StandingsLine(3, "Cat", 1.5, tiebreak(3.0, 1.25, -20.0), 3),
        StandingsLine(4, "Dan", 0.5, tiebreak(4.0, 0.5, -135.0), 3, is_computer=True),
    )
    return StandingsView("scrabble", "Club night", 3, 3, rows, final, two_player)


def size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_every_language_draws_the_standings_phone_sized(lang):
    for view in (small_night(final=False), small_night(final=True),
                 standings_view(final=False), standings_view(final=True),
                 standings_view(final=True, two_player=False, players=40)):
        png = render_standings(view, voice(lang))
        width, height = size(png)
        assert width == 600 and height <= MAX_ASPECT * width, (lang, view.final, height)
        assert len(png) <= MAX_BYTES


def drawn_texts(monkeypatch, view: StandingsView, lang: str = "en") -> list[tuple]:
    """Every (left, right, y, text) the picture draws, in drawing pixels."""
    calls = []
    original = st.draw_text

    def record(draw, xy, text, px, *, fill, anchor="la", bold=True, condensed=False):
        width = text_length(text, px, bold=bold, condensed=condensed)
        left = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
        calls.append((left, left + width, xy[1], text))
        original(draw, xy, text, px, fill=fill, anchor=anchor, bold=bold, condensed=condensed)

    monkeypatch.setattr(st, "draw_text", record)
    render_standings(view, voice(lang))
    return calls


@pytest.mark.parametrize("lang", ["en", "gu", "zh-CN"])
@pytest.mark.parametrize("final", [False, True])
def test_no_text_leaves_the_picture_or_runs_into_its_neighbour(monkeypatch, lang, final):
    """The longest names in every script, and the widest numbers: each text stays inside
    the picture, and the texts on one line (rank, name, numbers; headers) do not touch."""
    calls = drawn_texts(monkeypatch, standings_view(final=final), lang)
    by_line = defaultdict(list)
    for left, right, y, text in calls:
        assert 0 <= left and right <= 600 * SCALE, text
        by_line[y].append((left, right, text))
    for texts in by_line.values():
        texts.sort()
        for (_, right, text), (left, _, after) in zip(texts, texts[1:]):
            assert right <= left, f"{text!r} runs into {after!r}"


def test_long_names_are_cut_to_their_room_in_every_script():
    for name in SCRIPT_NAMES:
        text, px, condensed = fitted(name, st.TEXT, 200, bold=False)
        assert text_length(text, px * SCALE, bold=False, condensed=condensed) <= 200 * SCALE
        assert text == name or text.endswith("…")
    assert fitted("W" * 32, st.TEXT, 200, bold=False)[0].endswith("…")
    assert fitted("Ann", st.TEXT, 200, bold=False) == ("Ann", st.TEXT, False)


def test_a_night_of_256_shows_its_top_and_counts_the_rest(monkeypatch):
    for final, at_least in ((False, 20), (True, 12)):
        view = standings_view(final=final)
        plan = layout(view, ENGLISH)
        assert plan.shown >= at_least and plan.shown + plan.more == 256
        assert plan.height <= 900
        texts = [text for *_, text in drawn_texts(monkeypatch, view)]
        assert f"…and {plan.more} more players" in texts
        shown_names = [t for t in texts if t.startswith(("W", "M"))]
        assert shown_names, "the names of the top rows are drawn"


def test_a_small_night_shows_everyone_and_no_count():
    plan = layout(small_night(final=False), ENGLISH)
    assert (plan.shown, plan.more) == (4, 0)


def colour_count(png: bytes, colour: tuple[int, int, int], box=None) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if box:
        image = image.crop(box)
    return sum(n for n, c in image.getcolors(1 << 20) if max(abs(a - b) for a, b in
                                                             zip(c, colour)) <= 6)


def test_the_final_podium_draws_three_medals_and_a_round_none():
    final = render_standings(small_night(final=True), ENGLISH)
    podium = (0, st.HEADER_H, 600, st.HEADER_H + st.PODIUM_H)
    for place, x in st._PODIUM_X.items():
        column = (round(x) - 88, podium[1], round(x) + 88, podium[3])
        assert colour_count(final, st.METALS[place][0], column) > 300, place
    after_round = render_standings(small_night(final=False), ENGLISH)
    assert size(final)[1] == size(after_round)[1] + st.PODIUM_H
    assert all(colour_count(after_round, face) == 0 for face, _ in st.METALS.values())


def test_a_podium_of_two_has_no_bronze():
    two = replace(small_night(final=True), rows=small_night(final=True).rows[:2])
    png = render_standings(two, ENGLISH)
    assert colour_count(png, st.METALS[2][0]) > 300
    assert colour_count(png, st.METALS[3][0]) == 0


def test_the_columns_are_the_tiebreaks_of_the_nights_kind(monkeypatch):
    swiss = [t for *_, t in drawn_texts(monkeypatch, small_night(final=False))]
    assert {"G", "Pts", "BH-1", "SB", "Spread", "+120", "3.5", "1.25", "−135"} <= set(swiss)
    tables = [t for *_, t in drawn_texts(monkeypatch, small_night(final=False,
                                                                   two_player=False))]
    assert {"Pts", "Spread", "+120", "1.5"} <= set(tables)
    assert not {"BH-1", "SB", "3.5"} & set(tables)
    reversi = replace(small_night(final=False), game="reversi")
    assert "Discs" in [t for *_, t in drawn_texts(monkeypatch, reversi)]


def test_a_view_holds_the_tiebreaks_of_its_kind():
    with pytest.raises(ValueError):
        StandingsView("scrabble", "x", 1, 3, (StandingsLine(1, "Ann", 1, (2.0,), 1),), False,
                      two_player=True)
    with pytest.raises(ValueError):
        StandingsView("doudizhu", "x", 1, 3, (StandingsLine(1, "Ann", 1, (1, 2, 3), 1),),
                      False, two_player=False)


def test_numbers_are_written_short_and_margins_signed():
    assert st.number(2 / 3, ENGLISH) == "0.67" and st.number(3.0, ENGLISH) == "3"
    assert st.number(1234.5, ENGLISH) == "1,234.5"
    assert [st.signed(v, ENGLISH) for v in (120, -35, 0, 0.001)] == ["+120", "−35", "0", "0"]


def test_before_the_first_round_and_with_nobody(monkeypatch):
    empty = StandingsView("reversi", "Reversi night", 0, 3, (), False)
    texts = [t for *_, t in drawn_texts(monkeypatch, empty)]
    assert "Before the first round, 3 rounds to play" in texts
    assert "No results yet." in texts
    assert size(render_standings(empty, ENGLISH))[1] < 200


# -- the alt text ----------------------------------------------------------------------------


def test_the_alt_text_after_a_round_reads_every_player_by_rank():
    assert standings_alt(small_night(final=False), ENGLISH) == (
        "Club night. Standings after round 3 of 3, 4 players. 1. Ann, 3 points; 2. Ben, "
        "2 points; 3. Cat, 1.5 points; 4. Dan (computer), 0.5 points.")


def test_the_alt_text_at_the_end_names_the_podium_first():
    assert standings_alt(small_night(final=True), ENGLISH) == (
        "Club night. Final standings after 3 rounds, 4 players. First: Ann, 3 points. "
        "Second: Ben, 2 points. Third: Cat, 1.5 points. 4. Dan (computer), 0.5 points.")


def test_the_alt_text_of_256_fits_discord_and_counts_the_rest():
    for final in (False, True):
        text = standings_alt(standings_view(final=final), ENGLISH)
        assert len(text) <= 1024
        listed = text.split(" players. ", 1)[1]
        if final:
            assert listed.startswith("First: ")
            listed = listed.split("Third: ", 1)[1].split(". ", 1)[1]
        entries = listed.split("; ")
        more = int(text.rsplit("…and ", 1)[1].split(" ")[0])
        assert len(entries) + more == 256 - (3 if final else 0)
        assert entries[0].startswith("4. " if final else "1. ")


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_the_alt_text_in_every_language(lang):
    for view in (small_night(final=True), standings_view(final=True)):
        text = standings_alt(view, voice(lang))
        assert len(text) <= 1024 and view.rows[0].name in text


def test_fractional_points_are_said_to_two_places():
    rows = (StandingsLine(1, "Ann", 2 / 3, (1.0,), 1), StandingsLine(2, "Ben", 1 / 3, (0.0,), 1))
    view = StandingsView("doudizhu", "Tables", 1, 2, rows, False, two_player=False)
    assert "1. Ann, 0.67 points; 2. Ben, 0.33 points." in standings_alt(view, ENGLISH)
