"""Each game's highlights of one match (games/<game>/records.py): exact numbers on hand-made
positions, and invariants on matches played out by the computer players."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import games.doudizhu as dd
import games.patchwork as pw
import games.reversi as reversi
import games.scrabble as scrabble
from games.doudizhu.records import highlights as doudizhu_highlights
from games.patchwork.patches import SEVEN_SQUARES, SQUARES, bits
from games.patchwork.records import highlights as patchwork_highlights
from games.reversi.records import highlights as reversi_highlights
from games.scrabble.records import highlights as scrabble_highlights
from tests.games.doudizhu.positions import staged
from tests.games.records_play import match_steps, walk

EMPTY = "\n".join(["." * 15] * 15)


def plain(found: list[dict]) -> None:
    """JSON-able dicts of plain numbers and strings, as the records store them."""
    assert json.loads(json.dumps(found)) == found
    assert all(type(value) in (int, str) for seat in found for value in seat.values())


# --- Scrabble ---------------------------------------------------------------------------------


def scrabble_walk():
    """Seat 0 plays a phony (QIZ, 42) that is challenged off, seat 1 a bingo (RETAINS, 66),
    seat 0 QAT (32), seat 1 exchanges, seat 0 passes."""
    state = scrabble.position(EMPTY, ["QIZAEOT", "AEINRST"], bag="EEEEEEEEEEEEEEEEEE")
    return walk(scrabble, state, [(0, "H8 across QIZ"), (1, "challenge"),
                                  (1, "H8 across RETAINS"), (0, "J6 down QAT"),
                                  (1, "exchange EEE"), (0, "pass")])


def test_scrabble_counts_plays_as_they_stand_after_challenges():
    steps = scrabble_walk()
    assert [e.kind for e in steps[1].after.events] == ["challenge", "withdrawn"]
    assert steps[0].after.events[0].values["score"] == 42  # the phony outscored QAT
    assert steps[2].after.events[0].values["bingo"]
    found = scrabble_highlights(steps, 2)
    plain(found)
    assert found == [
        {"score": 32, "turns": 3, "plays": 1, "points": 32, "best_play": 32,
         "best_play_word": "QAT", "best_play_move": "J6 down QAT", "bingos": 0},
        {"score": 66, "turns": 2, "plays": 1, "points": 66, "best_play": 66,
         "best_play_word": "RETAINS", "best_play_move": "H8 across RETAINS", "bingos": 1},
    ]


def test_scrabble_best_play_keeps_blanks_and_the_first_of_equal_scores():
    state = scrabble.position(EMPTY, ["QUIZ?AE", "AEINRST"], bag="EEEEEEEEEEEEEEEEEE")
    steps = walk(scrabble, state, [(0, "H8 across QUIz"), (1, "pass"), (0, "pass")])
    first = scrabble_highlights(steps, 2)[0]
    assert (first["best_play"], first["best_play_word"]) == (24, "QUIz")
    assert first["best_play_move"] == "H8 across QUIz" and first["turns"] == 2


def test_scrabble_resigned_match_counts_what_was_played():
    state = scrabble.position(EMPTY, ["QIZAEOT", "AEINRST"], bag="EEEEEEEEEEEEEEEEEE")
    steps = walk(scrabble, state, [(0, "H8 across ZOA"), (1, "resign")])
    found = scrabble_highlights(steps, 2)
    assert found[0]["points"] == found[0]["score"] == found[0]["best_play"] == 24
    assert found[1] == {"score": 0, "turns": 0, "plays": 0, "points": 0, "best_play": 0,
                        "best_play_word": "", "best_play_move": "", "bingos": 0}


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_scrabble_played_out(players, seed):
    steps = match_steps("scrabble", players, seed)
    result = scrabble.outcome(steps[-1].after)
    found = scrabble_highlights(steps, players)
    plain(found)
    plays = [e for s in steps for e in s.after.events if e.kind == "play"]
    for seat, mine in enumerate(found):
        assert mine["score"] == result.scores[seat]
        assert mine["points"] == result.details["before"][seat]  # before the leftover tiles
        own = [e.values["score"] for e in plays if e.seat == seat]
        assert mine["plays"] == len(own) and mine["best_play"] == max(own, default=0)
        assert mine["turns"] == sum(1 for s in steps if s.seat == seat
                                    and s.action not in ("challenge", "resign"))
    assert sum(mine["bingos"] for mine in found) == sum(e.values["bingo"] for e in plays)


# --- Reversi ----------------------------------------------------------------------------------


def test_reversi_margin_of_a_game_nobody_can_finish():
    lone = reversi.position("." * 27 + "BW" + "." * 35, black_seat=1)
    steps = walk(reversi, lone, [(1, "f4")])
    found = reversi_highlights(steps, 2)
    plain(found)
    assert found == [{"discs": 0, "margin": -3, "moves": 0, "flips": 0, "best_flip": 0},
                     {"discs": 3, "margin": 3, "moves": 1, "flips": 1, "best_flip": 1}]


def test_reversi_margin_of_a_resigned_game():
    state = reversi.new_game(2, seed=1)
    black = state.black_seat
    steps = walk(reversi, state, [(black, "d3"), (1 - black, "resign")])
    found = reversi_highlights(steps, 2)
    assert found[black]["margin"] == 3 and found[1 - black]["margin"] == -3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reversi_played_out(seed):
    steps = match_steps("reversi", 2, seed)
    result = reversi.outcome(steps[-1].after)
    found = reversi_highlights(steps, 2)
    for seat in (0, 1):
        assert found[seat]["discs"] == result.scores[seat]
        assert found[seat]["margin"] == result.scores[seat] - result.scores[1 - seat]
        assert found[seat]["moves"] == sum(1 for s in steps if s.seat == seat)
        assert found[seat]["flips"] >= found[seat]["best_flip"] >= 1
    # every disc beyond the four of the start was placed by a move
    assert sum(f["moves"] for f in found) == sum(result.scores) - 4


# --- Dou Dizhu --------------------------------------------------------------------------------


def test_doudizhu_landlord_spring_with_a_bomb():
    state = staged(["33334", "5", "6"], landlord=0, bid=2)
    steps = walk(dd, state, [(0, "3333"), (1, "pass"), (2, "pass"), (0, "4")])
    assert steps[-1].after.payments == (8, -4, -4)  # bid 2, doubled by the bomb
    found = doudizhu_highlights(steps, 3)
    plain(found)
    assert found[0] == {"rounds": 1, "landlord_rounds": 1, "landlord_wins": 1,
                        "peasant_wins": 0, "bombs": 1, "springs": 1, "best_round": 8}
    assert found[1] == found[2] == {"rounds": 1, "landlord_rounds": 0, "landlord_wins": 0,
                                    "peasant_wins": 0, "bombs": 0, "springs": 0,
                                    "best_round": 0}


def test_doudizhu_rocket_and_the_peasants_spring():
    state = staged(["34", "BR5", "66"], landlord=0)
    steps = walk(dd, state, [(0, "3"), (1, "BR"), (2, "pass"), (0, "pass"), (1, "5")])
    found = doudizhu_highlights(steps, 3)
    assert [f["springs"] for f in found] == [0, 1, 1]
    assert [f["bombs"] for f in found] == [0, 1, 0]
    assert [f["peasant_wins"] for f in found] == [0, 1, 1]
    assert [f["best_round"] for f in found] == [0, 2, 2]
    assert found[0]["landlord_rounds"] == 1 and found[0]["landlord_wins"] == 0


def test_doudizhu_no_spring_once_the_other_side_played():
    state = staged(["3A5", "79", "8"], landlord=0)
    landlord_won = walk(dd, state, [(0, "3"), (1, "7"), (2, "pass"), (0, "A"), (1, "pass"),
                                    (2, "pass"), (0, "5")])
    found = doudizhu_highlights(landlord_won, 3)
    assert found[0]["landlord_wins"] == 1 and found[0]["springs"] == 0
    peasants_won = walk(dd, staged(["356", "47", "8"], landlord=0),
                        [(0, "3"), (1, "4"), (2, "pass"), (0, "5"), (1, "7")])
    assert [f["springs"] for f in doudizhu_highlights(peasants_won, 3)] == [0, 0, 0]


def test_doudizhu_four_player_bombs_count_whether_or_not_they_double():
    state = staged(["33334", "5", "6", "7"], landlord=0)
    steps = walk(dd, state, [(0, "3333"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "4")])
    assert steps[-1].after.doublings == ()  # four of a kind does not double with 4 players
    found = doudizhu_highlights(steps, 4)
    assert found[0]["bombs"] == 1 and found[0]["springs"] == 1


def test_doudizhu_a_forfeit_pays_but_is_no_spring():
    state = staged(["33334", "5", "6"], landlord=0)
    steps = walk(dd, state, [(0, "3333"), (1, "forfeit")])
    found = doudizhu_highlights(steps, 3)
    assert found[0]["landlord_wins"] == 1 and found[0]["springs"] == 0
    assert found[0]["rounds"] == found[1]["rounds"] == 1


@pytest.mark.parametrize("players,seed", [(3, 1), (3, 2), (4, 3), (4, 4)])
def test_doudizhu_played_out(players, seed):
    steps = match_steps("doudizhu", players, seed, rounds=4)
    found = doudizhu_highlights(steps, players)
    plain(found)
    ends = [e.values for s in steps for e in s.after.events if e.kind == "round_end"]
    assert len(ends) == 4 and all(f["rounds"] == 4 for f in found)
    assert sum(f["landlord_rounds"] for f in found) == 4
    landlord_wins = sum(f["landlord_wins"] for f in found)
    assert landlord_wins == sum(end["won"] for end in ends)
    assert sum(f["peasant_wins"] for f in found) == (4 - landlord_wins) * (players - 1)
    bombs = [e for s in steps for e in s.after.events
             if e.kind == "play" and e.values["type"] in (dd.BOMB, dd.ROCKET)]
    assert sum(f["bombs"] for f in found) == len(bombs)
    paid = [s.after.payments for s in steps
            if any(e.kind == "round_end" for e in s.after.events)]
    assert [f["best_round"] for f in found] == [max(0, *(p[seat] for p in paid))
                                               for seat in range(players)]


# --- Patchwork --------------------------------------------------------------------------------


def patchwork_bonus_walk():
    """Both quilts lack two squares of a 7x7; seat 0 fills them with the 1x2 patch (the
    bonus), then both pass to the end."""
    seven = [SQUARES[i] for i in bits(SEVEN_SQUARES[0]) if SQUARES[i] not in ("f7", "g7")]
    quilt = tuple(pw.Placed(pw.LEATHER_ID, "0", square) for square in seven)
    start = replace(pw.new_game(2, seed=7), events=(), circle=(0, 1, 2, 3), positions=(50, 52),
                    top_seat=1, buttons=(10, 10), quilts=(quilt, quilt), leather_spaces=())
    return walk(pw, start, [(0, "buy 1 0 f7"), (0, "pass"), (1, "pass")])


def test_patchwork_bonus_and_the_end():
    steps = patchwork_bonus_walk()
    last = steps[-1].after
    assert last.over and last.bonus_seat == 0
    found = patchwork_highlights(steps, 2)
    plain(found)
    assert found[0] == {"score": last.score(0), "bonus": 1, "buttons": 8 + 2,
                        "empty": 81 - 49, "patches": 1, "leather": 0, "income": 0}
    assert found[0]["score"] == 10 + 7 - 2 * 32
    assert found[1]["bonus"] == 0 and found[1]["patches"] == 0
    assert found[1]["empty"] == 81 - 47


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_patchwork_played_out(seed):
    steps = match_steps("patchwork", 2, seed)
    result = pw.outcome(steps[-1].after)
    found = patchwork_highlights(steps, 2)
    plain(found)
    assert sum(f["bonus"] for f in found) <= 1
    for seat, mine in enumerate(found):
        assert mine["score"] == result.scores[seat]
        assert mine["score"] == mine["buttons"] + 7 * mine["bonus"] - 2 * mine["empty"]
        assert mine["patches"] == sum(1 for s in steps if s.seat == seat
                                      and s.action.startswith("buy"))
        assert mine["leather"] == sum(1 for s in steps if s.seat == seat
                                      and s.action.startswith("place"))
