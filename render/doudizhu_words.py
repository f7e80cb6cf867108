"""A Dou Dizhu play's kind in words (`pair`, `sequence of 6 cards`), for the bot's messages
and the web pages alike."""

from __future__ import annotations

import games.doudizhu as ddz
from i18n import Text, Words, _

TYPE_NAMES: dict[str, Text] = {
    ddz.SINGLE: _("single"),
    ddz.PAIR: _("pair"),
    ddz.TRIO: _("trio"),
    ddz.TRIO_SINGLE: _("trio with a single"),
    ddz.TRIO_PAIR: _("trio with a pair"),
    ddz.SEQUENCE: _("sequence"),
    ddz.PAIR_SEQUENCE: _("pair sequence"),
    ddz.TRIO_SEQUENCE: _("trio sequence"),
    ddz.TRIO_SEQUENCE_SINGLES: _("trio sequence with singles"),
    ddz.TRIO_SEQUENCE_PAIRS: _("trio sequence with pairs"),
    ddz.BOMB: _("bomb"),
    ddz.ROCKET: _("rocket"),
    ddz.QUADPLEX: _("quadplex set"),
}
CHAINS = frozenset({ddz.SEQUENCE, ddz.PAIR_SEQUENCE, ddz.TRIO_SEQUENCE,
                    ddz.TRIO_SEQUENCE_SINGLES, ddz.TRIO_SEQUENCE_PAIRS})


def describe(kind: str, size: int) -> Words:
    """A play's kind as players name it: `pair`, `sequence of 6 cards`, `bomb of 5 cards`..."""
    if kind in CHAINS or (kind == ddz.BOMB and size > 4):
        return _("{type} of {n} cards", type=TYPE_NAMES[kind], n=size)
    if kind == ddz.QUADPLEX:
        return _("four with two pairs") if size == 8 else _("four with two singles")
    return TYPE_NAMES[kind]
