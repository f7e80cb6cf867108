"""A Dou Dizhu turn judged (games/doudizhu/review.py): whole rounds of 3 and 4 players reviewed
with legal best moves never judged worse than the move played and true reasons; a judgment
that depends only on what the mover could see (the other hands dealt again, it stays the
same); the same judgment for the same seed; certain wins found."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.doudizhu import review
from games.doudizhu.combinations import BOMB, ROCKET
from games.doudizhu.review import judge
from games.review import Judged, accuracy
from tests.games.doudizhu.positions import play, staged

MIXED = ("easy", "normal", "hard")
pytestmark = pytest.mark.xdist_group("doudizhu-review")  # one worker reviews each round once


def played_round(players: int, seed: int) -> tuple[list[tuple[dd.State, int, str]], dd.State]:
    """One round of computers of mixed levels: each (state before, seat, action), and the
    state once it is over."""
    rng = random.Random(seed)
    levels = [rng.choice(MIXED) for _ in range(players)]
    state = dd.new_game(players, seed=seed)
    steps = []
    while state.phase in (dd.AUCTION, dd.PLAY):
        seat = dd.current_seat(state)
        move = dd.choose_move(state, seat, levels[seat], seed=seed + len(steps), samples=8)
        steps.append((state, seat, str(move)))
        state = dd.apply(state, seat, move)
    return steps, state


@pytest.fixture(scope="module", params=[3, 4], ids=["3 players", "4 players"])
def reviewed(request) -> tuple[list[tuple[dd.State, int, str]], list[Judged | None], dd.State]:
    """A whole round, every turn judged."""
    steps, end = played_round(request.param, seed=40 + request.param)
    judged = [judge(state, seat, action, seed=ply) for ply, (state, seat, action)
              in enumerate(steps)]
    return steps, judged, end


def legal_texts(state: dd.State, seat: int) -> list[str]:
    return [str(move) for move in dd.legal_moves(state, seat)]


def test_every_turn_of_a_round_is_judged_and_the_best_move_is_legal(reviewed):
    steps, judged, _end = reviewed
    for (state, seat, action), turn in zip(steps, judged):
        assert turn is not None, action
        legal = legal_texts(state, seat)
        assert turn.seat == seat and turn.played == action and turn.unit == "win chance"
        assert turn.best in legal and turn.played in legal
        assert turn.choices == len(legal)
        assert 0.0 <= turn.win_played <= 1.0 and 0.0 <= turn.win_best <= 1.0
        assert (turn.played_value, turn.best_value) == (turn.win_played, turn.win_best)
        if turn.choices == 1 or turn.best == turn.played:
            assert turn.best == turn.played and turn.reason is None and turn.loss == 0


def test_the_best_move_is_never_judged_worse_than_the_move_played(reviewed):
    _steps, judged, _end = reviewed
    assert all(turn.best_value >= turn.played_value for turn in judged)
    assert any(turn.best != turn.played for turn in judged)  # a round of computers errs


def test_every_seat_gets_an_accuracy(reviewed):
    steps, judged, _end = reviewed
    for seat in range(steps[0][0].players):
        value = accuracy([turn for turn in judged if turn], seat)
        assert value is not None and 0 <= value <= 100


def test_the_reasons_say_what_happened(reviewed):
    steps, judged, _end = reviewed
    for (state, seat, action), turn in zip(steps, judged):
        if turn.reason is None:
            continue
        players = state.players
        played = dd.parse_move(turn.played)
        best = dd.parse_move(turn.best)
        if turn.reason in ("bid_too_high", "bid_too_low"):
            higher = turn.reason_values["played"] > turn.reason_values["bid"]
            assert state.phase == dd.AUCTION and higher == (turn.reason == "bid_too_high")
            continue
        assert state.phase == dd.PLAY
        if turn.reason in ("pass_could_win", "out_missed"):
            assert isinstance(best, dd.Play) and len(best.ranks) == len(state.hands[seat])
            assert isinstance(played, dd.Pass) == (turn.reason == "pass_could_win")
        elif turn.reason == "bomb_early":
            kind = dd.classify(played.ranks, players).type
            assert kind in (BOMB, ROCKET) and turn.reason_values["type"] == kind
            assert isinstance(best, dd.Pass) or dd.classify(best.ranks, players).type not in (
                BOMB, ROCKET)
        elif turn.reason == "partner_beaten":
            assert isinstance(played, dd.Play) and isinstance(best, dd.Pass)
            winner = state.to_beat[0]
            assert state.landlord not in (seat, winner)
        elif turn.reason == "broke_chain":
            chain = dd.classify(turn.reason_values["chain"], players)
            assert chain is not None and chain.type in review.CHAINS
        else:
            pytest.fail(f"unknown reason {turn.reason}")


def redealt(state: dd.State, seat: int, seed: int) -> dd.State:
    """`state` with every card `seat` cannot see shuffled among the other hands (and, in the
    auction, the kitty), each keeping its size: the seat's view stays the same."""
    others = [other for other in range(state.players) if other != seat]
    hidden = [card for other in others for card in state.hands[other]]
    in_kitty = state.phase == dd.AUCTION
    if in_kitty:
        hidden += list(state.kitty)
    random.Random(seed).shuffle(hidden)
    hands = list(state.hands)
    at = 0
    for other in others:
        size = len(state.hands[other])
        hands[other] = dd.sort_cards(hidden[at:at + size])
        at += size
    kitty = tuple(hidden[at:]) if in_kitty else state.kitty
    return replace(state, hands=tuple(hands), kitty=kitty)


