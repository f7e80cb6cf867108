"""The turn hint names only the commands the player to move can use now."""

from __future__ import annotations

from bot.adapters.scrabble.words import turn_hint as hint_text
from games.scrabble import Lexicon, apply, parse_move, position, view
from i18n import ENGLISH_VOICE

LEX = Lexicon(["AT", "TA"])
EMPTY = "\n".join(["." * 15] * 15)


def turn_hint(seen) -> str:
    return ENGLISH_VOICE(hint_text(seen))


def test_exchange_is_offered_only_while_the_bag_allows_it():
    full = position(EMPTY, ["AEEIOUU", "TTTTTTA"], bag="ABCDEFG")
    assert "`/scrabble exchange`" in turn_hint(view(full, 0))
    low = position(EMPTY, ["AEEIOUU", "TTTTTTA"], bag="ABCDEF")
    hint = turn_hint(view(low, 0))
    assert "`/scrabble exchange`" not in hint
    assert "`/scrabble play`" in hint and "`/scrabble pass`" in hint


def test_a_play_that_ends_the_game_is_challenged_or_accepted():
    state = position(EMPTY, ["AT", "QV"], bag="")
    state = apply(state, 0, parse_move("H8 across AT"), lexicon=LEX)
    assert state.turn == 1 and state.pending.final
    hint = turn_hint(view(state, 1))
    assert "`/scrabble challenge`" in hint and "`/scrabble pass` to accept" in hint
    assert "`/scrabble play`" not in hint and "`/scrabble exchange`" not in hint


def test_a_player_who_draws_again_after_going_out_gets_the_new_rack():
    from types import SimpleNamespace

    from bot.adapters.scrabble.presenter import ScrabblePresenter
    from games.scrabble import Lexicon as Lex
    from games.scrabble import resign

    quiz = "\n".join(["." * 15] * 7 + [".......QUIZ...."] + ["." * 15] * 7)
    words = Lex(["QUIZ", "ZA"])
    state = position(quiz, ["A", "EEE", "TTTTTTA"], bag="")
    state = apply(state, 0, parse_move("K8 down ZA"), lexicon=words)
    state = resign(state, 2, lexicon=words)
    seats = [SimpleNamespace(seat=seat) for seat in range(3)]
    result = SimpleNamespace(match=SimpleNamespace(status="active", seats=seats, state=state),
                             events=state.events, action="resign", seat=2)
    # Every seat's DM is updated, the one who resigned included (it says so).
    assert ScrabblePresenter.private_changes(ScrabblePresenter, result) == [0, 1, 2]


def test_one_blank_choice_keeps_one_play_per_placement_with_the_same_scores():
    import dataclasses

    from games.scrabble import Pass, apply, current_seat, new_game, scored_plays

    state = new_game(2, seed=2024)
    while state.actions < 6:
        seat = current_seat(state)
        best = scored_plays(state, seat)
        state = apply(state, seat, best[0][1] if best else Pass())
    seat = current_seat(state)
    racks = list(state.racks)
    racks[seat] = "AEIRS?T"
    state = dataclasses.replace(state, racks=tuple(racks))
    every = scored_plays(state, seat)
    one = scored_plays(state, seat, one_blank_choice=True)
    assert len(one) < len(every)

    def shape(play):
        return frozenset(
            (r, c, ch if ch.isupper() else "?")
            for (r, c, ch) in play_tiles(state, play)
        )

    def play_tiles(state, play):
        from games.scrabble.scoring import evaluate
        return evaluate(state.board, play, state.racks[seat]).placements

    shapes_every = {shape(p): s for s, p in every}
    shapes_one = [shape(p) for _, p in one]
    assert len(shapes_one) == len(set(shapes_one)) == len(shapes_every)
    assert all(shapes_every[shape(p)] == s for s, p in one)
