"""The pictures of the pages, drawn in the picture workers (bot/workers/pictures.py): the
public table (`engine.view(state, None)`: never a hand or a rack) as the replays draw it, with
its alt text from render/alt.py, the words the bot gives Discord for the same picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.web import words
from i18n import Voice, _
from render import alt
from render.png import encode
from render.replay import TABLES


def table_png(game: str, view: Any, caption: str, names: Sequence[str], voice: Voice) -> bytes:
    """The public table of `view` under `caption` (PNG bytes)."""
    return encode(TABLES[game](view, caption, names, voice))


def alt_text(game: str, view: Any, names: Sequence[str], voice: Voice) -> str:
    """What the picture shows, in words."""
    if game == "reversi":
        return alt.reversi_board(view, names, voice)
    if game == "scrabble":
        return alt.scrabble_board(view, voice)
    if game == "patchwork":
        return alt.patchwork_table(view, names, voice)
    shown = next((entry for entry in reversed(view.trick) if entry.cards), None)
    if shown is None:
        return voice(words.NO_CARDS)
    return alt.doudizhu_cards(shown.cards, _("Played by {player}", player=names[shown.seat]),
                              voice)
