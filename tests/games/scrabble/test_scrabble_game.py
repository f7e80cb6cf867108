"""Scrabble games: set-up and turn order, exchanges, passes, challenges in both modes, every
way a game ends, the 9-tile and finish-line variants, views and move generation."""

from __future__ import annotations

import json

import pytest

from games.common import IllegalMove, NotYourTurn
from games.scrabble import (
    FINISH_TARGETS,
    AnswerFinalPlay,
    BadOption,
    Board,
    CannotChallenge,
    CannotExchange,
    Challenge,
    Exchange,
    Lexicon,
    MissingTiles,
    Pass,
    Play,
    State,
    UnknownWord,
    apply,
    current_seat,
    evaluate,
    legal_moves,
    new_game,
    outcome,
    parse_move,
    position,
    resign,
    view,
)
from games.scrabble.scoring import unknown_words
from games.scrabble.tiles import FULL_SET, order_rank, sort_tiles

LEX = Lexicon(["QUIZ", "QI", "AT", "TA", "ZA", "AE", "EN", "NE", "TEN", "NET", "ANT", "TAN"])
EMPTY = "\n".join(["." * 15] * 15)
QUIZ = "\n".join(["." * 15] * 7 + [".......QUIZ...."] + ["." * 15] * 7)


def roundtrip(state: State) -> State:
    again = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    return again


def kinds(state: State) -> list[str]:
    return [event.kind for event in state.events]


def act(state: State, seat: int, text: str, lexicon: Lexicon = LEX) -> State:
    after = apply(state, seat, parse_move(text), lexicon=lexicon)
    assert after.tile_count() == state.tile_count()  # no tile made or lost
    return roundtrip(after)


# --- set-up ---------------------------------------------------------------------------------


def test_new_game_deals_from_the_seed():
    state = new_game(3, seed=42)
    assert state == new_game(3, seed=42)
    assert state != new_game(3, seed=43)
    assert [len(r) for r in state.racks] == [7, 7, 7]
    assert len(state.bag) == 100 - 21
    assert sort_tiles(state.bag + "".join(state.racks)) == sort_tiles(FULL_SET)
    assert state.turn == state.first == current_seat(state)
    assert kinds(state)[-1] == "order"
    assert all(k == "opening_draw" for k in kinds(state)[:-1])
    roundtrip(state)


def test_turn_order_from_the_opening_draw():
    ties = blanks = 0
    for seed in range(300):
        seats = 2 + seed % 3
        state = new_game(seats, seed=seed)
        rounds = state.opening
        assert [s for s, _ in rounds[0]] == list(range(seats))
        for earlier, later in zip(rounds, rounds[1:]):
            best = min(order_rank(t) for _, t in earlier)
            tied = [s for s, t in earlier if order_rank(t) == best]
            assert len(tied) > 1 and [s for s, _ in later] == tied
            ties += 1
        last = rounds[-1]
        best = min(order_rank(t) for _, t in last)
        assert [s for s, t in last if order_rank(t) == best] == [state.first]
        if any(t == "?" for _, t in last):
            blanks += 1
            assert dict(last)[state.first] == "?"
        assert len([e for e in state.events if e.kind == "opening_draw"]) == len(rounds)
        order = [(state.first + i) % seats for i in range(seats)]
        assert state.events[-1].kind == "order" and state.events[-1].seat == state.first
        assert state.events[-1].values == {"order": order}
        assert view(state, None).order == tuple(order)
    assert ties and blanks


def test_options():
    nine = new_game(2, seed=1, options={"tiles": 9})
    assert [len(r) for r in nine.racks] == [9, 9] and len(nine.bag) == 82
    assert new_game(2, seed=1, options={"finish": "beginner"}).finish == 70
    assert new_game(3, seed=1, options={"finish": "expert"}).finish == 180
    assert new_game(4, seed=1, options={"finish": 123}).finish == 123
    assert new_game(2, seed=1, options={"challenge": "void"}).challenge == "void"
    assert FINISH_TARGETS[2] == {"beginner": 70, "intermediate": 120, "expert": 200}
    assert FINISH_TARGETS[3] == {"beginner": 60, "intermediate": 100, "expert": 180}
    assert FINISH_TARGETS[4] == {"beginner": 50, "intermediate": 90, "expert": 160}
    for bad in ({"tiles": 8}, {"finish": -5}, {"finish": "legend"}, {"challenge": "single"},
                {"colour": "red"}):
        with pytest.raises(BadOption):
            new_game(2, seed=1, options=bad)
    with pytest.raises(ValueError):
        new_game(5, seed=1)


