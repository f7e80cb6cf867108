"""The private pictures of a seat's page, drawn in the picture workers by the renderers the DMs
use: a Scrabble rack, a Dou Dizhu hand, a Patchwork quilt with a placement ghosted in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import Voice
from render.doudizhu import render_hand
from render.patchwork import render_preview
from render.scrabble import render_rack


def rack_png(rack: str, voice: Voice) -> bytes:
    return render_rack(rack, voice)


def hand_png(hand: Sequence[str], voice: Voice) -> bytes:
    return render_hand(tuple(hand), voice)


def preview_png(view: Any, seat: int, choice: int, orientation: str, square: str, legal: bool,
                voice: Voice, names: Sequence[str]) -> bytes:
    return render_preview(view, seat, choice, orientation, square, legal, None, voice,
                          list(names))
