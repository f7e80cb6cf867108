"""Rule-by-rule audit of the Patchwork engine against shared/rules/patchwork.md and the rule
details of shared/reference/patchwork.json.

`test_patchwork_rules.py` covers most rules; this file adds the cases it leaves open
(the spool for every choice and with few patches left, the engine author's three rulings, the
end waiting for a leather placement, the set-up constants) and an independent re-implementation
of the whole turn logic that is compared with the engine over seeded random games.
"""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from games.common import IllegalMove
from games.patchwork import (
    LEATHER_ID,
    ORIENTATIONS,
    PATCHES,
    TURN_BEHIND,
    TURN_LEATHER,
    TURN_ON_TOP,
    Buy,
    NoSuchPatch,
    NotEnoughButtons,
    Pass,
    Place,
    Placed,
    State,
    WrongPhase,
    apply,
    current_seat,
    legal_moves,
    new_game,
    orientations,
    outcome,
    parse_move,
    turn_reason,
    view,
)
from games.patchwork.patches import SEVEN_SQUARES, SQUARES, bits, oriented_cells

REFERENCE = json.loads(
    (Path(__file__).resolve().parents[3] / "games" / "patchwork" / "data" / "patchwork.json").read_text()
)
END = REFERENCE["track_length"]
INCOME = tuple(REFERENCE["income_spaces"])
LEATHER = tuple(REFERENCE["leather_patch_spaces"])


def make(**fields):
    """A position built on a fresh game (seed 11), events cleared."""
    return replace(new_game(2, seed=11), events=(), **fields)


def kinds(state):
    return [e.kind for e in state.events]


def leathers(*squares):
    return tuple(Placed(LEATHER_ID, "0", sq) for sq in squares)


def round_trip(state):
    return State.from_dict(json.loads(json.dumps(state.to_dict())))


# --- set-up ---------------------------------------------------------------------------------------


def test_setup_constants_come_from_the_reference():
    assert END == 53 and INCOME == (5, 11, 17, 23, 29, 35, 41, 47, 53)
    assert LEATHER == (20, 26, 32, 44, 50) and len(LEATHER) == 5
    for seed in range(10):
        s = new_game(2, seed=seed)
        assert s.buttons == (REFERENCE["start_buttons"],) * 2 == (5, 5)
        assert s.positions == (0, 0)  # both time tokens on the first space
        assert s.leather_spaces == LEATHER  # a leather patch on each 1x1 space
        # spool directly clockwise of the 1x2: it is the last patch the spool reaches
        assert s.circle[-1] == REFERENCE["starting_patch_id"] and 0 not in s.offer
        # the start player's token is on top, so the start player moves first
        assert current_seat(s) == s.start_seat and turn_reason(s) == TURN_ON_TOP


# --- buying: the spool ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "choice, circle_after",
    [
        (1, (11, 12, 13, 14, 0)),  # bought 10: nothing skipped
        (2, (12, 13, 14, 0, 10)),  # bought 11: 10 is skipped and goes round to the end
        (3, (13, 14, 0, 10, 11)),  # bought 12: 10 and 11 go round
    ],
)
def test_spool_moves_to_the_bought_patch(choice, circle_after):
    s = make(circle=(10, 11, 12, 13, 14, 0), positions=(0, 0), top_seat=0, buttons=(20, 5))
    s = apply(s, 0, Buy(choice, "0", "a1"))
    assert s.circle == circle_after
    assert s.offer == circle_after[:3]  # always the next three clockwise of the spool
    assert s.quilts[0][0].patch == 9 + choice


def test_spool_with_fewer_than_three_patches_left():
    s = make(circle=(5, 0), positions=(0, 0), top_seat=0, buttons=(20, 5), leather_spaces=())
    assert s.offer == (5, 0)
    with pytest.raises(NoSuchPatch):
        apply(s, 0, Buy(3, "0", "a1"))
    s = apply(s, 0, Buy(2, "0", "a1"))  # the 1x2; patch 5 goes round and is alone
    assert s.circle == (5,) and s.offer == (5,)
    s = replace(s, positions=(0, 9))
    s = apply(s, 0, Buy(1, "0", "a5"))
    assert s.circle == () and s.offer == ()
    assert legal_moves(s, 0) == [Pass()]  # with nothing left to buy, passing is the only action


