"""Every Patchwork rule: set-up, turn order, buying, passing, income, leather, bonus, end."""

from dataclasses import replace

import pytest

from games.common import BadNotation, GameOver, IllegalMove, NotYourTurn
from games.patchwork import (
    HIGHEST_SCORE,
    LEATHER_ID,
    RESIGNED,
    TIE_BREAK,
    TURN_BEHIND,
    TURN_LEATHER,
    TURN_ON_TOP,
    BadPlacement,
    Buy,
    NoSuchPatch,
    NotEnoughButtons,
    Pass,
    Place,
    Placed,
    WrongPhase,
    apply,
    buy_problem,
    current_seat,
    legal_moves,
    new_game,
    outcome,
    resign,
    turn_reason,
)
from games.patchwork.patches import INCOME_SPACES, SEVEN_SQUARES, SQUARES, bits


def make(**fields):
    """A position built on a fresh game (seed 7), events cleared."""
    return replace(new_game(2, seed=7), events=(), **fields)


def kinds(state):
    return [e.kind for e in state.events]


def leathers(*squares):
    return tuple(Placed(LEATHER_ID, "0", sq) for sq in squares)


# --- set-up --------------------------------------------------------------------------------------


def test_setup():
    s = new_game(2, seed=1)
    assert s.buttons == (5, 5)
    assert s.positions == (0, 0)
    assert sorted(s.circle) == list(range(33))
    assert s.circle[-1] == 0  # the spool sits clockwise of the 1x2 patch: it is reached last
    assert s.offer == s.circle[:3]
    assert s.quilts == ((), ())
    assert s.leather_spaces == (20, 26, 32, 44, 50)
    assert s.bonus_seat is None and s.finished == () and not s.over
    assert [e.kind for e in s.events] == ["start"]
    assert s.events[0].seat == s.start_seat
    assert s.events[0].text == "" and s.events[0].values == {}  # worded by the bot
    assert current_seat(s) == s.start_seat
    assert turn_reason(s) == TURN_ON_TOP


def test_setup_is_seeded():
    assert new_game(2, seed=5) == new_game(2, seed=5)
    circles = {new_game(2, seed=k).circle for k in range(20)}
    assert len(circles) == 20
    starts = {new_game(2, seed=k).start_seat for k in range(40)}
    assert starts == {0, 1}


def test_two_players_only():
    with pytest.raises(Exception):
        new_game(3, seed=1)
    with pytest.raises(Exception):
        new_game(2, seed=1, options={"variant": "x"})


# --- turn order ----------------------------------------------------------------------------------


def test_player_behind_moves_several_turns_in_a_row_then_same_space():
    # seat 0 at 2, seat 1 at 5; patch 0 (1x2) costs 2 and takes 1 time.
    s = make(circle=(0, 3, 1, 2, 4), positions=(2, 5), top_seat=1, buttons=(20, 5))
    assert current_seat(s) == 0 and turn_reason(s) == TURN_BEHIND
    assert legal_moves(s, 1) == []
    with pytest.raises(NotYourTurn, match="^patchwork.not_your_turn$") as err:
        apply(s, 1, Pass())
    assert err.value.values == {"why": TURN_BEHIND}
    s = apply(s, 0, Buy(1, "0", "a1"))  # 1x2, 1 time -> 3
    assert s.positions == (3, 5) and current_seat(s) == 0
    assert kinds(s) == ["buy", "again"]
    s = apply(s, 0, Buy(2, "0", "a2"))  # patch 1 (L3): 3 time -> 6: now ahead
    assert s.positions == (6, 5) and current_seat(s) == 1
    s = apply(s, 1, Pass())  # to 7, in front of seat 0
    assert s.positions == (6, 7) and current_seat(s) == 0


def test_same_space_the_one_who_arrived_last_moves():
    s = make(circle=(3, 0, 1), positions=(3, 5), top_seat=1, buttons=(10, 10))
    s = apply(s, 0, Buy(1, "0", "a1"))  # patch 3: 2 time, 3 -> 5 lands on seat 1
    assert s.positions == (5, 5)
    assert s.top_seat == 0 and current_seat(s) == 0 and turn_reason(s) == TURN_ON_TOP
    assert "again" in kinds(s)
    with pytest.raises(NotYourTurn, match="^patchwork.not_your_turn$") as err:
        apply(s, 1, Pass())
    assert err.value.values == {"why": TURN_ON_TOP}
    # seat 1 on top instead: seat 1 moves
    t = replace(s, top_seat=1)
    assert current_seat(t) == 1
    assert legal_moves(t, 0) == []