# --- views ----------------------------------------------------------------------------------


def test_views_hide_what_they_should():
    state = act(position(EMPTY, ["QUIZAAA", "EEEEEEE", "TTTTTTA"]), 0, "H8 across QUIZ")
    mine = view(state, 0)
    assert mine.rack == state.racks[0] and len(mine.rack) == 7
    assert mine.rack_sizes == (7, 7, 7)
    assert mine.unseen == sort_tiles(state.bag + state.racks[1] + state.racks[2])
    assert mine.pending.drawn == state.pending.drawn and len(mine.pending.drawn) == 4
    theirs = view(state, 1)
    assert theirs.rack == state.racks[1]
    assert theirs.pending.drawn == "" and theirs.last_play.drawn == ""
    assert theirs.pending.words == (("QUIZ", 44),) and theirs.can_challenge
    assert not mine.can_challenge
    public = view(state, None)
    assert public.rack is None and public.pending.drawn == ""
    assert len(public.unseen) == 96 and not public.can_challenge
    assert public.board == state.board.rows and public.bag == len(state.bag)
    assert public.scores == (44, 0, 0) and public.turn == 1
    assert public.last_play.squares == ("H8", "I8", "J8", "K8")


# --- exchanges and passes -------------------------------------------------------------------


def test_exchange():
    state = new_game(2, seed=7)
    seat = state.turn
    rack = state.racks[seat]
    after = act(state, seat, f"exchange {rack[:3]}")
    assert len(after.racks[seat]) == 7 and len(after.bag) == len(state.bag)
    assert after.turn == 1 - seat
    assert after.events[0].kind == "exchange"
    assert after.events[0].seat == seat and after.events[0].values == {"tiles": 3}
    missing = next(t for t in "QZXJK" if t not in rack)
    with pytest.raises(MissingTiles, match="^scrabble.no_tile$") as refused:
        apply(state, seat, Exchange(missing))
    assert refused.value.values == {"tile": missing, "exchange": True}


def test_exchange_needs_seven_in_the_bag():
    state = position(QUIZ, ["AEEIOUU", "TTTTTTA"], bag="ABCDEF" + "?")
    assert sort_tiles(act(state, 0, "exchange AE").bag) != ""
    state = position(QUIZ, ["AEEIOUU", "TTTTTTA"], bag="ABCDEF")
    with pytest.raises(CannotExchange, match="^scrabble.exchange_bag_low$") as refused:
        apply(state, 0, Exchange("AE"), lexicon=LEX)
    assert refused.value.values == {"need": 7, "bag": 6}


def test_every_player_passing_twice_ends_the_game():
    state = position(QUIZ, ["AEEIOUU", "TTTTTTA"])
    for seat in (0, 1, 0):
        state = act(state, seat, "pass")
        assert outcome(state) is None
    state = act(state, 1, "pass")
    result = outcome(state)
    assert result.reason == "passes"
    assert result.details["adjustments"] == [-7, -7]
    assert result.details["racks"] == ["AEEIOUU", "ATTTTTT"]
    assert result.scores == (-7, -7) and result.draw and result.winners == (0, 1)
    assert state.turn is None and current_seat(state) is None
    assert kinds(state) == ["pass", "end"]
    assert legal_moves(state, 0) == legal_moves(state, 1) == []


def test_exchange_breaks_a_run_of_passes():
    state = position(QUIZ, ["AEEIOUU", "TTTTTTA", "EEEEEEE"])
    for seat, move in [(0, "pass"), (1, "pass"), (2, "pass"), (0, "exchange A"),
                       (1, "pass"), (2, "pass"), (0, "pass")]:
        state = act(state, seat, move)
        assert outcome(state) is None
    state = act(state, 1, "pass")
    assert outcome(state) is None  # seat 0 has passed only once since its exchange
    state = act(state, 2, "pass")
    state = act(state, 0, "pass")
    assert outcome(state).reason == "passes"