def test_the_judge_never_reads_the_hidden_hands(reviewed):
    """The other hands dealt again, all that the mover sees the same: the same judgment."""
    steps, judged, _end = reviewed
    chosen = [index for index, turn in enumerate(judged) if turn.choices > 1]
    picked = chosen[:2] + chosen[len(chosen) // 2:len(chosen) // 2 + 2] + chosen[-2:]
    for index in picked:
        state, seat, action = steps[index]
        other = redealt(state, seat, seed=index)
        assert other.hands != state.hands
        assert dd.view(other, seat) == dd.view(state, seat)
        assert judge(other, seat, action, seed=index) == judged[index]


def test_the_same_seed_gives_the_same_judgment(reviewed):
    steps, judged, _end = reviewed
    for index in (0, len(steps) // 2, len(steps) - 2):
        state, seat, action = steps[index]
        assert judge(state, seat, action, seed=index) == judged[index]


def test_actions_that_are_no_decision_are_not_judged(reviewed):
    _steps, _judged, end = reviewed
    assert end.phase == dd.ROUND_OVER
    for action in ("next", "stop", "resign", "forfeit"):
        assert judge(end, 0, action, seed=1) is None


def test_the_hard_computers_move_is_judged_as_a_hint_is():
    """The hint judges the hard computer's move (bot/workers/reviews.py): it is a candidate,
    and the judgment is of that move."""
    steps, _end = played_round(3, seed=9)
    for state, seat, _action in steps[:6]:
        move = str(dd.choose_move(state, seat, "hard", seed=5, samples=8))
        turn = judge(state, seat, move, seed=5)
        assert turn is not None and turn.played == move
        assert turn.best in legal_texts(state, seat)


def test_passing_when_a_play_goes_out_is_a_certain_loss():
    """The landlord holds 22 against KK; the peasant who led has one card left, so a pass
    lets it go out: whatever the hidden cards, 22 wins and the pass loses."""
    state = play(staged(["22", "KKA", "3456"], landlord=0, turn=1), "KK", "pass")
    turn = judge(state, 0, "pass", seed=3)
    assert turn is not None
    assert (turn.best, turn.win_best, turn.win_played) == ("22", 1.0, 0.0)
    assert turn.reason == "pass_could_win" and turn.reason_values == {"play": "22"}
    assert turn.loss == 100.0
    again = judge(state, 0, "22", seed=3)
    assert again is not None and again.best == again.played == "22" and again.loss == 0


def test_going_out_at_once_is_found():
    """The landlord leads with 33 left: one 3 leaves a card the peasants may beat and go
    out on; both 3s end the round."""
    state = staged(["33", "2", "44"], landlord=0)
    turn = judge(state, 0, "3", seed=4)
    assert turn is not None and turn.best == "33" and turn.win_best == 1.0
    assert turn.reason == "out_missed" and turn.win_played < 0.5


def test_a_forced_pass_has_no_choice():
    state = play(staged(["35", "2BR", "456"], landlord=0), "3", "BR")
    turn = judge(state, 2, "pass", seed=1)
    assert turn is not None and turn.choices == 1 and turn.best == "pass" and turn.loss == 0
