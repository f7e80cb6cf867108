"""Audit of the Dou Dizhu engine against /work/shared/rules/doudizhu.md, rule by rule.

Only the rules the other Dou Dizhu test files did not already check are here; every test
names the rule (section and clause) it checks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.doudizhu import Bid, Next, Pass, Stop
from games.doudizhu.combinations import (
    BOMB,
    QUADPLEX,
    RANKS,
    ROCKET,
    TRIO_PAIR,
    TRIO_SEQUENCE_PAIRS,
    TRIO_SEQUENCE_SINGLES,
    beats,
    classify,
)
from tests.games.doudizhu.positions import cards, play, refused, said, staged


def finish_round_quickly(state: dd.State) -> dd.State:
    """From an auction: the opener bids 3, then the landlord goes out with one card."""
    state = play(state, "bid 3")
    hands = list(state.hands)
    hands[state.landlord] = cards("3")
    return play(replace(state, hands=tuple(hands)), "3")


def combo(text: str, players: int = 3):
    found = classify(text, players)
    assert found is not None, text
    return found


# --------------------------------------------------------------------------- Cards


def test_cards_one_deck_and_two_jokers_with_3_players() -> None:
    """Cards: 3 players use one 52-card deck plus one red and one black joker."""
    deck = dd.full_deck(3)
    assert len(deck) == len(set(deck)) == 54
    assert {"BJ", "RJ"} <= set(deck)
    for rank in "3456789TJQKA2":
        assert sorted(card for card in deck if card[0] == rank) == sorted(rank + s for s in "SHDC")


def test_cards_two_decks_and_four_jokers_with_4_players() -> None:
    """Cards: 4 players use two 52-card decks plus two red and two black jokers."""
    deck = Counter(dd.full_deck(4))
    assert sum(deck.values()) == 108
    assert set(deck.values()) == {2} and set(deck) == set(dd.full_deck(3))


@pytest.mark.parametrize("players", [3, 4])
def test_rank_order_red_joker_down_to_three(players: int) -> None:
    """Cards: red joker, black joker, 2, A, K, ..., 3, high to low (as singles and pairs)."""
    order = "RB2AKQJT9876543"
    assert sorted(RANKS, key=order.index) == list(order)
    for high_index, high in enumerate(order):
        for low in order[high_index + 1:]:
            assert beats(combo(high, players), combo(low, players), players), (high, low)
            assert not beats(combo(low, players), combo(high, players), players), (low, high)
    pairs = "2AKQJT9876543" if players == 3 else "RB2AKQJT9876543"
    for high_index, high in enumerate(pairs):
        for low in pairs[high_index + 1:]:
            assert beats(combo(high * 2, players), combo(low * 2, players), players)


def test_suits_do_not_matter() -> None:
    """Cards: suits do not matter: any two 7s are a pair, one 7 never beats another."""
    assert str(combo(["7S", "7H"])) == "77" and str(combo(["7D", "7C"])) == "77"
    state = replace(staged(["73", "7K", "3"]), hands=(("3S", "7S"), ("7H", "KS"), ("3H",)))
    state = play(state, "7")
    with refused("doudizhu.does_not_beat", "^7 does not beat 7$"):
        play(state, "7")


# --------------------------------------------------------------------------- Deal


@pytest.mark.parametrize("players", [3, 4])
def test_face_up_card_is_drawn_by_a_player_who_opens_the_auction(players: int) -> None:
    """Deal: the face-up card goes into the middle of the deck, so a player draws it (never
    the kitty) and that player starts the auction; on every seed, and after a redeal."""
    holders = set()
    for seed in range(60):
        state = dd.new_game(players, seed=seed)
        for current in (state, play(state, *["pass"] * players)):
            seat = current.face_up_seat
            assert current.face_up in current.hands[seat]
            if players == 3:
                assert current.face_up not in current.kitty
            assert dd.current_seat(current) == seat and current.turn == seat
            holders.add(seat)
    assert holders == set(range(players))


@pytest.mark.parametrize("players", [3, 4])
def test_deal_passes_clockwise_every_round(players: int) -> None:
    """Deal: the deal passes clockwise (seat s to s - 1, turns going counter-clockwise)
    each round; an all-pass redeal is the same round, by the same dealer."""
    state = dd.new_game(players, seed=21)
    first = state.dealer
    for round_no in range(1, players + 2):
        assert state.round_no == round_no
        assert state.dealer == (first - (round_no - 1)) % players
        redealt = play(state, *["pass"] * players)
        assert redealt.dealer == state.dealer and redealt.round_no == round_no
        state = dd.apply(finish_round_quickly(state), 0, Next())


# --------------------------------------------------------------------------- Auction


def test_auction_bid_must_be_strictly_higher() -> None:
    """Auction: a bid must be higher than the highest bid so far (equal is not enough)."""
    state = play(dd.new_game(3, seed=2), "bid 2")
    with refused("doudizhu.bid_higher", "^you must bid more than 2: bid 3, or pass$"):
        play(state, "bid 2")
    assert dd.legal_moves(state, state.turn) == [Bid(0), Bid(3)]


def test_auction_opening_three_ends_it_at_once() -> None:
    """Auction: the auction ends when a 3 is bid, even as the very first call."""
    state = dd.new_game(4, seed=6)
    opener = state.turn
    state = play(state, "bid 3")
    assert state.phase == dd.PLAY and state.landlord == opener and state.bid == 3
    assert state.turn == opener and len(state.hands[opener]) == 33


@pytest.mark.parametrize("players", [3, 4])
def test_auction_passes_before_the_first_bid_do_not_end_it(players: int) -> None:
    """Auction: it ends after a bid and then 2 (3) passes in a row; passes before the bid
    do not count, and the earlier passers may still bid."""
    state = dd.new_game(players, seed=13)
    opener = state.turn
    state = play(state, *["pass"] * (players - 1), "bid 1")
    bidder = (opener + players - 1) % players
    assert state.phase == dd.AUCTION and state.turn == opener
    state = play(state, *["pass"] * (players - 2))
    assert state.phase == dd.AUCTION
    state = play(state, "pass")
    assert state.phase == dd.PLAY and state.landlord == bidder and state.bid == 1


def test_auction_kitty_goes_to_the_highest_bidder_and_is_shown() -> None:
    """Auction: the highest bidder takes the 3 face-down cards, shown to everyone, and leads."""
    state = dd.new_game(3, seed=31)
    kitty = state.kitty
    assert all(dd.view(state, seat).kitty is None for seat in range(3))
    state = play(state, "bid 1", "bid 2", "pass", "pass")
    landlord = state.landlord
    assert landlord == (dd.new_game(3, seed=31).turn + 1) % 3
    assert Counter(kitty) <= Counter(state.hands[landlord])
    assert all(dd.view(state, seat).kitty == dd.sort_cards(kitty) for seat in (0, 1, 2, None))
    assert dd.current_seat(state) == landlord and state.to_beat is None
    assert all(dd.legal_moves(state, seat) == [] for seat in range(3) if seat != landlord)


# --------------------------------------------------------------------------- Play


def test_bombs_and_the_rocket_may_be_played_on_any_trick() -> None:
    """Bomb / Rocket: a bomb may be played on any trick whatever was led and beats it; the
    rocket beats the bomb; after the rocket the others can only pass."""
    state = staged(["3334455", "66667", "BR89"])
    state = play(state, "33344")
    assert dd.legal_moves(state, 1) == [Pass(), dd.Play("6666")]
    state = play(state, "6666")
    assert dd.legal_moves(state, 2) == [Pass(), dd.Play("BR")]
    state = play(state, "BR")
    assert dd.legal_moves(state, 0) == [Pass()]
    with refused("doudizhu.rocket_unbeaten", "^nothing beats the rocket: you must pass$"):
        play(state, "55")
    state = play(state, "pass", "pass")
    assert state.turn == 2 and state.to_beat is None


def test_four_player_four_card_bomb_beats_a_pair_sequence() -> None:
    """Bomb [4-player]: a four-card bomb still beats any non-bomb combination."""
    state = staged(["334455K", "7777Q", "8", "9"])
    state = play(state, "334455", "7777")
    assert state.to_beat[0] == 1
    assert dd.legal_moves(state, 2) == [Pass()]


# --------------------------------------------------------------------------- combinations


@pytest.mark.parametrize("text, players, kind, rank", [
    # 5: the pair may be 2s; with 4 players a same-colour joker pair
    ("33322", 3, TRIO_PAIR, "3"), ("33322", 4, TRIO_PAIR, "3"), ("222RR", 4, TRIO_PAIR, "2"),
    # 9: 2s and one joker as extra cards
    ("3334442R", 3, TRIO_SEQUENCE_SINGLES, "4"), ("TTTJJJQQQ2B3", 3, TRIO_SEQUENCE_SINGLES, "Q"),
    # 10: only the trios need to be consecutive; 2s may be pairs
    ("333444JJ22", 3, TRIO_SEQUENCE_PAIRS, "4"), ("QQQKKKAAA3377BB", 4, TRIO_SEQUENCE_PAIRS, "A"),
    # 11 [4-player]: bombs of four to eight cards
    ("2222", 4, BOMB, "2"), ("3333333", 4, BOMB, "3"),
    # 13: 2s and one joker allowed as singles, 2s as a pair
    ("55553322", 3, QUADPLEX, "5"), ("KKKK2R", 3, QUADPLEX, "K"),
    # 12 [4-player]: the rocket is all four jokers
    ("BBRR", 4, ROCKET, "R"),
])
def test_combination_clauses(text: str, players: int, kind: str, rank: str) -> None:
    found = combo(text, players)
    assert (found.type, RANKS[found.rank]) == (kind, rank)


@pytest.mark.parametrize("text, players", [
    ("333BR", 3), ("333BR", 4),            # 5: black + red jokers are never a pair
    ("3334442BR", 3),                      # 9: one extra card too many (and both jokers)
    ("333444JJJJ", 3),                     # 10: the two pairs share a rank
    ("333444JJ33", 4),                     # 10: a pair shares the rank of a trio
    ("2222BR", 3),                         # 13: both jokers may not be used
    ("222233", 3),                         # 13: the two singles share a rank
    ("333444BR55", 4),                     # 10 [4-player]: BR is not a pair
    ("BBRR5", 4), ("BR", 4), ("BB", 3),    # 12: the rocket is exactly both / all four jokers
])
def test_combination_clause_restrictions(text: str, players: int) -> None:
    assert classify(text, players) is None


@pytest.mark.parametrize("new, old, players, result", [
    # same type and same number of cards, the ranking part decides
    ("4445556J", "3334442R", 3, True), ("3334442R", "4445556J", 3, False),
    ("444555JJ22", "333444KKAA", 3, True), ("333444KKAA", "444555JJ22", 3, False),
    ("666645", "55552R", 3, True), ("55552R", "666645", 3, False),
    ("66665533", "5555AAKK", 3, True),
    ("33322", "2223", 3, False), ("3456789", "34567", 3, False),
    ("334455", "33344", 3, False), ("444555", "33344456", 3, False),
    # quadplex is not a bomb: a bomb beats it, it never beats a bomb or a single
    ("3333", "222254", 3, True), ("222254", "3333", 3, False), ("222254", "3", 3, False),
    # 4-player bombs: size first, then rank
    ("3333333", "222222", 4, True), ("77777777", "66666666", 4, True),
    ("2222", "33333", 4, False), ("BBRR", "77777777", 4, True),
])
def test_comparison(new: str, old: str, players: int, result: bool) -> None:
    assert beats(combo(new, players), combo(old, players), players) is result


# --------------------------------------------------------------------------- Payments


def test_four_player_landlord_wins_and_collects_from_all_three() -> None:
    """Payments: landlord out first, every other player pays the bid."""
    state = staged(["33", "4", "5", "6"], landlord=0, bid=2)
    state = play(state, "33")
    assert state.phase == dd.ROUND_OVER and state.went_out == 0
    assert state.payments == (6, -2, -2, -2) and state.ledger == (6, -2, -2, -2)


def test_four_player_teammate_going_out_wins_for_the_whole_team() -> None:
    """Payments: any other player out first: the landlord pays every other player."""
    state = staged(["3K", "4", "5", "6"], landlord=0, bid=3)
    state = play(state, "3", "pass", "5")
    assert state.went_out == 2 and state.payments == (-9, 3, 3, 3)


def test_three_player_every_bomb_and_rocket_doubles_quadplex_does_not() -> None:
    """Doubling (3-player): every bomb and rocket doubles; a quadplex set is not a bomb."""
    state = staged(["3333BR44449", "55556", "KKKK2"], landlord=0, bid=1)
    state = play(state, "3333", "5555", "KKKK", "BR", "pass", "pass", "4444", "pass", "pass", "9")
    assert state.phase == dd.ROUND_OVER and state.went_out == 0
    assert state.doublings == ("3333", "5555", "KKKK", "BR", "4444")
    assert state.payments == (64, -32, -32)
    quad = staged(["555534", "7", "8"], landlord=0, bid=2)
    quad = play(quad, "555534")
    assert quad.doublings == () and quad.payments == (4, -2, -2)


def test_four_player_only_rockets_and_bombs_of_six_or_more_double() -> None:
    """Doubling (4-player): rockets and bombs of six or more cards; four and five do not."""
    state = staged(["4444K", "555559", "77777778", "22222222Q"], landlord=3, bid=1)
    state = replace(state, turn=0, trick=((3, ("3S",)),))
    state = play(state, "4444", "55555", "7777777", "22222222", "pass", "pass", "pass", "Q")
    assert state.doublings == ("7777777", "22222222")
    assert state.went_out == 3 and state.payments == (-4, -4, -4, 12)


# --------------------------------------------------------------------------- Overview


def test_stopping_the_series_ties_share_the_win() -> None:
    """Overview: the match ends when the players stop; the most overall wins (ties share)."""
    state = staged(["3K", "4", "5"], landlord=0, bid=2)
    state = play(state, "3", "4")
    assert state.ledger == (-4, 2, 2)
    over = dd.apply(state, 2, Stop())
    result = dd.outcome(over)
    assert result.winners == (1, 2) and not result.draw and result.scores == (-4, 2, 2)


@pytest.mark.parametrize("cards, players, rocket", [("333BR", 3, "(BR)"), ("333BR", 4, "(BBRR"),
                                                    ("33BR", 3, "(BR)")])
def test_a_black_and_a_red_joker_with_other_cards_is_explained(cards, players, rocket):
    from games.doudizhu.combinations import classify, explain_invalid

    assert classify(cards, players) is None
    message = said(explain_invalid(cards, players))
    assert "not a pair" in message and rocket in message