# --- going out ------------------------------------------------------------------------------


def test_going_out_waits_for_a_challenge_then_ends():
    state = position(EMPTY, ["AT", "QV"], bag="")
    state = act(state, 0, "H8 across AT")
    assert outcome(state) is None and state.pending.ends == "out"
    assert state.turn == 1 and kinds(state) == ["play", "final_play"]
    assert legal_moves(state, 1) == [Pass(), Challenge()]
    with pytest.raises(AnswerFinalPlay, match="^scrabble.answer_final_play$"):
        apply(state, 1, Play.parse("H7 down QAT"), lexicon=LEX)
    with pytest.raises(NotYourTurn):
        apply(state, 0, Pass(), lexicon=LEX)
    state = act(state, 1, "pass")
    result = outcome(state)
    assert result.reason == "out" and result.details["seat"] == 0
    assert result.details["before"] == [4, 0]
    assert result.details["adjustments"] == [14, -14]
    assert result.details["went_out"] == 0
    assert result.scores == (18, -14) and result.winners == (0,)
    assert kinds(state) == ["accept", "end"]
    end = state.events[-1].values
    assert end["adjustments"] == [14, -14] and end["racks"] == ["", "QV"]
    assert end["final"] == [18, -14] and end["winners"] == [0] and end["player"] == 0


def test_going_out_in_void_mode_ends_at_once():
    state = position(EMPTY, ["AT", "QV"], bag="", options={"challenge": "void"})
    state = act(state, 0, "H8 across AT")
    assert outcome(state).scores == (18, -14)
    assert kinds(state) == ["play", "end"]


def test_going_out_challenged_off_and_upheld():
    state = position(EMPTY, ["AT", "QV"], bag="")
    phony = act(state, 0, "H8 across TA", lexicon=Lexicon(["AT"]))
    off = act(phony, 1, "challenge", lexicon=Lexicon(["AT"]))
    assert outcome(off) is None
    assert off.board == Board() and off.racks == ("AT", "QV") and off.scores == (0, 0)
    assert off.turn == 1 and kinds(off) == ["challenge", "withdrawn"]
    good = act(state, 0, "H8 across AT")
    upheld = act(good, 1, "challenge")
    assert kinds(upheld) == ["challenge", "challenge_failed", "end"]
    assert outcome(upheld).scores == (18, -14)


# --- no play possible -----------------------------------------------------------------------


def test_game_ends_when_no_play_is_possible():
    state = position(QUIZ, ["VVWW", "KJ"], bag="Y")
    state = act(state, 0, "pass")
    result = outcome(state)
    assert result.reason == "blocked"
    assert result.details["adjustments"] == [-16, -13]
    assert kinds(state) == ["pass", "end"]
    # It is not over while someone can still play, or while the bag allows an exchange.
    open_bag = position(QUIZ, ["VVWW", "KJ"])
    assert outcome(act(open_bag, 0, "pass")) is None
    playable = position(QUIZ, ["VVWW", "KJI"], bag="Y")
    assert outcome(act(playable, 0, "pass")) is None


# --- finish line ----------------------------------------------------------------------------


def test_finish_line_double_challenge():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"], options={"finish": 40})
    state = act(state, 0, "H8 across QUIZ")
    assert outcome(state) is None and state.pending.ends == "finish"
    state = act(state, 1, "pass")
    result = outcome(state)
    assert result.reason == "finish" and result.details["seat"] == 0
    assert result.details["target"] == 40
    assert result.winners == (0,) and result.scores == (44, 0)
    assert result.details["adjustments"] == [0, 0]


def test_finish_line_void_and_below_target():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"], options={"finish": 45, "challenge": "void"})
    state = act(state, 0, "H8 across QUIZ")
    assert outcome(state) is None and state.pending is None
    reached = position(EMPTY, ["QUIZAAA", "EEEEEEE"], options={"finish": 44, "challenge": "void"})
    assert outcome(act(reached, 0, "H8 across QUIZ")).winners == (0,)


