"""Each seat's highlights of one Patchwork match, read from its steps (see games/replay.py).

Per seat, plain numbers (stored as JSON with the match's record), as the game ended (or when
someone resigned):

- `score`: buttons + 7 for the bonus tile - 2 per empty square (the final score);
- `bonus`: 1 if the seat won the 7x7 bonus tile, else 0;
- `buttons`: the buttons it held;
- `empty`: the empty squares left on its quilt;
- `patches`: patches it bought (leather patches not counted);
- `leather`: leather (1x1) patches it took from the time track and placed;
- `income`: the buttons its quilt paid at each income space by the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.replay import Step


def highlights(steps: Sequence[Step], players: int) -> list[dict[str, int | str]]:
    """One dict per seat for the match played out in `steps`."""
    bought = [0] * players
    leather = [0] * players
    for step in steps:
        for event in step.after.events:
            if event.kind == "buy":
                bought[event.seat] += 1
            elif event.kind == "place":
                leather[event.seat] += 1
    if not steps:
        return [{} for _ in range(players)]
    last = steps[-1].after
    return [{"score": last.score(seat), "bonus": int(last.bonus_seat == seat),
             "buttons": last.buttons[seat], "empty": last.empty_squares(seat),
             "patches": bought[seat], "leather": leather[seat], "income": last.income(seat)}
            for seat in range(players)]
