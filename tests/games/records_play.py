"""Matches for the records tests: played out by the computer players, or walked from a
hand-made position, as the steps `games.replay` gives."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from types import ModuleType
from typing import Any

from games.replay import Step, apply_logged, steps


def engine_of(game: str) -> ModuleType:
    return import_module(f"games.{game}")


def played_out(game: str, players: int, seed: int, *, rounds: int = 3,
               limit: int = 3000) -> list[tuple[int | None, str]]:
    """The actions of a whole match between easy computer players; a Dou Dizhu series goes
    on for `rounds` rounds (`next` between them, then `stop`)."""
    engine = engine_of(game)
    state = engine.new_game(players, seed=seed)
    actions: list[tuple[int | None, str]] = []
    ended = 0
    for number in range(limit):
        if engine.outcome(state) is not None:
            return actions
        seat = engine.current_seat(state)
        if game == "doudizhu" and state.phase == engine.ROUND_OVER:
            ended += 1
            move = "next" if ended < rounds else "stop"
        else:
            move = str(engine.choose_move(state, seat, "easy", seed=seed * 10_000 + number))
        actions.append((seat, move))
        state = apply_logged(engine, state, seat, move)
    raise AssertionError(f"{game} seed {seed} did not end in {limit} actions")


def match_steps(game: str, players: int, seed: int, **kwargs: Any) -> list[Step]:
    return list(steps(engine_of(game), players, seed, None, played_out(game, players, seed,
                                                                       **kwargs)))


def walk(engine: ModuleType, state: Any, actions: Iterable[tuple[int, str]]) -> list[Step]:
    """The steps of `actions` from a hand-made `state`, as `games.replay.steps` gives them."""
    found = []
    for ply, (seat, action) in enumerate(actions, start=1):
        after = apply_logged(engine, state, seat, action)
        found.append(Step(ply, seat, action, state, after))
        state = after
    return found