def test_the_spool_reaches_the_1x2_last_when_always_buying_patch_1():
    s = new_game(2, seed=3)
    bought = []
    while s.circle:
        # a fresh quilt, buttons and track each time, so only the circle carries over
        s = replace(s, quilts=((), ()), buttons=(99, 99), positions=(0, 0), top_seat=0, leather_spaces=())
        s = apply(s, 0, Buy(1, "0", "a1"))
        bought.append(s.quilts[0][0].patch)
    assert sorted(bought) == list(range(33)) and bought[-1] == 0


# --- buying: price, placement, time ----------------------------------------------------------------


def test_a_patch_costing_exactly_all_your_buttons_may_be_bought_but_not_one_more():
    s = make(circle=(13, 0, 1), positions=(0, 0), top_seat=0, buttons=(7, 5), leather_spaces=())
    after = apply(s, 0, Buy(1, "0", "a1"))  # patch 13 costs 7
    assert after.buttons[0] == 0 and after.positions[0] == 1  # time 1
    with pytest.raises(NotEnoughButtons):
        apply(replace(s, buttons=(6, 5)), 0, Buy(1, "0", "a1"))
    assert all(m.choice != 1 for m in legal_moves(replace(s, buttons=(6, 5)), 0) if isinstance(m, Buy))


def test_a_zero_cost_patch_is_free():
    s = make(circle=(7, 0, 1), positions=(0, 0), top_seat=0, buttons=(0, 5), leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "a1"))  # patch 7: 0 buttons, 3 time
    assert s.buttons[0] == 0 and s.positions[0] == 3


# --- ruling: "a purchase may use any of the 8 orientation names" -------------------------------------


@pytest.mark.parametrize("pid", [p.id for p in PATCHES])
def test_every_patch_accepts_all_eight_orientation_names(pid):
    for name in ORIENTATIONS:
        s = make(circle=(pid, 1, 2), positions=(0, 0), top_seat=0, buttons=(20, 5), leather_spaces=())
        move = parse_move(f"buy 1 {name} c3")
        assert move.orientation == name
        s = apply(s, 0, move)
        placed = view(s, 0).players[0].quilt.patches[0]
        assert set(placed.cells) == {(2 + r, 2 + c) for r, c in oriented_cells(pid, name)}
        assert round_trip(s) == s
    # every name is one of the distinct orientations legal_moves lists
    shapes = {oriented_cells(pid, n) for n in ORIENTATIONS}
    assert shapes == {oriented_cells(pid, n) for n in orientations(pid)}


def test_non_canonical_name_for_a_symmetric_patch():
    # patch 8 is the 2x2 square: all 8 names are the same shape
    s = make(circle=(8, 0, 1), positions=(0, 0), top_seat=0, buttons=(20, 5), leather_spaces=())
    a = apply(s, 0, Buy(1, "270 mirrored", "h8"))
    b = apply(s, 0, Buy(1, "0", "h8"))
    assert a.quilt_mask(0) == b.quilt_mask(0) and a.income(0) == b.income(0) == 2
    assert str(Buy(1, "270 mirrored", "h8")) == "buy 1 270m h8"


# --- passing ----------------------------------------------------------------------------------------


def test_pass_from_behind_and_the_other_then_moves():
    s = make(positions=(6, 9), top_seat=1, buttons=(1, 5), leather_spaces=())
    s = apply(s, 0, Pass())
    assert s.positions == (10, 9) and s.buttons == (1 + 4, 5)
    assert current_seat(s) == 1 and turn_reason(s) == TURN_BEHIND


# --- turn order ---------------------------------------------------------------------------------------


def test_behind_player_keeps_moving_after_the_other_finished():
    s = make(circle=(0, 1, 2), positions=(40, 53), top_seat=1, finished=(1,), buttons=(20, 5),
             leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "a1"))
    assert current_seat(s) == 0 and turn_reason(s) == TURN_BEHIND
    s = apply(s, 0, Buy(2, "0", "a2"))
    assert current_seat(s) == 0 and not s.over


def test_same_space_turn_goes_to_the_last_arrival_for_either_seat():
    for mover in (0, 1):
        positions = (3, 5) if mover == 0 else (5, 3)
        s = make(circle=(3, 0, 1), positions=positions, top_seat=1 - mover, buttons=(10, 10),
                 leather_spaces=())
        s = apply(s, mover, Buy(1, "0", "a1"))  # patch 3: 2 time, lands on the other token
        assert s.positions == (5, 5) and s.top_seat == mover
        assert current_seat(s) == mover and turn_reason(s) == TURN_ON_TOP


