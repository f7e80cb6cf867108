"""Seeded random Scrabble games played to the end: the 100 tiles are conserved at every step,
every state survives JSON, every move survives its text form, and the move log replays."""

from __future__ import annotations

import functools
import json
import random

import pytest

from games.scrabble import (
    Challenge,
    Exchange,
    Lexicon,
    Pass,
    Play,
    State,
    UnknownWord,
    apply,
    current_seat,
    default_lexicon,
    legal_moves,
    new_game,
    outcome,
    parse_move,
    resign,
    scored_plays,
)
from games.scrabble.tiles import FULL_SET, sort_tiles

SHORT = sorted(w for w in default_lexicon().words if len(w) <= 4)
# Plays are found with every short word; the judge knows only most of them, so some plays
# are phonies that stand until challenged (or are refused at once in void games).
FINDER = Lexicon(SHORT)
JUDGE = Lexicon(w for i, w in enumerate(SHORT) if i % 9)
# Two-letter words only: games that run out of plays.
TWOS = Lexicon(w for w in SHORT if len(w) == 2)
LEXICONS = {"short": (FINDER, JUDGE), "twos": (TWOS, TWOS)}


def check(state: State) -> State:
    tiles = [("?" if c.islower() else c) for row in state.board.rows for c in row if c != "."]
    assert sort_tiles(state.bag + "".join(state.racks) + "".join(tiles)) == sort_tiles(FULL_SET)
    assert all(len(rack) <= state.rack_size for rack in state.racks)
    again = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    return again


@functools.lru_cache(maxsize=None)
def random_game(
    seed: int, seats: int, options: tuple, words: str, pass_rate: float, resign_rate: float = 0
) -> tuple[State, tuple, frozenset]:
    """(final state, move log, event kinds seen), computed once per case for all tests."""
    return play_random_game(seed, seats, dict(options), words, pass_rate, resign_rate)


def play_random_game(
    seed: int, seats: int, options: dict, words: str = "short", pass_rate: float = 0.07,
    resign_rate: float = 0,
) -> tuple[State, tuple, frozenset]:
    finder, judge = LEXICONS[words]
    rng = random.Random(seed)
    state = check(new_game(seats, seed=seed, options=options))
    log: list[tuple[int, str]] = []
    seen = {event.kind for event in state.events}
    for _ in range(600):
        if outcome(state) is not None:
            break
        pending = state.pending
        if rng.random() < resign_rate:
            seat = rng.choice(state.playing)
            state = check(resign(state, seat, lexicon=judge))
            log.append((seat, "resign"))
            seen.update(event.kind for event in state.events)
            continue
        challengers = [s for s in state.playing if pending is not None and s != pending.seat]
        if challengers and rng.random() < 0.3:
            seat = rng.choice(challengers)
            move = Challenge()
        else:
            seat = current_seat(state)
            moves = legal_moves(state, seat, lexicon=finder)
            plays = [m for m in moves if isinstance(m, Play)]
            swaps = [m for m in moves if isinstance(m, Exchange)]
            roll = rng.random()
            if plays and roll < 1 - pass_rate - 0.08:
                move = rng.choice(plays)
            elif swaps and roll < 1 - pass_rate and (plays or roll < 0.5):
                move = rng.choice(swaps)
            else:
                move = Pass()
        assert parse_move(str(move)) == move
        try:
            after = apply(state, seat, move, lexicon=judge)
        except UnknownWord:
            assert options.get("challenge") == "void"
            after = apply(state, seat, Pass(), lexicon=judge)
            move = Pass()
        log.append((seat, str(move)))
        state = check(after)
        seen.update(event.kind for event in state.events)
    assert outcome(state) is not None
    return state, tuple(log), frozenset(seen)


CASES = [
    (1, 2, {}, "short", 0.07),
    (2, 3, {}, "short", 0.07),
    (3, 4, {}, "short", 0.07),
    (4, 2, {"challenge": "void"}, "short", 0.07),
    (5, 3, {"tiles": 9}, "short", 0.07),
    (6, 4, {"tiles": 9, "challenge": "void"}, "short", 0.07),
    (7, 2, {"finish": "beginner"}, "short", 0.07),
    (8, 3, {"finish": 60, "challenge": "void"}, "short", 0.07),
    (9, 2, {}, "twos", 0.07),
    (12, 3, {"challenge": "void"}, "twos", 0.07),
    (18, 3, {}, "short", 0.5),
]
# Players resign now and then; the others play on.
RESIGNING = [
    (21, 4, {}, "short", 0.07, 0.02),
    (22, 3, {"challenge": "void"}, "short", 0.07, 0.02),
    (23, 4, {"tiles": 9}, "twos", 0.07, 0.03),
]


@pytest.mark.parametrize("seed, seats, options, words, pass_rate, resign_rate",
                         [case + (0,) for case in CASES] + RESIGNING)
def test_random_game_conserves_tiles_and_replays(seed, seats, options, words, pass_rate,
                                                 resign_rate):
    final, log, _ = random_game(seed, seats, tuple(options.items()), words, pass_rate,
                                resign_rate)
    result = outcome(final)
    assert len(result.scores) == seats and result.winners
    assert not set(result.winners) & set(final.resigned)
    assert final.scores == result.scores
    replay = new_game(seats, seed=seed, options=options)
    for seat, text in log:
        if text == "resign":
            replay = resign(replay, seat, lexicon=LEXICONS[words][1])
        else:
            replay = apply(replay, seat, parse_move(text), lexicon=LEXICONS[words][1])
    assert replay == final


def test_random_games_with_resignations_play_on():
    played_on = 0
    for seed, seats, options, words, pass_rate, rate in RESIGNING:
        final, log, _ = random_game(seed, seats, tuple(options.items()), words, pass_rate, rate)
        actions = [text for _, text in log]
        if "resign" in actions[:-1]:
            after = actions[actions.index("resign") + 1:]
            played_on += any(text not in ("resign", "pass") for text in after)
    assert played_on >= 2


def test_random_games_reach_every_kind_of_event():
    seen: set[str] = set()
    reasons: set[str] = set()
    for seed, seats, options, words, pass_rate in CASES:
        final, _, kinds = random_game(seed, seats, tuple(options.items()), words, pass_rate)
        seen |= kinds
        reasons.add(final.result.details["reason"])
    assert {"play", "exchange", "pass", "challenge", "withdrawn", "challenge_failed",
            "lost_turn", "end", "order", "opening_draw", "final_play", "accept"} <= seen
    assert {"passes", "blocked", "finish"} <= reasons


@pytest.mark.parametrize("options", [{}, {"challenge": "void", "tiles": 9}])
def test_greedy_game_with_the_full_lexicon(options):
    state = new_game(2, seed=99, options=options)
    while outcome(state) is None:
        seat = current_seat(state)
        if state.pending is not None and state.pending.final:
            move = Pass()
        else:
            best = scored_plays(state, seat)
            move = best[0][1] if best else Pass()
        state = check(apply(state, seat, move))
    result = outcome(state)
    assert max(result.scores) > 200
    assert sum(1 for row in state.board.rows for c in row if c != ".") > 50
