"""The night service: a game night from its scheduling to its podium, with no Discord in it.

The Discord side (bot/ui/nights/) calls these coroutines with plain ids and names, and shows
what they return. Every change of a night is made under the night's lock, re-reads it inside,
and is committed only if its version is unchanged (across processes, the loser is told
`Conflict`). Tables become matches through the match service, so a night's games are normal
Gamenight matches, with their move log, clocks and computers.

`NightService` is its parts, each over the one before: `NightCore` (core.py: reading,
locking, committing), `NightSignUp` (signup.py: scheduling, sign-up, check-in),
`NightRounds` (playing.py: rounds, tables, results) and `NightHosting` (hosting.py: the
host's controls and a player's drop).
"""

from __future__ import annotations

from bot.nights.hosting import NightHosting
from bot.nights.playing import MIN_PLAYERS


class NightService(NightHosting):
    """A game night, from its scheduling to its podium."""


__all__ = ["NightService", "MIN_PLAYERS"]