# --- income -------------------------------------------------------------------------------------------


def test_income_counts_every_button_on_the_quilt_and_ignores_leather():
    quilt = (Placed(8, "0", "a1"), Placed(24, "0", "a3"), *leathers("i9", "h9"))  # 2 + 3
    s = make(positions=(4, 5), top_seat=1, buttons=(0, 0), quilts=(quilt, ()), leather_spaces=())
    s = apply(s, 0, Pass())  # 4 -> 6 over income space 5
    assert s.buttons[0] == 2 + 5


# --- ruling: "the final space 53 is one of the income spaces, so reaching it pays the final income once"


def test_final_income_is_paid_once_when_landing_exactly_on_the_final_space():
    quilt = (Placed(8, "0", "a1"),)  # income 2
    s = make(circle=(0, 1, 2), positions=(52, 53), top_seat=1, finished=(1,), buttons=(10, 3),
             quilts=(quilt, ()), leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "h9"))  # 1x2: time 1, 52 -> 53
    assert s.positions[0] == 53
    assert s.buttons[0] == 10 - 2 + 2  # one final income, not a separate one on top of space 53
    assert kinds(s).count("income") == 1


def test_final_income_paid_to_both_players_and_to_the_first_finisher_too():
    q = (Placed(8, "0", "a1"),)  # income 2
    s = make(positions=(47, 48), top_seat=1, buttons=(0, 0), quilts=(q, q), leather_spaces=())
    s = apply(s, 0, Pass())  # 47 -> 49: no income space crossed
    assert s.buttons[0] == 2
    s = apply(s, 1, Pass())  # 48 -> 50
    s = apply(s, 0, Pass())  # 49 -> 51
    s = apply(s, 1, Pass())  # 50 -> 52
    s = apply(s, 0, Pass())  # 51 -> 53: 2 spaces + final income 2
    assert s.positions == (53, 52) and s.buttons[0] == 2 + 2 + 2 + 2 and s.finished == (0,)
    s = apply(s, 1, Pass())  # 52 -> 53: 1 space + final income 2
    assert s.buttons[1] == 2 + 2 + 1 + 2
    assert s.over and s.finished == (0, 1)


def test_time_past_the_end_is_lost_and_income_is_not_paid_twice():
    quilt = (Placed(8, "0", "a1"),)  # income 2
    s = make(circle=(18, 0, 1), positions=(48, 53), top_seat=1, finished=(1,), buttons=(10, 0),
             quilts=(quilt, ()), leather_spaces=())
    s = apply(s, 0, Buy(1, "0", "e5"))  # patch 18: cost 4, time 6, income 2 -> 54, stops at 53
    assert s.positions[0] == 53
    assert s.buttons[0] == 10 - 4 + (2 + 2)
    assert kinds(s).count("income") == 1


# --- leather patches ------------------------------------------------------------------------------------


def test_leather_taken_on_landing_and_on_passing_and_only_by_the_first():
    s = make(circle=(0, 1, 2), positions=(24, 40), top_seat=1, buttons=(10, 5), leather_spaces=(26, 32))
    landed = apply(s, 0, Buy(2, "0", "a1"))  # patch 1: time 3, 24 -> 27 passes 26
    assert landed.pending_seat == 0 and landed.leather_spaces == (32,)
    onto = apply(replace(s, positions=(25, 40)), 0, Buy(1, "0", "a1"))  # 25 -> 26 lands on it
    assert onto.pending_seat == 0 and onto.leather_spaces == (32,)
    # the second player to get there takes nothing
    later = replace(landed, positions=(27, 25), pending_seat=None, pending_leather=0, top_seat=0)
    later = apply(later, 1, Pass())  # 25 -> 28 over 26
    assert later.pending_seat is None and "leather" not in kinds(later)


def test_leather_patch_blocks_the_other_player_even_if_behind():
    s = make(circle=(16, 0, 1), positions=(16, 18), top_seat=1, buttons=(10, 5))
    s = apply(s, 0, Buy(1, "0", "a1"))  # patch 16: time 6, 16 -> 22 over 20: now ahead
    assert s.positions == (22, 18) and s.pending_seat == 0
    assert current_seat(s) == 0 and turn_reason(s) == TURN_LEATHER  # placed at once
    assert legal_moves(s, 1) == []
    s = apply(s, 0, Place("i9"))
    assert current_seat(s) == 1