def test_start_player_moves_first_and_the_other_follows():
    s = new_game(2, seed=3)
    first = s.start_seat
    s = apply(s, first, Pass())  # moves to 1, one in front of the opponent
    assert s.positions[first] == 1 and s.buttons[first] == 6
    assert current_seat(s) == 1 - first


def test_off_turn_at_the_start_says_the_start_player_was_drawn():
    s = new_game(2, seed=3)
    with pytest.raises(NotYourTurn, match="^patchwork.not_your_turn$") as err:
        apply(s, 1 - s.start_seat, Pass())
    assert err.value.values == {"why": "start"}


# --- buying --------------------------------------------------------------------------------------


def test_buying_pays_moves_the_spool_places_and_moves_the_token():
    s = make(circle=(10, 11, 12, 13, 14, 0), positions=(0, 0), top_seat=0, buttons=(5, 5))
    s = apply(s, 0, Buy(2, "90", "b3"))  # patch 11: cost 1, time 5, income 1
    assert s.circle == (12, 13, 14, 0, 10)  # spool now where 11 was; 10 goes round to the end
    assert s.offer == (12, 13, 14)
    assert s.quilts[0] == (Placed(11, "90", "b3"),)
    assert s.positions == (5, 0)  # 5 is an income space: quilt income 1 is paid
    assert s.buttons == (5 - 1 + 1, 5)
    assert kinds(s) == ["buy", "income"]


def test_buy_pays_income_including_the_patch_just_placed():
    s = make(circle=(8, 0, 1), positions=(0, 6), top_seat=0, buttons=(6, 5), leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "a1"))  # 2x2: cost 6, time 5, income 2 -> onto space 5
    assert s.positions[0] == 5 and s.buttons[0] == 0 + 2


def test_buying_errors():
    s = make(circle=(13, 8, 0), positions=(0, 0), top_seat=0, buttons=(4, 5))
    with pytest.raises(NotEnoughButtons, match="^patchwork.too_dear$") as err:
        apply(s, 0, Buy(1, "0", "a1"))
    assert err.value.values == {"cost": 7, "have": 4}
    s = replace(s, buttons=(20, 5), quilts=(leathers("e5"), ()))
    with pytest.raises(BadPlacement, match="^patchwork.overlap$") as err:
        apply(s, 0, Buy(2, "0", "d4"))
    assert err.value.values == {"patch": 2, "square": "d4", "orientation": "0",
                                "squares": ["e5"]}
    with pytest.raises(BadPlacement, match="^patchwork.sticks_out$") as err:
        apply(s, 0, Buy(1, "0", "f1"))  # 1x5 from f1 needs f..j
    assert err.value.values["past"] == "column"
    with pytest.raises(BadPlacement, match="^patchwork.sticks_out$") as err:
        apply(s, 0, Buy(1, "90", "a6"))
    assert err.value.values == {"patch": 1, "square": "a6", "orientation": "90", "past": "row"}
    assert apply(s, 0, Buy(1, "90", "a5")).quilts[0][-1] == Placed(13, "90", "a5")
    short = replace(s, circle=(13, 8))
    with pytest.raises(NoSuchPatch, match="^patchwork.few_left$") as err:
        apply(short, 0, Buy(3, "0", "a1"))
    assert err.value.values == {"left": 2}
    with pytest.raises(WrongPhase, match="^patchwork.no_leather$"):
        apply(s, 0, Place("a1"))
    assert buy_problem(s, 0, Buy(2, "0", "d4")).key == "patchwork.overlap"
    assert buy_problem(s, 0, Buy(2, "0", "a1")) is None
    assert buy_problem(s, 1, Buy(2, "0", "a1")).key == "patchwork.not_your_turn"
    # A preview while the other player moves: everything but the turn is checked.
    dear = buy_problem(s, 1, Buy(1, "0", "a1"), any_turn=True)
    assert dear.key == "patchwork.too_dear" and dear.values == {"cost": 7, "have": 5}
    assert buy_problem(replace(s, buttons=(20, 20)), 1, Buy(1, "0", "a1"), any_turn=True) is None
    assert buy_problem(replace(s, finished=(1,)), 1, Buy(2, "0", "a1"),
                       any_turn=True).key == "patchwork.finished"


def test_a_rejected_action_changes_nothing():
    s = make(circle=(13, 8, 0), positions=(0, 0), top_seat=0, buttons=(4, 5))
    before = s.to_dict()
    for move in (Buy(1, "0", "a1"), Place("a1")):
        with pytest.raises(IllegalMove):
            apply(s, 0, move)
    assert s.to_dict() == before


