"""Reversi engine: move generation, flips, passes, the end, errors and serialisation."""

import json
import random

import pytest

import games.reversi as reversi
from games.common import BadNotation, Event, GameOver, IllegalMove, NotYourTurn
from games.reversi import bitboard, engine


@pytest.mark.parametrize(
    "depth, nodes",
    [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092), (8, 390216)],
)
def test_perft_from_the_start(depth, nodes):
    assert bitboard.perft(engine.START_BLACK, engine.START_WHITE, depth) == nodes


def test_perft_counts_a_forced_pass_as_a_ply_and_a_finished_game_as_a_leaf():
    # Black to move with no move; white can still move: one ply passes the turn.
    state = reversi.position(
        """
        WWWWWWWW
        WWWWWWWW
        WWWWWWWW
        WWWWWWWW
        WWWWWWWW
        WWWWWWWW
        WWWWWWB.
        WWWWWW..
        """
    )
    white, black = state.white, state.black
    assert bitboard.legal_squares(black, white) == 0
    assert bitboard.legal_squares(white, black) != 0
    assert bitboard.perft(black, white, 1) == 1
    assert bitboard.perft(black, white, 2) == bitboard.legal_squares(white, black).bit_count()
    full = (1 << 64) - 1
    assert bitboard.perft(full, 0, 5) == 1


def test_black_first_moves_and_colours_drawn_from_the_seed():
    seats = {reversi.new_game(2, seed=seed).black_seat for seed in range(20)}
    assert seats == {0, 1}
    state = reversi.new_game(2, seed=7)
    assert reversi.current_seat(state) == state.black_seat
    assert [str(m) for m in reversi.legal_moves(state, state.black_seat)] == ["d3", "c4", "f5", "e6"]
    assert reversi.legal_moves(state, 1 - state.black_seat) == []
    assert reversi.new_game(2, seed=7) == state


def test_square_notation():
    assert reversi.Move.parse("a1").square == 0
    assert reversi.Move.parse(" H8 ").square == 63
    assert str(reversi.Move.parse("d3")) == "d3"
    with pytest.raises(BadNotation) as off:
        reversi.Move.parse(" i9 ")
    assert off.value.key == "reversi.off_board" and off.value.values == {"text": "i9"}
    with pytest.raises(BadNotation) as unread:
        reversi.Move.parse("hello")
    assert unread.value.key == "reversi.not_a_square" and unread.value.values == {"text": "hello"}


def test_a_move_flips_in_all_eight_directions():
    state = reversi.position(
        """
        ........
        .B.B.B..
        ..WWW...
        .BW.WB..
        ..WWW...
        .B.B.B..
        ........
        ........
        """
    )
    after = reversi.apply(state, state.black_seat, reversi.Move.parse("d4"))
    assert after.white == 0
    assert after.black.bit_count() == 8 + 8 + 1
    assert after.events[0].kind == "move" and after.events[0].text == ""
    assert after.events[0].values == {"colour": "black", "square": "d4", "flipped": 8}


def test_no_jumping_over_own_discs():
    # From a1 east: W B W W B — only the first white disc is outflanked; the line ends at b1.
    state = reversi.position(
        """
        .WBWWB..
        ........
        ........
        ........
        ........
        ........
        ........
        .......W
        """
    )
    after = reversi.apply(state, state.black_seat, reversi.Move.parse("a1"))
    view = reversi.view(after)
    assert view.cells[:8] == "BBBWWB.."


def test_only_lines_from_the_placed_disc_flip():
    state = reversi.position(
        """
        ........
        ........
        ..BWB...
        ..W.....
        ..B.....
        ........
        ........
        .....WB.
        """
    )
    assert reversi.current_seat(state) == state.black_seat
    # d4 outflanks nothing in a straight line although W discs sit between black ones nearby.
    with pytest.raises(IllegalMove) as caught:
        reversi.apply(state, state.black_seat, reversi.Move.parse("d4"))
    assert caught.value.key == "reversi.no_flip"