# --- ruling: "if a leather patch is earned when the quilt is already full, it is set aside" -----------------


def test_second_leather_is_set_aside_when_the_first_fills_the_quilt():
    full_but_one = leathers(*[sq for sq in SQUARES if sq != "e5"])
    s = make(positions=(19, 30), top_seat=1, buttons=(5, 5), quilts=(full_but_one, ()))
    s = apply(s, 0, Pass())  # over 20 and 26: two leather patches earned
    assert s.pending_leather == 2
    assert legal_moves(s, 0) == [Place("e5")]
    s = apply(s, 0, Place("e5"))
    assert kinds(s) == ["place", "bonus", "lost"]  # a full quilt holds a 7x7 too
    assert s.pending_seat is None and s.pending_leather == 0
    assert s.empty_squares(0) == 0 and s.leather_spaces == (32, 44, 50)
    assert current_seat(s) == 1
    assert round_trip(s) == s


def test_leather_set_aside_on_the_move_that_ends_the_game():
    full = leathers(*SQUARES)
    s = make(positions=(49, 53), top_seat=1, finished=(1,), buttons=(5, 5), quilts=(full, ()),
             leather_spaces=(50,))
    s = apply(s, 0, Pass())  # 49 -> 53 over 50
    assert kinds(s) == ["pass", "income", "leather", "finish", "lost", "end"]
    assert s.over and outcome(s).scores[0] == 5 + 4 - 0


# --- end: the game waits for the last leather patch ----------------------------------------------------------


def test_game_is_not_over_until_the_last_leather_patch_is_placed():
    s = make(positions=(49, 53), top_seat=1, finished=(1,), buttons=(5, 5), leather_spaces=(50,))
    s = apply(s, 0, Pass())  # 49 -> 53 over 50: both tokens on the final space
    assert s.positions == (53, 53) and s.finished == (1, 0)
    assert not s.over and current_seat(s) == 0 and turn_reason(s) == TURN_LEATHER
    assert outcome(s) is None
    with pytest.raises(WrongPhase):
        apply(s, 0, Pass())
    before = s.score(0)
    s = apply(s, 0, Place("a1"))
    assert s.over and kinds(s) == ["place", "end"]
    assert outcome(s).scores[0] == before + 2  # the leather patch covers one empty square


# --- the 7x7 bonus ------------------------------------------------------------------------------------------


def test_bonus_in_every_7x7_position():
    for i, square in enumerate(SEVEN_SQUARES):
        cells = [SQUARES[b] for b in bits(square)]
        s = make(positions=(19, 30), top_seat=1, buttons=(5, 5), quilts=(leathers(*cells[1:]), ()),
                 leather_spaces=(20,))
        s = apply(s, 0, Pass())
        s = apply(s, 0, Place(cells[0]))
        assert s.bonus_seat == 0, i
        assert s.score(0) == s.buttons[0] + 7 - 2 * (81 - 49)


def test_a_7x7_that_is_not_a_square_does_not_count():
    # rows 1-7 of columns a-f plus column h: 49 squares, but no complete 7x7
    cells = [sq for sq in SQUARES if sq[0] in "abcdefh" and int(sq[1]) <= 7]
    assert len(cells) == 49
    s = make(positions=(19, 30), top_seat=1, buttons=(5, 5), quilts=(leathers(*cells[1:]), ()),
             leather_spaces=(20,))
    s = apply(apply(s, 0, Pass()), 0, Place(cells[0]))
    assert s.bonus_seat is None


# --- scoring and tie-break ----------------------------------------------------------------------------------


def test_score_formula_uses_the_reference_constants():
    s = make(positions=(53, 53), finished=(0, 1), buttons=(3, 40), quilts=(leathers("a1", "b1"), ()),
             bonus_seat=0)
    out = outcome(s)
    penalty, bonus = REFERENCE["empty_square_penalty"], REFERENCE["bonus_7x7"]
    assert out.scores == (3 + bonus - penalty * 79, 40 - penalty * 81)
    assert out.scores == (3 + 7 - 158, 40 - 162)
    assert out.winners == (1,)  # -122 beats -148: scores can be negative


