"""The README's pictures of the bot's messages (docs/tools/message_picture.py): a message's JSON
drawn as Discord's dark theme shows it, its Markdown worded for the reader, and the sign-up
card's picture in place."""

from __future__ import annotations

import io
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image

from docs.tools.message_picture import (
    BUTTON_COLOURS, EMBED_BACKGROUND, Reader, draw_message, flow, rgb, spans,
)

ROOT = Path(__file__).resolve().parents[2]
START = int(datetime(2026, 12, 5, 19, 30, tzinfo=timezone.utc).timestamp())
READER = Reader(names={11: "maya"}, channels={21: "table-1"}, now=START - 15 * 60)


def card(players: str = "**2** signed up: ada \N{WHITE HEAVY CHECK MARK}, <@11>") -> dict:
    """A sign-up card's JSON, as the fake Discord stores it."""
    return {
        "content": "",
        "embeds": [{"title": "Game night #1: Reversi", "color": 0xE67E22, "type": "rich",
                    "description": f"Swiss · 3 rounds\nStarts <t:{START}:F> (<t:{START}:R>).",
                    "fields": [{"name": "Players", "value": players, "inline": False}],
                    "footer": {"text": "Host: ada"}}],
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 3, "label": "I'm in", "custom_id": "gn:night:in:1"},
            {"type": 2, "style": 2, "label": "I'm out", "custom_id": "gn:night:out:1"},
            {"type": 2, "style": 1, "label": "Check in", "custom_id": "gn:night:checkin:1",
             "emoji": {"id": None, "name": "\N{WHITE HEAVY CHECK MARK}"}}]}],
    }


def image_of(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.getcolors(maxcolors=1 << 20)}


def test_a_card_is_drawn_as_a_png_of_a_message_s_size_with_its_embed_and_buttons():
    image = image_of(draw_message(card(), reader=READER))
    assert 600 <= image.width <= 700 and 180 <= image.height <= 400
    found = colours(image)
    assert {rgb(EMBED_BACKGROUND), (0xE6, 0x7E, 0x22)} <= found  # the embed and its bar
    assert {rgb(BUTTON_COLOURS[style]) for style in (1, 2, 3)} <= found


def test_a_longer_card_is_a_taller_picture_of_the_same_width():
    short = image_of(draw_message(card(), reader=READER))
    names = ", ".join(f"player {n}" for n in range(60))
    long = image_of(draw_message(card(f"**60** signed up: {names}"), reader=READER))
    assert long.width == short.width and long.height > short.height + 50


def test_timestamps_are_worded_as_discord_shows_them_to_the_reader():
    stamps = [s.text for s in spans(f"<t:{START}:F> <t:{START}:R> <t:{START}:t>", READER)
              if s.kind == "time"]
    assert stamps == ["Saturday, 5 December 2026 19:30", "in 15 minutes", "19:30"]
    later = Reader(now=START + 3600)
    assert [s.text for s in spans(f"<t:{START - 3600}:R>", Reader(now=START))] == ["an hour ago"]
    assert [s.text for s in spans(f"<t:{START}:R>", later)] == ["an hour ago"]
    assert [s.text for s in spans(f"<t:{START + 3 * 86400}:R>", READER)] == ["in 3 days"]


def test_mentions_bold_and_channels_become_what_discord_draws():
    found = spans("**7** signed up: <@11> in <#21>, <@99>", READER)
    assert [(s.text, s.bold, s.kind) for s in found] == [
        ("7", True, "text"), (" signed up: ", False, "text"), ("@maya", False, "mention"),
        (" in ", False, "text"), ("#table-1", False, "mention"), (", ", False, "text"),
        ("@Unknown User", False, "mention")]


def test_text_wraps_at_spaces_within_the_width():
    text = " ".join(["王小明", "પ્રિયા", "maya"] * 20)
    lines = flow(spans(text, READER), 300, 13, "#ffffff")
    assert len(lines) > 2 and all(line.width <= 300 for line in lines)
    drawn = " ".join("".join(p.text for _, p in line.pieces).strip() for line in lines)
    assert drawn == text


def test_the_readme_shows_the_sign_up_card_s_picture():
    assert "](docs/night-card.png)" in (ROOT / "README.md").read_text()
    image = image_of((ROOT / "docs" / "night-card.png").read_bytes())
    assert 600 <= image.width <= 700 and image.height >= 150
