"""A reviewed turn as a picture, by its game's review renderer (render/review_<game>.py): the
position before the turn, the move played and the better move marked, with a legend; and its
alt text and the one-line reason, in words."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from i18n import Voice, Words, _


def _of(game: str) -> ModuleType:
    return import_module(f"render.review_{game}")


def review_png(game: str, view: Any, seat: int, played: str, best: str, voice: Voice,
               names: Sequence[str]) -> bytes:
    return bytes(_of(game).review_png(view, seat, played, best, voice, list(names)))


def review_alt(game: str, view: Any, seat: int, played: str, best: str, voice: Voice,
               names: Sequence[str]) -> str:
    return str(_of(game).review_alt(view, seat, played, best, voice, list(names)))


def reason_words(game: str, reason: str | None, values: dict[str, Any]) -> Words | None:
    """The turn's reason in words (None: the judge gave none)."""
    return None if reason is None else _of(game).reason_words(reason, values)


def played_words(player: str, played: object, best: object, same: bool) -> Words:
    """The alt text's opening: who played what, and the better move unless it was the best."""
    if same:
        return _("Review: {player} played {move}, the best move.", player=player, move=played)
    return _("Review: {player} played {move}; the better move was {best}.", player=player,
             move=played, best=best)
