"""Each game's name in words, as its adapter registers it (`Presenter.help.title`), for the code
that speaks of a match without knowing its game (lobbies, errors, the clocks)."""

from __future__ import annotations

from i18n import Words

TITLES: dict[str, Words] = {}


def title(game: str) -> Words:
    """The game's name in the reader's language (in English if no adapter registered it)."""
    return TITLES.get(game) or game.replace("doudizhu", "dou dizhu").title()