def test_finish_line_play_challenged_off():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"], options={"finish": 40})
    state = act(state, 0, "H8 across QUIZ", lexicon=Lexicon(["QI"]))
    state = act(state, 1, "challenge", lexicon=Lexicon(["QI"]))
    assert outcome(state) is None and state.scores == (0, 0) and state.turn == 1


# --- tie-break, resign ----------------------------------------------------------------------


def test_tie_break_on_score_before_adjustments():
    state = position(QUIZ, ["E", "C"], bag="", scores=(10, 12))
    state = act(state, 0, "pass")  # nobody can play: the game ends
    result = outcome(state)
    assert result.scores == (9, 9) and result.winners == (1,) and not result.draw
    assert result.details["tiebreak"] and result.details["before"] == [10, 12]
    assert state.events[-1].values["tiebreak"]


def test_resign():
    state = position(QUIZ, ["E", "C"], scores=(50, 12))
    result = outcome(resign(state, 0))
    assert result.winners == (1,) and result.reason == "resigned"
    assert result.details["seat"] == 0
    assert kinds(resign(state, 1)) == ["resign", "end"]


def test_in_a_bigger_game_the_others_play_on_after_a_resignation():
    three = position(QUIZ, ["AEEIOUU", "TTTTTTA", "EEEEEEE"], scores=(50, 12, 30))
    state = roundtrip(resign(three, 0))  # seat 0 was to move
    assert outcome(state) is None and state.resigned == (0,)
    assert state.racks[0] == "" and state.tile_count() == 100
    assert sorted(state.bag) == sorted(three.bag + "AEEIOUU")
    assert state.turn == 1 and kinds(state) == ["resign"]
    assert state.events[0].values == {"goes_on": True, "tiles": 7}
    assert legal_moves(state, 0) == [] and view(state).resigned == (0,)
    with pytest.raises(NotYourTurn, match="^scrabble.resigned$"):
        apply(state, 0, Pass(), lexicon=LEX)
    with pytest.raises(NotYourTurn, match="^scrabble.resigned_already$"):
        resign(state, 0)
    state = act(state, 1, "pass")
    assert state.turn == 2
    state = act(state, 2, "pass")
    assert state.turn == 1  # seat 0 is skipped
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    result = outcome(state)
    assert result.reason == "passes"
    assert result.winners == (2,)  # seat 0 has the most points but resigned
    assert result.details["resigned_seats"] == [0]
    assert state.events[-1].values["resigned"] == [0]
    assert state.events[-1].values["final"][0] == 50


def test_the_last_player_left_wins():
    four = position(QUIZ, ["E", "C", "A", "T"], scores=(50, 12, 30, 5))
    state = resign(resign(four, 0), 2)
    assert outcome(state) is None and state.resigned == (0, 2)
    state = resign(state, 1)
    result = outcome(state)
    assert result.winners == (3,) and result.reason == "resigned"
    assert result.details["seat"] == 1
    assert result.details["resigned_seats"] == [0, 2, 1]


def test_a_resigners_open_play_stands_and_its_answer_moves_on():
    state = position(EMPTY, ["ATEEIOU", "QVEEIOU", "EERRSSL"])
    state = act(state, 0, "H8 across AT")
    assert state.pending is not None and state.turn == 1
    gone = roundtrip(resign(state, 0))  # the play stands: nobody can challenge it now
    assert gone.pending is None and gone.scores[0] == 4 and gone.board == state.board
    assert gone.turn == 1 and legal_moves(gone, 2) == []
    skipped = roundtrip(resign(state, 1))  # the player to move resigns: the next one moves
    assert skipped.turn == 2 and skipped.pending == state.pending
    assert legal_moves(skipped, 0) == [] and Challenge() in legal_moves(skipped, 2)


def test_a_game_ending_play_waits_for_the_next_player_left():
    state = position(EMPTY, ["AT", "QV", "EE"], options={"finish": 3})
    state = act(state, 0, "H8 across AT")
    assert state.pending.final and state.turn == 1
    state = roundtrip(resign(state, 1))
    assert state.turn == 2 and state.pending.final and outcome(state) is None
    state = act(state, 2, "pass")  # accepts: seat 0 reached the target
    result = outcome(state)
    assert result.reason == "finish" and result.winners == (0,)
    assert result.details["seat"] == 0 and result.details["target"] == 3