def test_illegal_moves_say_why():
    state = reversi.new_game(2, seed=3)
    black = state.black_seat
    with pytest.raises(IllegalMove) as taken:
        reversi.apply(state, black, reversi.Move.parse("d4"))
    assert taken.value.key == "reversi.occupied"
    assert taken.value.values == {"square": "d4", "colour": "white"}
    with pytest.raises(IllegalMove) as no_flip:
        reversi.apply(state, black, reversi.Move.parse("a1"))
    assert no_flip.value.key == "reversi.no_flip"
    assert no_flip.value.values == {"square": "a1", "colour": "white",
                                    "legal": ["d3", "c4", "f5", "e6"]}
    with pytest.raises(NotYourTurn) as early:
        reversi.apply(state, 1 - black, reversi.Move.parse("d3"))
    assert early.value.key == "reversi.not_your_turn" and early.value.values == {"colour": "white"}


def test_forced_pass_is_applied_and_reported():
    # White plays g8; black then has no legal move while white still has: black passes.
    state = reversi.position(
        """
        WBBB.B..
        WBBBBBBB
        WWWBBWWB
        WWWBWBWB
        WBWBBWBB
        BBBWBWWB
        ..BBBBBW
        ..W.BW.B
        """,
        black_seat=0,
        to_move=reversi.WHITE,
    )
    after = reversi.apply(state, 1, reversi.Move.parse("g8"))
    assert reversi.current_seat(after) == 1
    assert [e.kind for e in after.events] == ["move", "pass"]
    assert after.events[1].seat == 0 and after.events[1].values == {}
    assert reversi.legal_moves(after, 0) == []
    assert reversi.legal_moves(after, 1)


def test_game_ends_before_the_board_is_full_when_nobody_can_move():
    # Black takes the last white disc: the board still has empty squares but no moves remain.
    state = reversi.position(
        """
        ........
        ........
        ........
        ...BW...
        ........
        ........
        ........
        ........
        """,
        black_seat=1,
    )
    after = reversi.apply(state, 1, reversi.Move.parse("f4"))
    assert reversi.current_seat(after) is None
    result = reversi.outcome(after)
    assert result.scores == (0, 3)
    assert result.winners == (1,)
    assert result.reason == engine.NO_MOVES
    assert after.events[-1].kind == "end"
    assert after.events[-1].values == {"reason": engine.NO_MOVES, "black": 3, "white": 0,
                                       "winner": 1, "colour": "black"}
    assert reversi.legal_moves(after, 0) == reversi.legal_moves(after, 1) == []
    with pytest.raises(GameOver) as over:
        reversi.apply(after, 0, reversi.Move.parse("a1"))
    assert over.value.key == "reversi.over"


def test_equal_counts_draw():
    # White fills the last square flipping one disc: 32 each, the board is full.
    rows = ["BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "WWWWWWWW",
            "WWWWWWWW", "WWWWWWWW", "WWWWWWB."]
    state = reversi.position("\n".join(rows), black_seat=0, to_move=reversi.WHITE)
    after = reversi.apply(state, 1, reversi.Move.parse("h8"))
    result = reversi.outcome(after)
    assert result.draw and result.scores == (32, 32) and result.winners == (0, 1)
    assert result.reason == engine.BOARD_FULL
    assert after.events[-1].values == {"reason": engine.BOARD_FULL, "black": 32, "white": 32,
                                       "winner": None, "colour": None}


def test_resign_ends_the_game_for_the_other_seat():
    state = reversi.new_game(2, seed=1)
    after = reversi.resign(state, 0)
    result = reversi.outcome(after)
    assert result.winners == (1,) and result.reason == engine.RESIGNED
    assert after.events == (Event("resign", seat=0),)
    assert reversi.current_seat(after) is None


def test_random_games_keep_64_squares_and_round_trip_json():
    for seed in range(12):
        rng = random.Random(seed)
        state = reversi.new_game(2, seed=seed)
        while reversi.current_seat(state) is not None:
            seat = reversi.current_seat(state)
            moves = reversi.legal_moves(state, seat)
            assert moves
            state = reversi.apply(state, seat, rng.choice(moves))
            assert state.black & state.white == 0
            copy = reversi.State.from_dict(json.loads(json.dumps(state.to_dict())))
            assert copy == state
            assert reversi.parse_move(str(moves[0])) == moves[0]
        result = reversi.outcome(state)
        view = reversi.view(state)
        assert sum(result.scores) == view.black_count + view.white_count <= 64
        assert view.cells.count(".") == 64 - sum(result.scores)


def test_only_ascii_digits_name_a_row():
    with pytest.raises(BadNotation):
        reversi.Move.parse("d\N{ARABIC-INDIC DIGIT THREE}")
    with pytest.raises(BadNotation):
        reversi.Move.parse("d\N{FULLWIDTH DIGIT THREE}")
