"""The pseudo-locale run: every message the bot words comes out wrapped in ⟦ ⟧ (i18n.PSEUDO).

With `GAMENIGHT_TEST_PSEUDO=1` the bot speaks only the pseudo voice, and the fake Discord checks
every text a person would read (message content, embeds, buttons, menus, image descriptions,
thread names, autocomplete choices). What is left outside the markers must be data, not words:
mentions, timestamps, links, numbers, people's and channels' names, board squares, tiles and
cards. Anything else reached Discord without passing through the catalogs, and fails the test
(tests/conftest.py).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

from i18n import CLOSE, OPEN

ENABLED = os.environ.get("GAMENIGHT_TEST_PSEUDO", "") not in ("", "0")
UNWORDED: list[str] = []  # what the bot sent unworded during the current test

VISIBLE = {"content", "title", "description", "name", "text", "label", "placeholder"}
SKIPPED_ROUTES = ("/commands",)  # command definitions: their English names are the defaults
WRAPPED = re.compile(re.escape(OPEN) + "[^" + re.escape(OPEN + CLOSE) + "]*" + re.escape(CLOSE))
DATA = re.compile(
    r"<(?:@[!&]?|#)\d+>"            # mentions of people, roles and channels
    r"|<t:-?\d+(?::[tTdDfFR])?>"    # timestamps
    r"|<a?:\w+:\d+>"                # custom emoji
    r"|https?://\S+"                # links
    r"|`[^`]*`"                     # code: commands and notation as typed
    r"|\b[a-z]{1,2}\d{1,2}\b"       # board squares: d3, h8, a10
    r"|\b[A-Z0-9?]+\b"              # tiles, words on the board, card ranks: QUIZ, 33344, BR
    r"|\b\d+[a-z]?\b"               # numbers, and orientations like 90m
)
LETTERS = re.compile(r"[^\W\d_]{2,}")


def unwrapped(text: str) -> str:
    """`text` without its worded parts (innermost first, so nesting is handled)."""
    while True:
        shorter = WRAPPED.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


def leftover_words(text: str, names: Iterable[str]) -> list[str]:
    """Words in `text` that were not worded through the catalogs."""
    rest = unwrapped(text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            rest = rest.replace(name, " ")
    rest = DATA.sub(" ", rest)
    return LETTERS.findall(rest)


def texts(payload: Any, parent: str | None = None) -> Iterator[str]:
    """The strings a person reads in a request body (an embed field's value, but not a menu
    option's or a choice's: those are sent back, not read)."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if isinstance(value, str):
                if key in VISIBLE or (key == "value" and parent == "fields"):
                    yield value
            else:
                yield from texts(value, key)
    elif isinstance(payload, list):
        for item in payload:
            yield from texts(item, parent)


def check(method: str, path: str, payload: Any, names: Iterable[str]) -> None:
    """Record what `payload` shows unworded."""
    if not ENABLED or payload is None or any(path.endswith(r) or r + "/" in path
                                             for r in SKIPPED_ROUTES):
        return
    names = list(names)
    for text in texts(payload):
        words = leftover_words(text, names)
        if words:
            UNWORDED.append(f"{method} {path}: {text!r} (unworded: {', '.join(words)})")


def plain(payload: Any) -> Any:
    """`payload` with the markers taken out, so tests read the English they expect."""
    if isinstance(payload, dict):
        return {key: plain(value) for key, value in payload.items()}
    if isinstance(payload, list):
        return [plain(item) for item in payload]
    if isinstance(payload, str) and OPEN in payload:
        return payload.replace(OPEN, "").replace(CLOSE, "")
    return payload