def test_tie_on_score_goes_to_the_first_to_the_final_space_even_with_other_differences():
    # equal scores reached differently: seat 0 has more buttons, seat 1 has the bonus
    s = make(positions=(53, 53), finished=(1, 0), buttons=(17, 10), bonus_seat=1)
    out = outcome(s)
    assert out.scores[0] == out.scores[1]
    assert out.winners == (1,) and out.details["tie_break"]


# --- an independent re-implementation, compared over seeded random games ---------------------------------------


def reference_step(r, seat, move):
    """The rules text applied to a plain dict (circle, pos, buttons, top, leather, pending, ...)."""
    r = json.loads(json.dumps(r))
    other = 1 - seat
    if isinstance(move, Place):
        r["filled"][seat] += 1
        r["pending"] -= 1
    else:
        start = r["pos"][seat]
        if isinstance(move, Buy):
            k = move.choice
            p = PATCHES[r["circle"][k - 1]]
            r["buttons"][seat] -= p.cost
            r["income"][seat] += p.income
            r["filled"][seat] += len(p.cells)
            r["circle"] = r["circle"][k:] + r["circle"][: k - 1]
            end = min(start + p.time, END)
        else:
            end = min(r["pos"][other] + 1, END)
            r["buttons"][seat] += end - start
        r["buttons"][seat] += r["income"][seat] * sum(1 for x in INCOME if start < x <= end)
        taken = [x for x in r["leather"] if start < x <= end]
        r["leather"] = [x for x in r["leather"] if x not in taken]
        r["pending"] = len(taken)
        r["pos"][seat] = end
        r["top"] = seat
        if end == END and seat not in r["finished"]:
            r["finished"].append(seat)
    if r["filled"][seat] == 81:
        r["pending"] = 0  # set aside
    return r


def reference_turn(r):
    if r["pending"]:
        return r["pending_seat"]
    if r["pos"][0] == r["pos"][1] == END:
        return None
    if r["pos"][0] != r["pos"][1]:
        return 0 if r["pos"][0] < r["pos"][1] else 1
    return r["top"]


@pytest.mark.parametrize("seed", range(6))
def test_engine_matches_an_independent_reference_over_random_games(seed):
    rng = random.Random(1000 + seed)
    s = new_game(2, seed=seed)
    r = {"circle": list(s.circle), "pos": [0, 0], "buttons": [5, 5], "income": [0, 0], "filled": [0, 0],
         "top": s.start_seat, "leather": list(LEATHER), "pending": 0, "pending_seat": None, "finished": []}
    while True:
        seat = reference_turn(r)
        assert current_seat(s) == seat
        if seat is None:
            break
        moves = legal_moves(s, seat)
        buys = [m for m in moves if isinstance(m, Buy)]
        move = rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves)
        r = reference_step(r, seat, move)
        r["pending_seat"] = seat if r["pending"] else None
        s = round_trip(apply(s, seat, move))
        assert list(s.circle) == r["circle"]
        assert list(s.positions) == r["pos"] and list(s.buttons) == r["buttons"]
        assert [s.income(0), s.income(1)] == r["income"]
        assert [81 - s.empty_squares(0), 81 - s.empty_squares(1)] == r["filled"]
        assert list(s.leather_spaces) == r["leather"] and s.pending_leather == r["pending"]
        assert list(s.finished) == r["finished"]
        if s.positions[0] == s.positions[1]:
            assert s.top_seat == r["top"]
    out = outcome(s)
    scores = [r["buttons"][i] + (7 if s.bonus_seat == i else 0) - 2 * (81 - r["filled"][i]) for i in (0, 1)]
    assert list(out.scores) == scores
    expected = r["finished"][0] if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    assert out.winners == (expected,)


def test_illegal_actions_never_change_the_state():
    s = make(circle=(13, 8, 0), positions=(0, 0), top_seat=0, buttons=(4, 5))
    before = s.to_dict()
    for move in (Buy(1, "0", "a1"), Buy(2, "0", "i9"), Place("a1")):
        with pytest.raises(IllegalMove):
            apply(s, 0, move)
    assert s.to_dict() == before


def test_buying_from_an_empty_circle_says_to_pass():
    from dataclasses import replace

    import games.patchwork as pw

    state = pw.new_game(2, seed=1)
    empty = replace(state, circle=())
    seat = pw.current_seat(empty)
    with pytest.raises(pw.NoSuchPatch, match="^patchwork.none_left$"):
        pw.apply(empty, seat, pw.Buy(1, "0", "a1"))
