"""The Dou Dizhu computer players: legal moves everywhere, determinism, no peeking, and the
rule policy's judgement in set positions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.common import GameOver
from games.doudizhu.ai_hand import card_counts, split
from tests.games.doudizhu.positions import cards, play, staged

HARD_SAMPLES = 1  # the smallest search: the suite stays quick


def move(state: dd.State, level: str = "normal", seed: int = 0) -> dd.Move:
    return dd.choose_move(state, dd.current_seat(state), level, seed=seed, samples=HARD_SAMPLES)


def random_positions(players: int, count: int, seed: int) -> list[dd.State]:
    """Positions from seeded random play (auction, play and round-over phases)."""
    rng = random.Random(seed)
    found: list[dd.State] = []
    game = 0
    while len(found) < count:
        state = dd.new_game(players, seed=seed * 1000 + game)
        game += 1
        while state.phase != dd.ROUND_OVER and len(found) < count:
            if rng.random() < 0.3:
                found.append(state)
            seat = dd.current_seat(state)
            moves = dd.legal_moves(state, seat)
            plays = [m for m in moves if not isinstance(m, dd.Pass)]
            state = dd.apply(state, seat, rng.choice(plays if rng.random() < 0.6 and plays else moves))
        if state.phase == dd.ROUND_OVER and len(found) < count:
            found.append(state)
    return found


@pytest.mark.parametrize(("level", "players", "count"), [
    ("easy", 3, 250), ("easy", 4, 200), ("normal", 3, 250), ("normal", 4, 200),
    ("hard", 3, 200), ("hard", 4, 150),
])
def test_every_level_plays_a_legal_move(level, players, count):
    positions = random_positions(players, count, seed=players * 10 + len(level))
    phases = {state.phase for state in positions}
    assert phases == {dd.AUCTION, dd.PLAY, dd.ROUND_OVER}
    for index, state in enumerate(positions):
        seat = dd.current_seat(state)
        chosen = dd.choose_move(state, seat, level, seed=index, samples=HARD_SAMPLES)
        dd.apply(state, seat, chosen)  # raises if illegal
        assert chosen in dd.legal_moves(state, seat)


@pytest.mark.parametrize("level", dd.LEVELS)
def test_same_seed_same_move(level):
    for state in random_positions(3, 25, seed=7) + random_positions(4, 10, seed=8):
        seat = dd.current_seat(state)
        first = dd.choose_move(state, seat, level, seed=5, samples=2)
        assert dd.choose_move(state, seat, level, seed=5, samples=2) == first


def reshuffle_unseen(state: dd.State, seat: int, rng: random.Random) -> dd.State:
    """The same state with the cards `seat` cannot see dealt differently among the others
    (each keeps its count; the kitty too until the landlord takes it)."""
    others = [s for s in range(state.players) if s != seat]
    hidden = [card for s in others for card in state.hands[s]]
    kitty_hidden = state.landlord is None
    if kitty_hidden:
        hidden += list(state.kitty)
    rng.shuffle(hidden)
    hands = list(state.hands)
    for s in others:
        hands[s], hidden = dd.sort_cards(hidden[:len(state.hands[s])]), hidden[len(state.hands[s]):]
    kitty = tuple(hidden) if kitty_hidden else state.kitty
    return replace(state, hands=tuple(hands), kitty=kitty)


@pytest.mark.parametrize("players", [3, 4])
def test_no_peeking_at_unseen_cards(players):
    rng = random.Random(players)
    changed = 0
    for state in random_positions(players, 40, seed=players + 40):
        if state.phase == dd.ROUND_OVER:
            continue
        seat = dd.current_seat(state)
        other = reshuffle_unseen(state, seat, rng)
        changed += other.hands != state.hands
        for level in dd.LEVELS:
            assert (dd.choose_move(state, seat, level, seed=3, samples=2)
                    == dd.choose_move(other, seat, level, seed=3, samples=2))
    assert changed > 20


def test_between_rounds_the_computer_deals_on_and_refuses_a_finished_series():
    state = random_positions(3, 1, seed=1)[0]
    while state.phase != dd.ROUND_OVER:
        state = dd.apply(state, dd.current_seat(state), move(state))
    for seat in range(3):
        assert dd.choose_move(state, seat, "hard", seed=0) == dd.Next()
    over = dd.apply(state, 0, dd.Stop())
    with pytest.raises(GameOver):
        dd.choose_move(over, 0, "normal", seed=0)


def test_the_split_uses_few_combinations():
    combos = [str(c) for c in split(card_counts("3456789TTJJQQKKBR"), 3)]
    assert combos == ["3456789", "10 10 J J Q Q K K", "BR"]
    hand = card_counts("33344456789TJQ2")
    assert len(split(hand, 3)) <= 4
    assert sorted(r for c in split(hand, 3) for r in c.ranks) == [
        r for r in range(15) for _ in range(hand[r])]


def test_strong_hands_bid_and_weak_hands_pass():
    state = dd.new_game(3, seed=1)
    seat = dd.current_seat(state)
    strong = replace(state, hands=tuple(cards("3456789TJQKAA22BR") if s == seat else h
                                        for s, h in enumerate(state.hands)))
    weak = replace(state, hands=tuple(cards("3345667899TJJQKK5") if s == seat else h
                                      for s, h in enumerate(state.hands)))
    assert move(strong) == dd.Bid(3)
    assert move(weak) == dd.Bid(0)


def test_normal_goes_out_when_it_can():
    state = play(staged(["3", "456789TJQK", "A"], landlord=1, turn=1), "4")
    assert move(state) == dd.Play("A")


def test_normal_lets_a_winning_partner_play_stand():
    # seat 1 (peasant) leads a 9; seat 2 is the landlord; seat 0, the partner, could beat it
    state = play(staged(["3455KA", "9J", "667788QQ"], landlord=2, turn=1), "9", "pass")
    assert dd.current_seat(state) == 0
    assert move(state) == dd.Pass()


def test_normal_keeps_its_bomb_when_nothing_is_at_stake():
    state = play(staged(["4444678TJ", "3567899TTJQKA2", "3567899JQKA2"], landlord=0, turn=1),
                 "5", "pass")
    assert move(state) == dd.Play("6")  # answers cheaply, keeps the bomb
    state = play(staged(["4444678TJ", "3567899TTJQKA2", "3K"], landlord=1, turn=1), "A", "pass")
    assert move(state) == dd.Pass()  # many cards left on every side: no bomb on an ace


def test_normal_bombs_a_landlord_about_to_go_out():
    state = play(staged(["44447", "AK", "356"], landlord=1, turn=1), "K", "pass")
    assert move(state) == dd.Play("4444")


def test_normal_leads_the_unbeatable_combination_first_when_two_remain():
    # the landlord holds 2 and 33: the 2 cannot be beaten (both jokers were played, and
    # nobody holds enough cards for a bomb)
    state = staged(["233", "456", "8J"], landlord=0)
    state = replace(state, played=cards("BR"))
    assert move(state) == dd.Play("2")


@pytest.mark.parametrize("players", [3, 4])
def test_sampled_deals_agree_with_what_the_seat_knows(players):
    from games.doudizhu.ai import kitty_kept, seen_of
    from games.doudizhu.ai_search import sample_hands

    state = dd.new_game(players, seed=11)
    while state.phase == dd.AUCTION:
        state = dd.apply(state, dd.current_seat(state), move(state))
    for _ in range(7):
        state = dd.apply(state, dd.current_seat(state), move(state))
    seat = next(s for s in range(players) if s not in (state.landlord, dd.current_seat(state)))
    mine = dd.view(state, seat)
    seen, known = seen_of(mine), kitty_kept(mine)
    assert sum(known) > 0
    rng = random.Random(0)
    for _ in range(20):
        hands = sample_hands(seen, known, rng)
        assert [sum(hand) for hand in hands] == list(mine.hand_counts)
        assert tuple(hands[seat]) == card_counts(mine.hand)
        others = [sum(hand[r] for s, hand in enumerate(hands) if s != seat) for r in range(15)]
        assert tuple(others) == seen.pool
        assert all(hands[state.landlord][r] >= known[r] for r in range(15))


def test_a_peasant_before_the_landlord_tops_a_partners_low_card():
    # seat 1 leads a 4; seat 2 plays before the landlord (seat 0): it tops with its lone king
    state = play(staged(["3456AA22", "4T", "56789K"], landlord=0, turn=1), "4")
    assert move(state) == dd.Play("K")
    # after a queen (not low), or with the landlord already passed, it lets the partner win
    assert move(play(staged(["3456AA22", "4Q", "56789K"], landlord=0, turn=1), "Q")) == dd.Pass()
    state = play(staged(["3456AA22", "56789K", "4T"], landlord=0, turn=2), "4", "pass")
    assert move(state) == dd.Pass()


def test_a_peasant_feeds_its_partner_about_to_go_out():
    # seat 1 (peasant) leads; seat 2, its partner, holds two cards: lead the lowest pair
    state = staged(["3456789TJQKA2", "4499JQ", "KK"], landlord=0, turn=1)
    assert move(state) == dd.Play("44")