def test_every_orientation_is_accepted_and_places_the_right_cells():
    from games.patchwork import orientations, view
    from games.patchwork.patches import oriented_cells

    for pid in (4, 5, 18, 25):
        for name in ("0", "90", "180", "270", "0 mirrored", "90 mirrored", "180 mirrored", "270 mirrored"):
            s = make(circle=(pid, 0, 1), positions=(0, 0), top_seat=0, buttons=(20, 5), leather_spaces=())
            s = apply(s, 0, Buy(1, name, "c4"))
            placed = view(s, 0).players[0].quilt.patches[0]
            assert set(placed.cells) == {(3 + r, 2 + c) for r, c in oriented_cells(pid, name)}
        assert len(orientations(pid)) in (4, 8)


def test_legal_moves_lists_every_affordable_placement_and_pass():
    from games.patchwork import legal_placements, orientations

    s = make(circle=(13, 8, 0, 1), positions=(0, 0), top_seat=0, buttons=(6, 5))
    moves = legal_moves(s, 0)
    assert moves[-1] == Pass()
    buys = moves[:-1]
    assert all(m.choice in (2, 3) for m in buys)  # patch 13 costs 7: unaffordable
    expected = [
        Buy(choice, name, sq)
        for choice, pid in ((2, 8), (3, 0))
        for name in orientations(pid)
        for sq in legal_placements(0, pid, name)
    ]
    assert buys == expected
    assert len(buys) == 64 + 72 * 2
    for m in moves[:: len(moves) // 7]:
        apply(s, 0, m)  # each listed move is accepted


# --- passing -------------------------------------------------------------------------------------


def test_pass_moves_in_front_of_the_opponent_one_button_per_space():
    s = make(positions=(3, 10), top_seat=1, buttons=(5, 5), leather_spaces=())
    s = apply(s, 0, Pass())
    assert s.positions == (11, 10)
    assert s.buttons == (5 + 8, 5)  # crosses income 5 and 11, but the quilt pays 0
    assert current_seat(s) == 1


def test_pass_from_the_same_space_moves_one():
    s = make(positions=(7, 7), top_seat=1, buttons=(5, 5))
    s = apply(s, 1, Pass())
    assert s.positions == (7, 8) and s.buttons == (5, 6)


def test_pass_at_the_end_of_the_track_pays_only_spaces_moved():
    quilt = (Placed(8, "0", "a1"),)  # income 2
    s = make(positions=(50, 53), top_seat=1, buttons=(5, 5), quilts=(quilt, ()), finished=(1,), leather_spaces=())
    s = apply(s, 0, Pass())
    assert s.positions == (53, 53)
    assert s.buttons[0] == 5 + 3 + 2  # 3 spaces moved, then the final income of 2
    assert kinds(s) == ["pass", "income", "finish", "end"]


# --- income ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("space", INCOME_SPACES)
def test_income_on_every_income_space(space):
    quilt = (Placed(8, "0", "a1"), Placed(13, "0", "a3"))  # income 2 + 1
    other = min(space + 3, 53)
    s = make(
        circle=(0, 1, 2), positions=(space - 1, other), top_seat=1, buttons=(10, 5),
        quilts=(quilt, ()), leather_spaces=(),
    )
    after = apply(s, 0, Buy(1, "0", "h5"))  # 1x2: cost 2, time 1 -> onto the space
    assert after.positions[0] == space
    assert after.buttons[0] == 10 - 2 + 3
    assert "income" in kinds(after)
    # moving past it (not onto) pays as well
    s2 = replace(s, positions=(space - 2, other))
    after2 = apply(s2, 0, Buy(2, "0", "h5"))  # patch 1: cost 1, time 3 -> past the space
    assert after2.positions[0] == min(space + 1, 53)
    assert after2.buttons[0] == 10 - 1 + 3


def test_income_not_paid_when_stopping_short():
    quilt = (Placed(8, "0", "a1"),)
    s = make(circle=(0, 1, 2), positions=(3, 9), top_seat=1, buttons=(10, 5), quilts=(quilt, ()))
    s = apply(s, 0, Buy(1, "0", "h5"))  # 3 -> 4
    assert s.buttons[0] == 8 and "income" not in kinds(s)


def test_one_pass_over_two_income_spaces_pays_twice():
    quilt = (Placed(8, "0", "a1"),)  # income 2
    s = make(positions=(4, 16), top_seat=1, buttons=(0, 5), quilts=(quilt, ()), leather_spaces=())
    s = apply(s, 0, Pass())  # 4 -> 17: crosses 5, 11 and 17
    assert s.positions[0] == 17
    assert s.buttons[0] == 13 + 3 * 2
    assert kinds(s).count("income") == 3


# --- leather patches ------------------------------------------------------------------------------


def test_leather_patch_must_be_placed_at_once():
    s = make(circle=(0, 1, 2), positions=(19, 30), top_seat=1, buttons=(10, 5))
    s = apply(s, 0, Buy(1, "0", "a1"))  # 19 -> 20: the leather space
    assert s.positions[0] == 20
    assert s.leather_spaces == (26, 32, 44, 50)
    assert s.pending_seat == 0 and s.pending_leather == 1
    assert current_seat(s) == 0 and turn_reason(s) == TURN_LEATHER
    moves = legal_moves(s, 0)
    assert moves == [Place(sq) for sq in SQUARES if sq not in ("a1", "b1")]
    with pytest.raises(WrongPhase, match="^patchwork.place_first$") as err:
        apply(s, 0, Pass())
    assert err.value.values == {"count": 1}
    with pytest.raises(WrongPhase):
        apply(s, 0, Buy(1, "0", "c3"))
    with pytest.raises(BadPlacement, match="^patchwork.filled$") as err:
        apply(s, 0, Place("b1"))
    assert err.value.values == {"square": "b1"}
    with pytest.raises(NotYourTurn, match="^patchwork.not_your_turn$") as err:
        apply(s, 1, Pass())
    assert err.value.values == {"why": TURN_LEATHER}
    s = apply(s, 0, Place("e5"))
    assert s.quilts[0][-1] == Placed(LEATHER_ID, "0", "e5")
    assert s.pending_seat is None and current_seat(s) == 0 and turn_reason(s) == TURN_BEHIND
    assert kinds(s) == ["place", "again"]


def test_two_leather_patches_in_one_pass_and_the_second_player_gets_none():
    s = make(positions=(19, 30), top_seat=1, buttons=(5, 5))
    s = apply(s, 0, Pass())  # 19 -> 31 over 20 and 26
    assert s.positions == (31, 30)
    assert kinds(s) == ["pass", "income", "income", "leather", "leather"]  # income 23, 29
    assert s.pending_leather == 2 and s.leather_spaces == (32, 44, 50)
    s = apply(s, 0, Place("a1"))
    assert s.pending_leather == 1 and current_seat(s) == 0
    s = apply(s, 0, Place("a2"))
    assert s.pending_seat is None and current_seat(s) == 1
    assert [p.patch for p in s.quilts[0]] == [LEATHER_ID, LEATHER_ID]
    # seat 1 later passes over 20/26 (already taken: nothing) - here from 30 to 32 takes 32
    s = apply(s, 1, Pass())
    assert s.positions == (31, 32)
    assert s.pending_seat == 1 and s.leather_spaces == (44, 50)
    s = apply(s, 1, Place("i9"))
    assert current_seat(s) == 0
    s = replace(s, positions=(15, 32), quilts=((), ()), leather_spaces=(44, 50))
    s = apply(s, 0, Pass())  # over 20 and 26, both gone
    assert "leather" not in kinds(s) and s.pending_seat is None


def test_leather_on_a_full_quilt_is_set_aside():
    full = leathers(*SQUARES)
    s = make(positions=(19, 22), top_seat=1, buttons=(5, 5), quilts=(full, ()))
    s = apply(s, 0, Pass())
    assert kinds(s) == ["pass", "income", "leather", "lost"]
    assert s.pending_seat is None and 20 not in s.leather_spaces


# --- the 7x7 bonus --------------------------------------------------------------------------------


def _seven_minus(missing):
    return leathers(*[SQUARES[i] for i in bits(SEVEN_SQUARES[0]) if SQUARES[i] not in missing])


def test_bonus_goes_to_the_first_to_fill_a_7x7_square_only():
    s = make(
        circle=(0, 1, 2, 3), positions=(10, 12), top_seat=1, buttons=(10, 10),
        quilts=(_seven_minus({"f7", "g7"}), _seven_minus({"f7", "g7"})), leather_spaces=(),
    )
    s = apply(s, 0, Buy(1, "0", "f7"))  # the 1x2 fills f7 g7
    assert s.bonus_seat == 0 and "bonus" in kinds(s)
    assert s.score(0) == 8 + 7 - 2 * (81 - 49)
    s = replace(s, positions=(13, 12))
    s = apply(s, 1, Buy(3, "0", "f7"))  # patch 3 is 1x3: f7..h7 fills seat 1's 7x7 too
    assert s.bonus_seat == 0 and "bonus" not in kinds(s)


def test_bonus_by_a_leather_patch_and_any_7x7_square():
    cells = [SQUARES[i] for i in bits(SEVEN_SQUARES[-1]) if SQUARES[i] != "e5"]  # c3..i9
    s = make(positions=(19, 30), top_seat=1, buttons=(5, 5), quilts=(leathers(*cells), ()))
    s = apply(s, 0, Pass())
    s = apply(s, 0, Place("a1"))
    assert s.bonus_seat is None
    s = apply(s, 0, Place("e5"))
    assert s.bonus_seat == 0 and "bonus" in kinds(s)


# --- the end ---------------------------------------------------------------------------------------


def test_token_stops_on_the_final_space_with_final_income():
    quilt = (Placed(8, "0", "a1"),)  # income 2
    s = make(circle=(32, 0, 1), positions=(50, 53), top_seat=1, buttons=(10, 3), quilts=(quilt, ()),
             finished=(1,), leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "e5"))  # patch 32: cost 8, time 6, income 3 -> would reach 56
    assert s.positions == (53, 53)
    assert s.buttons[0] == 10 - 8 + (2 + 3)  # one final income, with the new patch
    assert kinds(s) == ["buy", "income", "finish", "end"]
    assert s.finished == (1, 0) and s.over
    assert current_seat(s) is None and turn_reason(s) is None
    assert legal_moves(s, 0) == [] and legal_moves(s, 1) == []
    with pytest.raises(GameOver):
        apply(s, 1, Pass())
    with pytest.raises(GameOver):
        resign(s, 0)