def test_a_resignation_under_a_play_that_went_out_puts_tiles_back_under_it():
    lexicon = Lexicon(["QUIZ", "ZA"])
    state = position(QUIZ, ["A", "EEE", "TTTTTTA"], bag="", scores=(10, 20, 30))
    state = apply(state, 0, parse_move("K8 down ZA"), lexicon=lexicon)
    assert state.pending.ends == "out" and state.turn == 1
    tiles = state.tile_count()
    state = roundtrip(resign(state, 2, lexicon=lexicon))  # seven tiles back in the bag
    assert outcome(state) is None and "play_goes_on" in kinds(state)
    assert len(state.racks[0]) == 7 and state.bag == "" and state.tile_count() == tiles
    assert state.pending.ends is None and sorted(state.pending.drawn) == sorted(state.racks[0])
    assert state.turn == 1 and Challenge() in legal_moves(state, 1)
    state = act(state, 1, "pass", lexicon)  # the play stands, and nobody can play on
    result = outcome(state)
    assert result.reason == "blocked"  # not "went out"
    assert result.details["adjustments"] == [-7, -3, 0] and result.winners == (1,)


def test_a_play_restarts_every_seats_run_of_passes():
    state = position(QUIZ, ["AATTNNE", "EEEEEEE", "OOOOOOO"], turn=1)
    for seat in (1, 2):
        state = act(state, seat, "pass")
    state = act(state, 0, "K8 down ZA")
    assert state.passes == (0, 0, 0)
    for seat in (1, 2):
        state = act(state, seat, "pass")
    state = resign(state, 0, lexicon=LEX)  # the two left have passed once since the play
    assert outcome(state) is None and state.passes == (0, 1, 1)


# --- challenges -----------------------------------------------------------------------------


def test_phony_challenged_off_returns_tiles_and_draws():
    state = position(EMPTY, ["QIZAAAB", "EEEEEEE"])
    bag_before = state.bag
    played = act(state, 0, "H8 across QIZ")  # not a word, but it stands until challenged
    assert played.scores == (42, 0) and len(played.pending.drawn) == 3
    assert played.bag == bag_before[3:]
    assert legal_moves(played, 0) == []
    with pytest.raises(CannotChallenge, match="^scrabble.own_play$"):
        apply(played, 0, Challenge(), lexicon=LEX)
    off = act(played, 1, "challenge")
    assert kinds(off) == ["challenge", "withdrawn"]
    assert off.events[1].seat == 0 and off.events[1].values == {"words": ["QIZ"]}
    assert off.board == Board() and off.scores == (0, 0)
    assert off.racks[0] == "AAABIQZ" and sorted(off.bag) == sorted(bag_before)
    assert off.turn == 1 and off.pending is None and off.last_play is None
    # The challenger, the next player, still has the turn and plays on.
    assert outcome(act(off, 1, "pass")) is None


def test_valid_play_challenged_costs_the_challenger_a_turn():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE"])
    played = act(state, 0, "H8 across QUIZ")
    failed = act(played, 1, "challenge")
    assert kinds(failed) == ["challenge", "challenge_failed", "lost_turn"]
    assert failed.turn == 0 and failed.skips == (0, 0) and failed.scores == (44, 0)
    with pytest.raises(CannotChallenge, match="^scrabble.nothing_to_challenge$"):
        apply(failed, 1, Challenge(), lexicon=LEX)


def test_challenge_by_a_third_player():
    state = position(EMPTY, ["QUIZAAA", "EEEEEEE", "TTTTTTA"])
    played = act(state, 0, "H8 across QUIZ")
    assert legal_moves(played, 2) == [Challenge()]
    with pytest.raises(NotYourTurn, match="^scrabble.not_your_turn$") as refused:
        apply(played, 2, Pass(), lexicon=LEX)
    assert refused.value.values == {"can_challenge": True}
    failed = act(played, 2, "challenge")
    assert failed.skips == (0, 0, 1) and failed.turn == 1
    later = act(failed, 1, "pass")
    assert kinds(later) == ["pass", "lost_turn"] and later.turn == 0
    assert later.skips == (0, 0, 0)
    # Once the next player has acted, the play can no longer be challenged.
    accepted = act(played, 1, "pass")
    with pytest.raises(CannotChallenge):
        apply(accepted, 2, Challenge(), lexicon=LEX)


