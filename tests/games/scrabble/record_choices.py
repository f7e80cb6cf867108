"""Record what the computer players choose on seeded positions, for
test_scrabble_choices.py: run once against a trusted engine, it writes
`data/choices.json` (each position as plain data, and the move each level chose).

    python -m tests.games.scrabble.record_choices

Positions: boards after 0 to 20 greedy turns of seeded games (7- and 9-tile racks), the
seat's rack drawn with 0, 1 or 2 blanks; bag-empty endgames against one and two opponents
(the reply search, the static ranking); finish-line targets within reach; hopeless racks
(exchanges).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from games.scrabble import (
    Pass,
    State,
    apply,
    choose_move,
    current_seat,
    new_game,
    outcome,
    position,
    scored_plays,
)
from games.scrabble.tiles import BLANK, FULL_SET

FILE = Path(__file__).parent / "data" / "choices.json"
EVERY_LEVEL = 4  # normal and easy are recorded on every 4th position (hard on all)


def greedy_board(seed: int, tiles: int, turns: int) -> str:
    """The board after `turns` best-scoring plays of a seeded game."""
    state = new_game(2, seed=seed, options={"tiles": tiles} if tiles != 7 else None)
    while outcome(state) is None and state.actions < turns:
        seat = current_seat(state)
        final = state.pending is not None and state.pending.final
        best = [] if final else scored_plays(state, seat, one_blank_choice=True)
        state = apply(state, seat, best[0][1] if best else Pass())
    return state.board.text()


def unplaced(board: str) -> list[str]:
    """The tiles of the set not on `board`, sorted."""
    rest = Counter(FULL_SET)
    rest.subtract(BLANK if ch.islower() else ch for ch in board if ch.isalpha())
    return sorted(rest.elements())


def draw(rng: random.Random, pool: list[str], size: int, blanks: int) -> str:
    """`size` tiles from `pool` (taken out of it), `blanks` of them blanks where it has them."""
    rack = []
    for _ in range(min(blanks, pool.count(BLANK))):
        pool.remove(BLANK)
        rack.append(BLANK)
    letters = [t for t in pool if t != BLANK]
    for tile in rng.sample(letters, min(size - len(rack), len(letters))):
        pool.remove(tile)
        rack.append(tile)
    return "".join(rack)


def spec(board: str, racks: list[str], **extra: Any) -> dict[str, Any]:
    return {"board": board, "racks": racks, **extra}


def specs() -> list[dict[str, Any]]:
    rng = random.Random(31)
    out = []
    for i in range(48):  # mid-game and opening positions
        tiles, blanks = 9 if i % 3 == 2 else 7, (0, 1, 2, 2)[i % 4]
        turns = rng.choice([0, 2, 5, 9, 14, 20])
        seed = 1000 + 100 * i
        while sum(map(str.islower, board := greedy_board(seed, tiles, turns))) + blanks > 2:
            seed, turns = seed + 1, turns * 3 // 4  # a game whose blanks are still to be drawn
        pool = unplaced(board)
        rng.shuffle(pool)
        mine = draw(rng, pool, tiles, blanks)
        theirs = draw(rng, pool, tiles, 0)
        out.append(spec(board, [mine, theirs], scores=[rng.randrange(200)] * 2,
                        options={"tiles": tiles}))
    for i in range(10):  # bag empty
        seats = 3 if i % 5 == 4 else 2
        board = greedy_board(2000 + i, 7, 18)
        pool = unplaced(board)
        rng.shuffle(pool)
        racks = [draw(rng, pool, rng.randint(2, 7), i % 3)]
        racks += [draw(rng, pool, rng.randint(1, 7), (i // 3) % 2) for _ in range(seats - 1)]
        out.append(spec(board, racks, bag="", scores=[300 + 10 * i] * seats))
    for i in range(4):  # a finish line within reach
        board = greedy_board(3000 + i, 7, 6)
        pool = unplaced(board)
        rng.shuffle(pool)
        racks = [draw(rng, pool, 7, i % 3), draw(rng, pool, 7, 0)]
        out.append(spec(board, racks, scores=[60 + 5 * i, 50],
                        options={"finish": "beginner"}))
    for i, rack in enumerate(("QVVWUUI", "IIUUVWQ", "AEIRS??")):  # exchange or keep
        board = greedy_board(4000 + i, 7, 0)
        pool = unplaced(board)
        for tile in rack:
            pool.remove(tile)
        out.append(spec(board, [rack, draw(rng, pool, 7, 0)]))
    return out


def state_of(entry: dict[str, Any]) -> State:
    return position(entry["board"], entry["racks"], bag=entry.get("bag"),
                    scores=tuple(entry.get("scores", [0] * len(entry["racks"]))),
                    options=entry.get("options"))


def main() -> None:
    entries = []
    for n, entry in enumerate(specs()):
        state = state_of(entry)
        levels = ("hard", "normal", "easy") if n % EVERY_LEVEL == 0 else ("hard",)
        entry["chosen"] = {level: str(choose_move(state, 0, level, seed=n)) for level in levels}
        entries.append(entry)
        print(n, entry["racks"][0], entry["chosen"], flush=True)
    FILE.parent.mkdir(exist_ok=True)
    FILE.write_text(json.dumps(entries, indent=1) + "\n")


if __name__ == "__main__":
    main()
