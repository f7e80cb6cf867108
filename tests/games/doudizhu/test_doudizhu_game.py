"""Dou Dizhu rounds: deal, auction, tricks, payments, the series, views and notation."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.common import BadNotation, GameOver, IllegalMove, NotYourTurn
from games.doudizhu import Bid, Next, Pass, Play, Stop
from tests.games.doudizhu.positions import cards, play, refused, said, staged


WORDED_EVENTS = {"deal", "bid", "redeal", "landlord", "play", "double", "pass", "trick",
                 "round_end", "end", "resign", "forfeit"}


def conserved(state: dd.State) -> bool:
    held = Counter(card for hand in state.hands for card in hand) + Counter(state.played)
    if state.landlord is None:
        held += Counter(state.kitty)
    return held == Counter(dd.full_deck(state.players))


# --------------------------------------------------------------------------- deal


@pytest.mark.parametrize("players, hand, kitty", [(3, 17, 3), (4, 25, 8)])
def test_deal(players: int, hand: int, kitty: int) -> None:
    state = dd.new_game(players, seed=11)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.kitty) == kitty
    assert conserved(state) and len(dd.full_deck(players)) == (54 if players == 3 else 108)
    assert state.face_up in state.hands[state.face_up_seat]
    assert dd.current_seat(state) == state.face_up_seat
    assert state.phase == dd.AUCTION and state.round_no == 1
    deal = state.events[0]
    assert deal.kind == "deal" and deal.seat == state.face_up_seat and deal.text == ""
    assert deal.values == {"round": 1, "deal": 1, "dealer": state.dealer,
                           "face_up": state.face_up, "holder": state.face_up_seat}
    assert dd.new_game(players, seed=11) == state
    assert dd.new_game(players, seed=12).hands != state.hands


def test_first_dealer_is_random_and_the_face_up_card_lands_anywhere() -> None:
    dealers = {dd.new_game(3, seed=seed).dealer for seed in range(40)}
    holders = {dd.new_game(3, seed=seed).face_up_seat for seed in range(40)}
    assert dealers == {0, 1, 2} and holders == {0, 1, 2}


def test_new_game_rejects_other_player_counts() -> None:
    with pytest.raises(ValueError):
        dd.new_game(2, seed=1)
    with pytest.raises(ValueError):
        dd.new_game(5, seed=1)


# --------------------------------------------------------------------------- auction


def test_all_pass_redeals_with_the_same_dealer() -> None:
    state = dd.new_game(3, seed=5)
    again = play(state, "bid pass", "pass", "bid pass")
    assert again.phase == dd.AUCTION and again.redeal_no == 1 and again.round_no == 1
    assert again.dealer == state.dealer and again.bids == ()
    assert again.hands != state.hands and conserved(again)
    assert [e.kind for e in again.events] == ["bid", "redeal", "deal"]
    assert again.events[0].values == {"amount": 0} and again.events[2].values["deal"] == 2
    assert dd.current_seat(again) == again.face_up_seat


def test_auction_ends_on_a_three() -> None:
    state = dd.new_game(3, seed=5)
    opener = state.turn
    done = play(state, "bid 1", "bid 3")
    landlord = (opener + 1) % 3
    assert done.phase == dd.PLAY and done.landlord == landlord and done.bid == 3
    assert len(done.hands[landlord]) == 20
    assert set(state.kitty) <= set(done.hands[landlord])
    assert dd.current_seat(done) == landlord
    assert [e.kind for e in done.events] == ["bid", "landlord"]
    assert done.events[1].seat == landlord
    assert done.events[1].values == {"bid": 3, "kitty": list(dd.sort_cards(state.kitty))}


def test_rebid_after_passing_and_end_after_two_passes() -> None:
    state = dd.new_game(3, seed=8)
    a = state.turn
    state = play(state, "bid pass", "bid 1", "bid pass")
    assert state.phase == dd.AUCTION and state.turn == a
    assert dd.legal_moves(state, a) == [Bid(0), Bid(2), Bid(3)]
    state = play(state, "bid 2")              # a passed earlier and may still bid
    state = play(state, "bid pass")
    assert state.phase == dd.AUCTION
    state = play(state, "bid pass")           # two passes in a row after the bid
    assert state.phase == dd.PLAY and state.landlord == a and state.bid == 2


def test_four_player_auction_needs_three_passes() -> None:
    state = dd.new_game(4, seed=3)
    first = state.turn
    state = play(state, "bid 1", "pass", "pass")
    assert state.phase == dd.AUCTION
    state = play(state, "pass")
    assert state.phase == dd.PLAY and state.landlord == first
    assert len(state.hands[first]) == 33 and conserved(state)
    assert dd.view(state, None).kitty == dd.sort_cards(state.kitty)


def test_four_player_all_pass_needs_four_passes() -> None:
    state = play(dd.new_game(4, seed=3), "pass", "pass", "pass")
    assert state.phase == dd.AUCTION and state.redeal_no == 0
    state = play(state, "pass")
    assert state.redeal_no == 1


def test_bids_must_rise() -> None:
    state = play(dd.new_game(3, seed=2), "bid 2")
    with refused("doudizhu.bid_higher", "^you must bid more than 2: bid 3, or pass$",
                 high=2, higher=[3]):
        play(state, "bid 1")
    with refused("doudizhu.auction_on", "the auction is on"):
        play(state, "33")
    with pytest.raises(NotYourTurn):
        dd.apply(state, state.turn + 1, Bid(3))
    assert dd.legal_moves(state, (state.turn + 1) % 3) == []


# --------------------------------------------------------------------------- tricks


def test_trick_flow_three_players() -> None:
    state = staged(["3344777K", "5566889Q", "44669JJA"])
    with refused("doudizhu.lead_no_pass", "you lead this trick, so you cannot pass"):
        play(state, "pass")
    state = play(state, "33")
    assert dd.legal_moves(state, 1)[0] == Pass()
    with refused("doudizhu.answer_in_kind", "^you must answer a pair", type="pair", size=2):
        play(state, "5")
    state = play(state, "55", "pass")
    state = play(state, "77")          # seat 0 answers again in the same trick
    state = play(state, "88", "JJ", "pass", "pass")
    assert state.turn == 2 and [e.kind for e in state.events] == ["pass", "trick"]
    assert state.events[1].seat == 2 and state.events[1].values == {"play": "JJ"}
    assert dd.view(state, 0).to_beat is None and len(dd.view(state, 0).trick) == 8
    state = play(state, "6")           # seat 2 won the trick and leads a new one
    assert [entry.text for entry in dd.view(state, 0).trick] == ["6"]
    assert state.played == cards("33") + cards("55") + cards("77") + cards("88") + cards("JJ") + ("6S",)


def test_error_messages() -> None:
    state = staged(["7444K", "777J2", "3456"])
    with refused("doudizhu.not_held", r"^you do not hold three 7s \(you have one\)$",
                 rank="7", count=3, have=1):
        play(state, "777")
    with refused("doudizhu.not_held", "^you do not hold an ace$", rank="A", count=1, have=0):
        play(state, "A")
    with refused("doudizhu.not_held", "^you do not hold a 10$"):
        play(state, "10")
    with refused("doudizhu.not_held", "^you do not hold two black jokers$"):
        play(state, "BB")
    state = play(state, "444")
    with refused("doudizhu.answer_in_kind",
                 r"^you must answer a trio \(or play a bomb or the rocket\)$"):
        play(state, "7772")
    with refused("doudizhu.not_a_combination", "^777J2 is not a combination", cards="777J2"):
        play(state, "777J2")
    state = staged(["444K", "7772", "3456"])
    state = dd.apply(replace(state, turn=1), 1, Play.parse("777"))
    with refused("doudizhu.does_not_beat", "^444 does not beat 777$", play="444", to_beat="777"):
        dd.apply(replace(state, turn=0), 0, Play.parse("444"))
    four = staged(["3334KKKK", "5556", "7778", "999T"])
    with refused("doudizhu.three_players_only",
                 "^a trio with a single is not allowed with 4 players$", type="trio_single"):
        play(four, "3334")
    with refused("doudizhu.three_players_only", "^a quadplex set is not allowed with 4 players$"):
        play(four, "KKKK34")


def test_trick_needs_three_passes_with_four_players_and_bombs_interrupt() -> None:
    state = staged(["3J", "4444Q", "55555K", "6A"])
    state = play(state, "3", "4444", "55555", "pass", "pass")
    assert state.phase == dd.PLAY and state.turn == 1
    with refused("doudizhu.beat_the_bomb_4", "^only a bomb with more cards, a higher bomb of 5 "
                 "cards or the rocket beats the bomb 55555$", to_beat="55555", size=5):
        play(state, "Q")
    state = play(state, "pass")
    assert state.turn == 2 and state.to_beat is None
    assert state.doublings == ()      # five-card bombs do not double with 4 players
    bombs = play(staged(["333334", "7777K", "8", "9"]), "33333")
    with refused("doudizhu.smaller_bomb", "^7777 does not beat 33333: a bomb with more cards"):
        play(bombs, "7777")


# --------------------------------------------------------------------------- payments


def test_rules_example_bid_two_bomb_and_rocket_landlord_loses() -> None:
    state = staged(["BR345", "6666Q", "7"], landlord=0, bid=2)
    state = play(state, "BR", "pass", "pass", "3", "6666", "pass", "pass", "Q")
    assert state.phase == dd.ROUND_OVER and state.went_out == 1
    assert state.doublings == ("BR", "6666") and state.multiplier == 4
    assert state.payments == (-16, 8, 8) and state.ledger == (-16, 8, 8)
    paid = dd.payment(state)
    assert paid == {"bid": 2, "doublings": [{"type": "rocket", "play": "BR"},
                                            {"type": "bomb", "play": "6666"}],
                    "unit": 8, "total": 16, "landlord": 0, "won": False, "went_out": 1}
    end = state.events[-1]
    assert end.kind == "round_end" and end.seat == 1 and end.values == paid
    assert [e.kind for e in state.events] == ["play", "round_end"]
    assert state.events[0].values == {"play": "Q", "type": "single", "size": 1, "lead": True,
                                      "cards": ["QS"]}
    assert dd.current_seat(state) == 1
    assert dd.legal_moves(state, 2) == [Next(), Stop()]


def test_landlord_wins_without_doubling() -> None:
    state = staged(["33", "4", "5"], landlord=0, bid=3)
    state = play(state, "33")
    assert state.payments == (6, -3, -3) and state.multiplier == 1
    assert dd.payment(state) == {"bid": 3, "doublings": [], "unit": 3, "total": 6,
                                 "landlord": 0, "won": True, "went_out": 0}


def test_four_player_doublings_only_for_six_card_bombs_and_the_rocket() -> None:
    state = staged(["33333K", "4444449", "BBRR7", "5"], landlord=3, bid=1, turn=0)
    state = replace(state, trick=((3, ("2S",)),))
    state = play(state, "33333", "444444", "BBRR", "pass", "pass", "pass", "7")
    assert state.doublings == ("444444", "BBRR")
    assert state.went_out == 2 and state.payments == (4, 4, 4, -12)


def test_series_next_rotates_the_dealer_clockwise_and_stop_ends_it() -> None:
    state = dd.new_game(3, seed=4)
    first = state.dealer
    state = play(state, "bid 3")
    landlord = state.landlord
    hands = list(state.hands)
    hands[landlord] = cards("3")
    state = play(replace(state, hands=tuple(hands)), "3")
    assert state.phase == dd.ROUND_OVER and state.ledger[landlord] == 6
    with refused("doudizhu.round_over", "the round is over"):
        dd.apply(state, 0, Pass())
    nxt = dd.apply(state, (landlord + 1) % 3, Next())
    assert nxt.round_no == 2 and nxt.dealer == (first - 1) % 3 and nxt.ledger == state.ledger
    assert nxt.phase == dd.AUCTION and nxt.payments is None and conserved(nxt)
    with refused("doudizhu.between_rounds_only", "once the round is over", move="stop"):
        dd.apply(nxt, nxt.turn, Stop())
    over = dd.apply(state, 0, Stop())
    assert over.events[0].kind == "end" and over.events[0].seat == 0
    assert over.events[0].values == {"round": 1}
    result = dd.outcome(over)
    assert result.winners == (landlord,) and result.scores == state.ledger and not result.draw
    assert dd.current_seat(over) is None and dd.legal_moves(over, 0) == []
    with refused("doudizhu.series_over", "^The series is over.$", GameOver):
        dd.apply(over, 0, Next())


def test_resign_mid_round_pays_as_a_loss() -> None:
    state = staged(["3456", "7", "8"], landlord=0, bid=2)
    over = dd.resign(state, 1)
    assert over.phase == dd.OVER and over.ledger == (4, -2, -2)
    result = dd.outcome(over)
    assert result.winners == (0,) and result.reason == "resigned"
    assert result.details["resigned"] == 1
    assert [e.kind for e in over.events] == ["resign", "round_end", "end"]
    assert over.events[1].values["went_out"] is None and over.events[2].seat is None
    assert dd.outcome(dd.resign(dd.new_game(3, seed=1), 2)).winners == (0, 1)


# --------------------------------------------------------------------------- views


def test_views_hide_other_hands_until_the_round_ends() -> None:
    state = play(dd.new_game(3, seed=9), "bid 2", "pass", "pass")
    for seat in range(3):
        seen = dd.view(state, seat)
        assert seen.hand == state.hands[seat]
        assert seen.revealed_hands is None and seen.payment is None
        assert seen.hand_counts == tuple(len(h) for h in state.hands)
        assert seen.kitty == dd.sort_cards(state.kitty) and seen.landlord == state.landlord
        public = set(state.kitty) | {state.face_up}
        others = {card for other in range(3) if other != seat for card in state.hands[other]} - public
        assert not others & set(repr(seen).split("'"))
    public = dd.view(state, None)
    assert public.hand == () and public.revealed_hands is None
    assert dd.view(dd.new_game(3, seed=9), None).kitty is None


def test_view_at_round_end_reveals_hands_and_payment() -> None:
    state = staged(["BR345", "6666Q", "7"], landlord=0, bid=2)
    state = play(state, "BR", "pass", "pass", "3", "6666", "pass", "pass", "Q")
    seen = dd.view(state, None)
    assert seen.revealed_hands == state.hands and seen.payments == (-16, 8, 8)
    assert seen.payment == dd.payment(state) and len(seen.payment["doublings"]) == 2
    assert seen.stake == 8 and seen.multiplier == 4 and seen.doublings == ("BR", "6666")


def test_view_of_the_trick() -> None:
    state = play(staged(["33K", "55A", "77"]), "33", "55")
    seen = dd.view(state, 2)
    assert [(e.seat, e.text) for e in seen.trick] == [(0, "33"), (1, "55")]
    assert seen.to_beat.seat == 1 and seen.to_beat.cards == cards("55") and seen.turn == 2
    assert seen.must_answer == 2
    with refused("doudizhu.not_your_turn", "^It is not your turn to play.$", NotYourTurn,
                 phase="play"):
        dd.apply(state, 0, Pass())
    state = play(state, "pass", "pass")
    seen = dd.view(state, 0)
    assert seen.trick[-1].text == "pass" and seen.to_beat is None and seen.must_answer is None
    assert seen.turn == 1


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize("text, canonical", [
    ("33344", "33344"), ("3 3 3 4 4", "33344"), ("43433", "33344"), ("TJQKA", "10JQKA"),
    ("10 j q k a", "10JQKA"), ("0jqka", "10JQKA"), ("tjqka", "10JQKA"), ("1010", "10 10"),
    ("T0 10", "10 10 10"), ("3334440TT", "3 3 3 4 4 4 10 10 10"), ("9TJQK", "9 10 J Q K"),
    ("BR", "BR"), ("rb", "BR"),
    ("BBRR", "BBRR"), ("R5334443", "3334445R"), ("play 6655333444", "3334445566"),
    ("2B5555", "55552B"), ("play 3", "3"),
])
def test_play_notation(text: str, canonical: str) -> None:
    move = dd.parse_move(text)
    assert isinstance(move, Play) and str(move) == canonical
    assert dd.parse_move(str(move)) == move == Play.parse(canonical)


@pytest.mark.parametrize("text, move", [
    ("bid 2", Bid(2)), ("bid pass", Bid(0)), ("BID 3", Bid(3)), ("pass", Pass()),
    ("next", Next()), ("stop", Stop()), (" Pass ", Pass()),
])
def test_action_notation(text: str, move) -> None:
    assert dd.parse_move(text) == move and dd.parse_move(str(move)) == move


@pytest.mark.parametrize("text", ["bid 4", "bid", "33x", "", "play", "11"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation):
        dd.parse_move(text)


@pytest.mark.parametrize("text, quoted", [("5x!", "`x!`"), ("1q0", "`1`"), ("z10", "`z`")])
def test_bad_ranks_are_quoted_as_typed(text: str, quoted: str) -> None:
    with refused("doudizhu.bad_ranks", None, BadNotation) as error:
        dd.parse_move(text)
    verb = "is not a rank" if len(quoted) == 3 else "are not ranks"
    assert said(error.value).startswith(f"{quoted} {verb}: write ranks like `33344`")
    with refused("doudizhu.bad_ranks", "^no cards were given: ", BadNotation, bad=""):
        dd.parse_move("play")
    with refused("doudizhu.bad_bid", "^`bid 4` is not a bid: ", BadNotation, text="bid 4"):
        dd.parse_move("bid 4")


# --------------------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", [3, 4])
def test_seeded_random_series(players: int) -> None:
    rounds_finished = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = dd.new_game(players, seed=seed)
        while dd.outcome(state) is None:
            seat = dd.current_seat(state)
            moves = dd.legal_moves(state, seat)
            if state.phase == dd.ROUND_OVER:
                rounds_finished += 1
                assert sum(state.payments) == 0 and state.hands[state.went_out] == ()
                assert moves == [Next(), Stop()]
                move = Next() if state.round_no < 2 else Stop()
            else:
                assert moves and moves == dd.legal_moves(state, seat)
                # mostly the smallest play keeps rounds long; sometimes anything
                move = moves[-1] if rng.random() < 0.1 else rng.choice(moves[:3])
            for other in range(players):
                if other != seat and state.phase != dd.ROUND_OVER:
                    assert dd.legal_moves(state, other) == []
            assert dd.parse_move(str(move)) == move
            state = dd.apply(state, seat, move)
            assert conserved(state)
            assert dd.State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
            for event in state.events:
                assert event.text == "" and event.kind in WORDED_EVENTS
        assert sum(state.ledger) == 0
    assert rounds_finished >= 12


def test_forfeit_passes_in_the_auction_and_loses_the_round_in_the_play():
    state = dd.new_game(3, seed=11)
    bidder = dd.current_seat(state)
    passed = dd.forfeit(state, bidder)
    assert passed == dd.apply(state, bidder, dd.Bid(0))

    state = dd.apply(state, bidder, dd.Bid(3))  # the landlord, at 3
    assert state.phase == dd.PLAY
    for seat, landlord_won in ((state.landlord, False), ((state.landlord + 1) % 3, True)):
        over = dd.forfeit(state, seat)
        assert over.phase == dd.ROUND_OVER and over.went_out is None
        sign = 1 if landlord_won else -1
        assert over.payments[state.landlord] == sign * 2 * 3
        assert sum(over.payments) == 0 and over.ledger == over.payments
        assert [e.kind for e in over.events] == ["forfeit", "round_end"]
        assert over.events[1].values["went_out"] is None and dd.outcome(over) is None
        with pytest.raises(IllegalMove):
            dd.forfeit(over, seat)
    with refused("doudizhu.series_over", None, GameOver):
        dd.forfeit(dd.resign(state, 0), 1)
