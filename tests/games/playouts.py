"""Whole matches played by computers, as move logs: what replays, exports and records are
tested and measured on."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from games.replay import apply_logged


@cache
def played(game: str, players: int, seed: int, rounds: int = 1,
           level: str = "easy") -> tuple[tuple[int, str], ...]:
    """A match played to its end by `level` computers: its log of (seat, action). A Dou Dizhu
    series is stopped after `rounds` rounds."""
    engine = import_module(f"games.{game}")
    ai = import_module(f"games.{game}.ai")
    state = engine.new_game(players, seed=seed, options=None)
    log: list[tuple[int, str]] = []
    dealt = 0
    while engine.outcome(state) is None:
        seat = engine.current_seat(state)
        if game == "doudizhu" and state.phase == "round_over":
            dealt += 1
            action = "stop" if dealt >= rounds else "next"
        else:
            action = str(ai.choose_move(state, seat, level, seed=len(log)))
        log.append((seat, action))
        state = apply_logged(engine, state, seat, action)
    return tuple(log)
