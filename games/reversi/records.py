"""Each seat's highlights of one Reversi match, read from its steps (see games/replay.py).

Per seat, plain numbers (stored as JSON with the match's record):

- `discs`: the seat's discs when the game ended (or when someone resigned);
- `margin`: those discs less the opponent's (negative for the side behind);
- `moves`: discs the seat placed;
- `flips`: discs it flipped in all;
- `best_flip`: the most discs it flipped with one move.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.replay import Step


def highlights(steps: Sequence[Step], players: int) -> list[dict[str, int | str]]:
    """One dict per seat for the match played out in `steps`."""
    moves = [0] * players
    flips = [0] * players
    best = [0] * players
    for step in steps:
        for event in step.after.events:
            if event.kind != "move":
                continue
            flipped = int(event.values["flipped"])
            moves[event.seat] += 1
            flips[event.seat] += flipped
            best[event.seat] = max(best[event.seat], flipped)
    if not steps:
        return [{} for _ in range(players)]
    last = steps[-1].after
    discs = [last.discs(seat).bit_count() for seat in range(players)]
    return [{"discs": discs[seat], "margin": discs[seat] - discs[1 - seat],
             "moves": moves[seat], "flips": flips[seat], "best_flip": best[seat]}
            for seat in range(players)]
