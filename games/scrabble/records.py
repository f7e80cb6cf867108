"""Each seat's highlights of one Scrabble match, read from its steps (see games/replay.py).

Per seat, plain numbers and strings (stored as JSON with the match's record). Plays count as
they stand after challenges: a play taken back after a successful challenge scores nothing and
is no one's best play.

- `score`: the final score (leftover tiles counted; as the match stood if it was resigned);
- `turns`: turns the seat took: plays (a play taken back too), exchanges and passes (not a
  pass that only accepts a play ending the game, nor a turn lost to a challenge);
- `plays`: plays that stood;
- `points`: what those plays scored in all (bingo bonuses included, leftover tiles not), so
  `points / turns` is the average score per turn;
- `best_play`: the highest score of one play that stood (0: none stood);
- `best_play_word`: its main word as written in the notation (a blank in lower case: `QUIz`);
  `best_play_move`: the whole play (`H8 across QUIz`); both "" when no play stood;
- `bingos`: plays that stood using 7 tiles or more (the 50-point bonus).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.replay import Step

TURNS = ("play", "exchange", "pass")  # the event kinds that are a seat's turn


@dataclass(frozen=True)
class Played:
    """One play that was made (it may come off the board after a challenge)."""

    seat: int
    ply: int
    move: str
    word: str
    score: int
    bingo: bool


def plays_made(steps: Sequence[Step]) -> list[Played]:
    """The plays of the match that stood once every challenge was settled, in order."""
    stood: list[Played] = []
    for step in steps:
        for event in step.after.events:
            values = event.values
            if event.kind == "play":
                move = f"{values['square']} {values['direction']} {values['word']}"
                stood.append(Played(event.seat, step.ply, move, values["word"],
                                    int(values["score"]), bool(values["bingo"])))
            elif event.kind == "withdrawn":  # the play open to challenge is the latest one
                latest = next(i for i in range(len(stood) - 1, -1, -1)
                              if stood[i].seat == event.seat)
                del stood[latest]
    return stood


def highlights(steps: Sequence[Step], players: int) -> list[dict[str, int | str]]:
    """One dict per seat for the match played out in `steps`."""
    turns = [0] * players
    for step in steps:
        for event in step.after.events:
            if event.kind in TURNS:
                turns[event.seat] += 1
    stood = plays_made(steps)
    scores = list(steps[-1].after.scores) if steps else [0] * players
    found = []
    for seat in range(players):
        own = [play for play in stood if play.seat == seat]
        best = max(own, key=lambda play: play.score, default=None)  # the first of equals
        found.append({
            "score": scores[seat], "turns": turns[seat], "plays": len(own),
            "points": sum(play.score for play in own),
            "best_play": 0 if best is None else best.score,
            "best_play_word": "" if best is None else best.word,
            "best_play_move": "" if best is None else best.move,
            "bingos": sum(play.bingo for play in own),
        })
    return found