def test_first_to_finish_waits_for_the_other():
    s = make(positions=(40, 52), top_seat=1, buttons=(5, 5), leather_spaces=())
    s = apply(s, 0, Pass())  # 40 -> 53
    assert s.positions == (53, 52) and s.finished == (0,)
    assert not s.over and current_seat(s) == 1
    s = apply(s, 1, Pass())
    assert s.over and s.finished == (0, 1)


def test_scoring_and_breakdown():
    q0 = (Placed(8, "0", "a1"), Placed(13, "0", "a3"))  # 9 squares
    s = make(positions=(53, 53), finished=(1, 0), buttons=(30, 12), quilts=(q0, leathers("a1")), bonus_seat=1)
    assert s.over
    out = outcome(s)
    assert out.scores == (30 - 2 * 72, 12 + 7 - 2 * 80)
    assert out.winners == (0,) and out.reason == HIGHEST_SCORE and not out.draw
    assert out.details["buttons"] == [30, 12]
    assert out.details["bonus"] == [0, 7]
    assert out.details["empty_squares"] == [72, 80]
    assert out.details["empty_penalty"] == [-144, -160]
    assert outcome(make()) is None


def test_tie_break_first_to_reach_the_final_space():
    s = make(positions=(53, 53), finished=(1, 0), buttons=(20, 20))
    out = outcome(s)
    assert out.scores == (20 - 162, 20 - 162)
    assert out.winners == (1,) and out.details["tie_break"] is True and not out.draw
    assert out.reason == TIE_BREAK
    assert outcome(replace(s, finished=(0, 1))).winners == (0,)