def test_third_player_challenges_a_phony():
    state = position(EMPTY, ["QIZAAAB", "EEEEEEE", "TTTTTTA"])
    played = act(state, 0, "H8 across QIZ")
    off = act(played, 2, "challenge")
    assert off.turn == 1 and off.board == Board() and off.skips == (0, 0, 0)


def test_void_mode_refuses_phonies_and_challenges():
    state = position(EMPTY, ["QIZAAAB", "EEEEEEE"], options={"challenge": "void"})
    with pytest.raises(UnknownWord, match="^scrabble.unknown_words$") as refused:
        apply(state, 0, Play.parse("H8 across QIZ"), lexicon=LEX)
    assert refused.value.values == {"words": ["QIZ"]}
    played = act(state, 0, "H8 across ZA")
    assert played.pending is None
    with pytest.raises(CannotChallenge, match="^scrabble.challenges_off$"):
        apply(played, 1, Challenge(), lexicon=LEX)
    assert Challenge() not in legal_moves(played, 1)


# --- 9-tile variant -------------------------------------------------------------------------


def test_nine_tile_bingo_and_refill():
    lexicon = Lexicon(["RETAINER"])
    state = position(EMPTY, ["AAEEINRRT", "EEEEEEEEE"], options={"tiles": 9})
    state = act(state, 0, "G8 across RETAINER", lexicon=lexicon)
    assert state.last_play.bingo and state.scores == (18 + 50, 0)
    assert len(state.racks[0]) == 9


# --- move generation ------------------------------------------------------------------------


def _brute_force(board: Board, rack: str, lexicon: Lexicon) -> set[frozenset]:
    found = set()
    for word in lexicon.words:
        for row in range(15):
            for col in range(15):
                for direction in ("across", "down"):
                    play = Play(row, col, direction, word)
                    try:
                        scored = evaluate(board, play, rack)
                    except IllegalMove:
                        continue
                    if not unknown_words(scored, lexicon):
                        found.add(frozenset(scored.placements))
    return found


@pytest.mark.parametrize(
    "board, rack",
    [
        (EMPTY, "QUIZATE"),
        (QUIZ, "ATENNIE"),
        ("\n".join(["." * 15] * 6 + ["........AT....."] + [".......QUIZ...."] + ["." * 15] * 7),
         "EANTT"),
    ],
)
def test_generator_matches_brute_force(board, rack):
    state = position(board, [rack, "EEEEEEE"])
    moves = legal_moves(state, 0, lexicon=LEX)
    plays = [m for m in moves if isinstance(m, Play)]
    placements = [frozenset(evaluate(state.board, p, rack).placements) for p in plays]
    assert len(placements) == len(set(placements))
    assert set(placements) == _brute_force(state.board, rack, LEX)
    order = {Play: 0, Exchange: 1, Pass: 2, Challenge: 3}
    assert moves == sorted(moves, key=lambda m: (order[type(m)], str(m)))
    assert Pass() in moves and Exchange(rack) in moves
    assert legal_moves(state, 1, lexicon=LEX) == []


def test_generator_with_blanks_finds_only_valid_plays():
    state = position(QUIZ, ["?TE", "EEEEEEE"], bag="")
    plays = [m for m in legal_moves(state, 0, lexicon=LEX) if isinstance(m, Play)]
    assert Play.parse("K8 down Za") in plays and Play.parse("H8 down Qi") in plays
    assert Play.parse("K8 down ZA") not in plays  # no A on the rack: only the blank
    for play in plays:
        scored = evaluate(state.board, play, "?TE")
        assert not unknown_words(scored, LEX)
    assert not any(isinstance(m, Exchange) for m in legal_moves(state, 0, lexicon=LEX))


def test_legal_moves_are_all_accepted():
    state = position(QUIZ, ["ATENNIE", "EEEEEEE"], options={"challenge": "void"})
    for move in legal_moves(state, 0, lexicon=LEX):
        apply(state, 0, move, lexicon=LEX)
