"""A Patchwork match as a JSON-able record: the players, the opening circle of patches, every
action with what it caused, and the final scores.

Everything in Patchwork is public, so a running match is recorded the same way (with no
result yet). The seed is left out: the circle and the start player say all it decided.
Patch ids are those of games/patchwork/data/patchwork.json.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.replay import Step

from .engine import outcome

FORMAT = "gamenight-patchwork"
VERSION = 1


def _event(event: Any) -> dict[str, Any]:
    return {"kind": event.kind, "seat": event.seat, "values": dict(event.values)}


def to_record(steps: Sequence[Step], players: Sequence[str], *, over: bool,
              first: Any = None) -> dict[str, Any]:
    """The record of a match from its steps (games/replay.py) and the players' names in seat
    order. `first`: the state the match started from, needed only when there are no steps."""
    start = steps[0].before if steps else first
    final = steps[-1].after if steps else start
    result = outcome(final)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "patchwork",
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(players)],
        "start_seat": start.start_seat,
        "circle": list(start.circle),
        "moves": [{"ply": step.ply, "seat": step.seat, "action": step.action,
                   "events": [_event(event) for event in step.after.events]}
                  for step in steps],
        "over": over,
        "buttons": list(final.buttons),
        "positions": list(final.positions),
        "result": None if result is None else {
            "scores": list(result.scores),
            "winners": list(result.winners),
            "reason": result.reason,
            "details": dict(result.details),
        },
    }