def test_end_event_names_the_winner():
    s = make(positions=(52, 53), top_seat=1, finished=(1,), buttons=(5, 6), leather_spaces=())
    s = apply(s, 0, Pass())  # +1 button: 6 each, a tie
    end = s.events[-1]
    assert end.kind == "end" and end.seat == 1  # same score; seat 1 finished first
    assert end.values == {"scores": [6 - 162, 6 - 162], "tie_break": True}


def test_resign():
    s = new_game(2, seed=2)
    other = 1 - s.start_seat
    r = resign(s, other)  # any time, even out of turn
    assert r.over and current_seat(r) is None
    out = outcome(r)
    assert out.winners == (s.start_seat,) and out.reason == RESIGNED
    assert [e.kind for e in r.events] == ["resign"]
    assert r.events[0].seat == other and r.events[0].values == {"winner": s.start_seat}
    with pytest.raises(GameOver):
        apply(r, s.start_seat, Pass())


def test_unknown_seat_and_bad_move_objects():
    s = new_game(2, seed=2)
    with pytest.raises(NotYourTurn):
        apply(s, 5, Pass())
    with pytest.raises(BadNotation):
        Buy(4, "0", "a1")
    with pytest.raises(BadNotation):
        Buy(1, "45", "a1")
    with pytest.raises(BadNotation):
        Place("j1")
