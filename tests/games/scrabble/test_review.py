"""The Scrabble coach (games/scrabble/review.py): each turn judged in equity from the seat's own
view; the better move legal and worth at least the move played; the same judgment whatever the
other racks and the bag hold; whole matches of 2 and 4 players and of 9-tile racks reviewed."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

import games.scrabble as scrabble
from games.replay import Step, steps as replay_steps
from games.review import Judged, accuracy
from games.scrabble.leave import leave_value
from games.scrabble.review import UNIT, judge, win_chance
from games.scrabble.scoring import unknown_words
from games.scrabble.tiles import BLANK, sort_tiles
from tests.games.records_play import walk
from tests.games.test_records_highlights import EMPTY, scrabble_walk


def judged(state: scrabble.State, seat: int, played: str) -> Judged:
    found = judge(state, seat, played, seed=7)
    assert found is not None
    return found


def opening(rack: str, **options) -> scrabble.State:
    return scrabble.position(EMPTY, [rack, "BCDFGHK" if "A" in rack else "ABCDFGH"],
                             options=options or None)


# -- one turn ----------------------------------------------------------------------------------

def test_a_bingo_missed_is_named_and_is_the_better_move():
    state = opening("AEINRST")
    turn = judged(state, 0, "H8 across RAN")
    assert turn.unit == UNIT == "equity" and turn.seat == 0 and turn.played == "H8 across RAN"
    assert turn.reason == "bingo_missed" and turn.reason_values["score"] == 66
    assert turn.best == turn.reason_values["move"] and len(turn.best.split()[2]) == 7
    assert turn.best_value == 66.0  # the whole rack played: nothing kept, worth 0
    assert turn.played_value == 6 + leave_value("EIST")  # RAN scores 3 x 2, keeps EIST
    assert turn.win_best > turn.win_played and turn.loss > 0 and turn.choices > 1000


def test_the_best_move_played_is_its_own_best():
    turn = judged(opening("AEINRST"), 0, "H4 down STAINER")
    assert (turn.best, turn.reason, turn.loss) == ("H4 down STAINER", None, 0.0)
    assert turn.best_value == turn.played_value and turn.accuracy == 100


def test_a_burnt_s_for_two_points_is_a_bad_leave():
    turn = judged(opening("AAGORST"), 0, "D8 across GATORS")
    assert turn.best == "D8 across GATOR"
    assert turn.reason == "bad_leave" and turn.reason_values == {"kept": "A", "better_kept": "AS"}


def test_an_exchange_beats_a_rack_of_no_good_play():
    turn = judged(opening("IIUUVVW"), 0, "pass")
    assert turn.best == "exchange IIUUVVW" and turn.reason == "exchange_better"
    assert turn.reason_values == {"tiles": "IIUUVVW", "kept": ""}
    assert turn.played_value == leave_value("IIUUVVW") and turn.best_value == 0.0


def test_a_phony_counts_as_taken_off_whoever_challenged():
    steps = scrabble_walk()  # seat 0's QIZ (42 on its face) was challenged off
    turn = judged(steps[0].before, 0, steps[0].action)
    rack = steps[0].before.racks[0]
    assert turn.reason == "phony" and turn.reason_values == {"words": ["QIZ"]}
    assert turn.played_value == leave_value(rack)  # 0 points, every tile back on the rack
    assert turn.best_value > turn.played_value and turn.best != turn.played


def test_a_play_reaching_the_finish_line_wins_at_once():
    state = scrabble.position(EMPTY, ["ACEHRST", "BDFGIKL"], options={"finish": 120},
                              scores=(40, 100))
    turn = judged(state, 0, "H8 across AH")  # 10 points; CHASTER (82) reaches 120
    assert turn.win_best == 1.0 and turn.win_played < 0.5
    assert turn.reason == "finish_missed" and turn.reason_values["target"] == 120
    assert scrabble.score_play(state, 0, turn.best).score >= 80


def test_no_judgment_for_a_challenge_an_accepting_pass_or_a_move_out_of_turn():
    steps = scrabble_walk()
    assert steps[1].action == "challenge" and judge(steps[1].before, 1, "challenge", seed=0) is None
    assert judge(steps[0].before, 1, "pass", seed=0) is None  # seat 0 is to move
    ending = scrabble.position(EMPTY, ["AT", "EEE"], bag="")
    ending = scrabble.apply(ending, 0, "H8 across AT")  # goes out: the game waits on seat 1
    assert ending.pending is not None and ending.pending.final
    assert judge(ending, 1, "pass", seed=0) is None


def test_the_seed_changes_nothing_and_a_judgment_repeats():
    state = opening("AEQRSTU")
    first = judge(state, 0, "H8 across QAT", seed=1)
    assert first == judge(state, 0, "H8 across QAT", seed=2) == judge(state, 0, "H8 across QAT",
                                                                     seed=1)


def test_the_win_chance_grows_with_the_lead_and_narrows_as_the_tiles_run_out():
    two = scrabble.view(opening("AEINRST"), 0)
    assert win_chance(two, 0) == pytest.approx(0.5)
    assert win_chance(two, -40) < win_chance(two, 0) < win_chance(two, 40) < 1
    late = replace(two, unseen=two.unseen[:7])
    assert win_chance(late, 40) > win_chance(two, 40)
    four = scrabble.view(scrabble.position(EMPTY, ["AEINRST", "B", "C", "D"]), 0)
    assert win_chance(four, 0) == pytest.approx(0.25)


# -- what the judge may see --------------------------------------------------------------------

def reshuffled(state: scrabble.State, seat: int, seed: int) -> scrabble.State:
    """The same board, scores and rack for `seat`; the other racks and the bag dealt anew
    from the tiles the seat cannot see (as many on each rack as before)."""
    hidden = list(state.bag + "".join(r for s, r in enumerate(state.racks) if s != seat))
    random.Random(seed).shuffle(hidden)
    racks = []
    for s, rack in enumerate(state.racks):
        if s == seat:
            racks.append(rack)
        else:
            racks.append(sort_tiles("".join(hidden[:len(rack)])))
            del hidden[:len(rack)]
    changed = replace(state, racks=tuple(racks), bag="".join(hidden))
    assert changed.tile_count() == 100
    return changed


@pytest.mark.parametrize("players", [2, 4])
def test_other_racks_and_the_bag_change_nothing(players):
    steps = match(players, 7, seed=3)
    checked = 0
    for step in steps[::3]:
        found = judge(step.before, step.seat, step.action, seed=5)
        if found is None:
            continue
        for again in range(2):
            other = reshuffled(step.before, step.seat, again)
            assert judge(other, step.seat, step.action, seed=5) == found
            checked += other.racks != step.before.racks or other.bag != step.before.bag
    assert checked >= 10


# -- whole matches -----------------------------------------------------------------------------

@cache
def match_log(players: int, tiles: int, seed: int) -> tuple[tuple[int, str], ...]:
    """A match of computers, levels mixed (easy, hard, normal, hard) so there are choices to
    judge, played to its end."""
    options = {"tiles": tiles} if tiles != 7 else None
    levels = ("easy", "hard", "normal", "hard")
    state = scrabble.new_game(players, seed=seed, options=options)
    log = []
    while scrabble.outcome(state) is None:
        seat = scrabble.current_seat(state)
        action = str(scrabble.choose_move(state, seat, levels[seat], seed=len(log)))
        log.append((seat, action))
        state = scrabble.apply(state, seat, action)
    return tuple(log)


def match(players: int, tiles: int, seed: int) -> list[Step]:
    options = {"tiles": tiles} if tiles != 7 else None
    return list(replay_steps(scrabble, players, seed, options,
                             list(match_log(players, tiles, seed))))


def check_turn(step: Step, turn: Judged) -> None:
    """The better move is legal for the seat, and worth at least the move played."""
    before, seat = step.before, step.seat
    assert turn.seat == seat and turn.played == step.action and turn.unit == "equity"
    scrabble.apply(before, seat, turn.best)  # legal from that rack and board
    move = scrabble.parse_move(turn.best)
    if isinstance(move, scrabble.Play):
        scored = scrabble.score_play(before, seat, move)
        assert not unknown_words(scored, scrabble.default_lexicon())
    assert turn.win_best >= turn.win_played
    assert turn.best_value >= turn.played_value or turn.win_best == 1.0
    assert 0.0 <= turn.win_played <= 1.0 and turn.choices >= 1
    if turn.best == turn.played:
        assert turn.loss == 0 and turn.reason is None
    assert Judged.from_dict(turn.to_dict()) == turn


@pytest.mark.parametrize("players, tiles, seed", [(2, 7, 1), (4, 7, 2), (2, 9, 4)],
                         ids=["2 players", "4 players", "9-tile racks"])
def test_a_whole_match_is_reviewed(players, tiles, seed):
    steps = match(players, tiles, seed)
    turns = []
    for step in steps:
        turn = judge(step.before, step.seat, step.action, seed=step.ply)
        if turn is None:
            assert step.action == "challenge" or step.before.pending is not None
            continue
        check_turn(step, turn)
        turns.append(replace(turn, ply=step.ply))
    assert len(turns) >= len(steps) - players
    scores = [accuracy(turns, seat) for seat in range(players)]
    assert all(value is not None and 0 <= value <= 100 for value in scores)
    assert scores[0] < scores[1]  # easy (seat 0) against hard (seat 1)
    assert any(turn.reason for turn in turns)


def test_a_two_blank_rack_is_judged():
    state = scrabble.position(EMPTY, ["AEIRT" + BLANK * 2, "BCDFGHK"])
    turn = judged(state, 0, "H8 across TEA")
    assert turn.reason == "bingo_missed" and turn.best_value > 50


def test_the_worker_judges_a_turn_as_plain_data():
    from bot.workers.reviews import judge_turn, reviewable

    steps = scrabble_walk()
    assert reviewable("scrabble")
    found, seconds = judge_turn("scrabble", steps[2].before.to_dict(), 1, steps[2].action, 3)
    assert found is not None and seconds >= 0
    assert Judged.from_dict(found) == judge(steps[2].before, 1, steps[2].action, seed=3)


def test_walked_exchange_and_pass_are_turns():
    state = scrabble.position(EMPTY, ["QIZAEOT", "AEINRST"], bag="E" * 18)
    steps = walk(scrabble, state, [(0, "exchange Q"), (1, "pass")])
    exchange = judged(steps[0].before, 0, "exchange Q")
    assert exchange.played_value == leave_value("AEIOTZ")
    assert judged(steps[1].before, 1, "pass").reason == "bingo_missed"
