"""Engine values to plain JSON and back, through the one shared converter (`games.serial`)."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from types import ModuleType

import pytest

import games.doudizhu as doudizhu
import games.patchwork as patchwork
import games.reversi as reversi
import games.scrabble as scrabble
from games.common import Event, Outcome

# Plays found with short words only keep the Scrabble playouts quick.
SHORT = scrabble.Lexicon(w for w in scrabble.default_lexicon().words if len(w) <= 4)


def legal(engine: ModuleType, state, seat: int) -> list:
    if engine is scrabble:
        return scrabble.legal_moves(state, seat, lexicon=SHORT)
    return engine.legal_moves(state, seat)


@functools.cache
def playout(engine: ModuleType, seats: int, seed: int, resign_rate: float = 0.004) -> tuple:
    """Every state of a seeded random game, to its end (or 400 actions); made once per case."""
    rng = random.Random(seed)
    states = [engine.new_game(seats, seed=seed)]
    while len(states) <= 400 and (seat := engine.current_seat(states[-1])) is not None:
        state = states[-1]
        if rng.random() < resign_rate:
            states.append(engine.resign(state, rng.randrange(seats)))
        else:
            states.append(engine.apply(state, seat, rng.choice(legal(engine, state, seat))))
    return tuple(states)


def saved(state):
    """What the store keeps: the dict as JSON text, read back."""
    return json.loads(json.dumps(state.to_dict()))


CASES = [(engine, seats, seed) for engine, seats in
         [(reversi, 2), (patchwork, 2), (doudizhu, 3), (doudizhu, 4), (scrabble, 2),
          (scrabble, 4)] for seed in (1, 2)]


@pytest.mark.parametrize(("engine", "seats", "seed"), CASES,
                         ids=[f"{e.NAME}-{n}-{s}" for e, n, s in CASES])
def test_every_state_of_a_random_playout_survives_json(engine, seats, seed):
    states = playout(engine, seats, seed)
    for state in states:
        data = state.to_dict()
        assert saved(state) == data  # plain JSON already: lists, not tuples
        assert engine.State.from_dict(data) == state
        assert engine.State.from_dict(saved(state)) == state
    assert len(states) > 10
    result = engine.outcome(states[-1])
    if result is not None:
        assert Outcome.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_the_playouts_reach_the_values_worth_saving():
    """The cases above cover the nested values: blanks, pending plays, leather, round ends."""
    states = [s for engine, seats, seed in CASES for s in playout(engine, seats, seed)]
    assert any(getattr(s, "pending", None) for s in states)
    assert any(getattr(s, "pending_seat", None) is not None for s in states)
    assert any(getattr(s, "payments", None) for s in states)
    assert any(any(c.islower() for row in s.board.rows for c in row)
               for s in states if isinstance(s, scrabble.State))
    assert any(s.result for s in states if isinstance(s, scrabble.State))
    assert any(getattr(s, "resigned", None) not in (None, ()) for s in states)


@pytest.mark.parametrize("engine", [reversi, patchwork, doudizhu, scrabble],
                         ids=lambda e: e.NAME)
def test_a_key_missing_from_older_data_takes_the_field_default(engine):
    state = playout(engine, engine.MIN_SEATS, 1)[8]
    defaults = {f.name: f.default for f in dataclasses.fields(state)
                if f.default is not dataclasses.MISSING}
    defaults |= {f.name: f.default_factory() for f in dataclasses.fields(state)
                 if f.default_factory is not dataclasses.MISSING}
    assert defaults
    data = {key: value for key, value in saved(state).items() if key not in defaults}
    assert engine.State.from_dict(data) == dataclasses.replace(state, **defaults)
    assert Event.from_dict({"kind": "pass", "text": "{seat0} passed."}).seat is None


def test_compact_shapes_are_kept():
    """A Scrabble board is saved as its rows, a placed Patchwork patch as a triple."""
    state = scrabble.new_game(2, seed=4)
    assert saved(state)["board"] == list(state.board.rows)
    before = patchwork.new_game(2, seed=4)
    seat = patchwork.current_seat(before)
    buy = next(m for m in patchwork.legal_moves(before, seat) if isinstance(m, patchwork.Buy))
    state = patchwork.apply(before, seat, buy)
    bought = before.circle[buy.choice - 1]
    assert saved(state)["quilts"][seat] == [[bought, buy.orientation, buy.square]]
    assert patchwork.State.from_dict(saved(state)) == state
