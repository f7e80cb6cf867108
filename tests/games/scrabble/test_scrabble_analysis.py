"""Scrabble's missed plays (games/scrabble/analysis.py): the turn where the move generator's
best play beat each seat's move by the most, checked against the generator's sorted list and
the slow reference generator on the same positions."""

from __future__ import annotations

import pytest

import games.scrabble as scrabble
from games.scrabble.analysis import analyse, missed_plays
from games.scrabble.records import plays_made
from tests.games.records_play import match_steps, played_out, walk
from tests.games.scrabble import reference_movegen as reference
from tests.games.test_records_highlights import EMPTY, scrabble_walk


def expected(steps, players, *, slow=False):
    """The missed plays worked out turn by turn from `scored_plays` (best first, ties by
    text), or with the reference generator's best score (`slow`)."""
    stood = {play.ply: play.score for play in plays_made(steps)}
    found = [None] * players
    for step in steps:
        if step.seat is None or step.action in ("challenge", "resign"):
            continue
        if any(event.kind == "accept" for event in step.after.events):
            continue
        if slow:
            lexicon = scrabble.default_lexicon()
            best = max((scored.score for _, scored in reference.generate(
                step.before.board, step.before.racks[step.seat], lexicon)), default=None)
            move = None
        else:
            plays = scrabble.scored_plays(step.before, step.seat)
            best, move = plays[0] if plays else (None, None)
        if best is None:
            continue
        played = stood.get(step.ply, 0)
        current = found[step.seat]
        if best > played and (current is None or best - played > current[2] - current[1]):
            found[step.seat] = (step.ply, played, best, move and str(move))
    return found


def summary(missed, *, move=True):
    return [None if m is None else (m["ply"], m["played"], m["best"], m["move"] if move else None)
            for m in missed]


def test_missed_plays_of_a_hand_made_game():
    steps = scrabble_walk()
    missed = missed_plays(steps, 2)
    # seat 0: its phony came off (0 for a best of 30), QAT scored 32 for a best of 34, and it
    # passed holding ZEST for 33; seat 1: RETAINS was as good as any, the exchange was not
    assert missed == [
        {"ply": 6, "played": 0, "best": 33, "move": "N6 down ZEST", "word": "ZEST"},
        {"ply": 5, "played": 0, "best": 5, "move": "N8 down SEE", "word": "SEE"},
    ]
    assert summary(missed) == expected(steps, 2)
    assert summary(missed, move=False) == expected(steps, 2, slow=True)


def test_a_phony_that_came_off_scores_nothing_and_one_that_stands_counts():
    state = scrabble.position(EMPTY, ["QIZAEOT", "AEINRST"], bag="EEEEEEEEEEEEEEEEEE")
    off = walk(scrabble, state, [(0, "H8 across QIZ"), (1, "challenge")])
    assert missed_plays(off, 2)[0] == {"ply": 1, "played": 0, "best": 30,
                                       "move": "D8 across AZOTE", "word": "AZOTE"}
    stood = walk(scrabble, state, [(0, "H8 across QIZ"), (1, "pass")])
    missed = missed_plays(stood, 2)
    assert missed[0] is None  # the phony's 42 beat every real word
    assert (missed[1]["ply"], missed[1]["played"]) == (2, 0)  # seat 1 passed


def test_no_miss_for_the_best_play_or_a_seat_that_never_moved():
    state = scrabble.position(EMPTY, ["AEINRST", "QIZAEOT"], bag="EEEEEEEEEEEEEEEEEE")
    steps = walk(scrabble, state, [(0, "H8 across RETAINS"), (1, "resign")])
    assert missed_plays(steps, 2) == [None, None]


def test_no_turn_when_only_accepting_a_play_that_ends_the_game():
    state = scrabble.position(EMPTY, ["QUIZ", "AEINRST"], bag="")
    steps = walk(scrabble, state, [(0, "H8 across QUIZ"), (1, "pass")])
    assert [e.kind for e in steps[1].after.events][:1] == ["accept"]
    assert missed_plays(steps, 2)[1] is None  # RETAINS could not be played then


@pytest.mark.parametrize("players,seed", [(2, 4), (4, 5)])
def test_played_out_games_match_the_generator(players, seed):
    actions = played_out("scrabble", players, seed)
    steps = match_steps("scrabble", players, seed)
    missed = missed_plays(steps, players)
    assert summary(missed) == expected(steps, players)
    assert all(m is None or m["word"] in m["move"] and m["best"] > m["played"] for m in missed)
    assert analyse(players, seed, None, actions) == missed  # the pool's worker, on plain data
