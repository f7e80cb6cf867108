"""Patchwork actions and their text.

Unreadable text raises `BadNotation` with a `patchwork.` key and what was typed (`text`,
cut short with `shown`) for the bot to word.

Canonical texts (what `str(move)` gives):

- `buy 2 90m c4` - buy patch 2 of the three on offer (1 = the one right after the spool),
  turn it to orientation `90 mirrored`, put the top-left of its bounding box on c4.
  Orientations are written `0`, `90`, `180`, `270`, and `0m` ... `270m` for mirror images.
- `pass` - move your time token to the space in front of your opponent's, taking a button
  for each space moved.
- `place e5` - put the leather patch you have just earned on e5.

`parse_move` also reads `buy 2 90 mirrored c4`, `buy 2 90 mirror c4`, `buy 2 c4` (orientation
0), upper case, `90°`, and `advance` for `pass`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.common import BadNotation, shown

from .patches import ORIENTATIONS, is_square, square_index

_MIRROR_WORDS = ("mirrored", "mirror", "flipped", "flip", "m", "f")
_ORIENTATION_RE = re.compile(
    r"^(0|90|180|270|360)\s*(?:°|deg|degrees)?\s*(" + "|".join(_MIRROR_WORDS) + r")?$"
)


def parse_orientation(text: str) -> str:
    """`90m`, `90 mirrored`, `90` ... -> the orientation name (`90 mirrored`, `90`)."""
    cleaned = " ".join(str(text).strip().lower().split())
    match = _ORIENTATION_RE.match(cleaned)
    if not match:
        raise BadNotation("patchwork.bad_orientation", text=shown(text))
    degrees = match.group(1)
    if degrees == "360":
        degrees = "0"
    return f"{degrees} mirrored" if match.group(2) else degrees


def short_orientation(name: str) -> str:
    """`90 mirrored` -> `90m`, `180` -> `180`."""
    return name.replace(" mirrored", "m")


def _check_square(text: str) -> str:
    square = str(text).strip().lower()
    if not is_square(square):
        raise BadNotation("patchwork.bad_square", text=shown(text))
    return square


@dataclass(frozen=True)
class Buy:
    """Buy patch `choice` (1-3, counted clockwise from the spool) and place it."""

    choice: int
    orientation: str
    square: str

    def __post_init__(self) -> None:
        if self.orientation not in ORIENTATIONS:
            object.__setattr__(self, "orientation", parse_orientation(self.orientation))
        object.__setattr__(self, "square", _check_square(self.square))
        if self.choice not in (1, 2, 3):
            raise BadNotation("patchwork.bad_choice", text=shown(self.choice))

    def __str__(self) -> str:
        return f"buy {self.choice} {short_orientation(self.orientation)} {self.square}"

    @property
    def square_index(self) -> int:
        return square_index(self.square)

    @classmethod
    def parse(cls, text: str) -> Buy:
        words = str(text).split()  # as typed, so errors quote it exactly
        if not words or words[0].lower() not in ("buy", "b"):
            raise BadNotation("patchwork.not_a_buy", text=shown(text))
        if len(words) < 3:
            raise BadNotation("patchwork.short_buy")
        choice_text, *rest = words[1:]
        if choice_text not in ("1", "2", "3"):
            raise BadNotation("patchwork.choose_patch", text=shown(choice_text))
        square = _check_square(rest[-1])
        orientation = parse_orientation(" ".join(rest[:-1])) if len(rest) > 1 else "0"
        return cls(int(choice_text), orientation, square)


@dataclass(frozen=True)
class Pass:
    """Advance to the space in front of the opponent's token, one button per space moved."""

    def __str__(self) -> str:
        return "pass"

    @classmethod
    def parse(cls, text: str) -> Pass:
        if str(text).strip().lower() not in ("pass", "advance"):
            raise BadNotation("patchwork.not_a_pass", text=shown(text))
        return cls()


@dataclass(frozen=True)
class Place:
    """Place the leather (1x1) patch you have just earned on a free square."""

    square: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "square", _check_square(self.square))

    def __str__(self) -> str:
        return f"place {self.square}"

    @property
    def square_index(self) -> int:
        return square_index(self.square)

    @classmethod
    def parse(cls, text: str) -> Place:
        words = str(text).split()  # as typed, so errors quote it exactly
        if len(words) != 2 or words[0].lower() not in ("place", "p"):
            raise BadNotation("patchwork.not_a_place", text=shown(text))
        return cls(words[1])


Move = Buy | Pass | Place


def parse_move(text: str) -> Move:
    """Read `buy 2 90m c4`, `pass` or `place e5` (see the module docstring for variants)."""
    words = str(text).strip().lower().split()
    if not words:
        raise BadNotation("patchwork.no_move")
    head = words[0]
    if head in ("buy", "b"):
        return Buy.parse(text)
    if head in ("pass", "advance"):
        return Pass.parse(text)
    if head in ("place", "p"):
        return Place.parse(text)
    raise BadNotation("patchwork.unreadable", text=shown(text))
