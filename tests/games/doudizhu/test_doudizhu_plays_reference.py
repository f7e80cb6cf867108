"""The fast `legal_plays` against the first one (tests/games/doudizhu/reference_plays.py): the
same plays in the same order, leads and answers, 3 and 4 players, on many seeded random hands
(full hands, small ones, and hands crowded with trios and fours, where kickers multiply)."""

from __future__ import annotations

import random

import pytest

from games.doudizhu.combinations import (
    RANKS,
    TYPES,
    Combination,
    classify,
    legal_plays,
    ranks_text,
)
from tests.games.doudizhu.reference_plays import reference_legal_plays

HAND = {3: 20, 4: 33}


def deck(players: int) -> list[str]:
    """Every card of the game: one deck and two jokers, twice with 4 players."""
    cards = [rank + suit for rank in RANKS[:13] for suit in "SHDC"] + ["BJ", "RJ"]
    return cards * (players - 2)


def crowded(rng: random.Random, players: int) -> list[str]:
    """A hand of mostly trios and fours (with 4 players up to 8 of a rank), and some jokers."""
    room = HAND[players] - 2
    cards: list[str] = []
    for rank in rng.sample(RANKS[:13], 13):
        count = min(rng.randint(2, 4 * (players - 2)), room - len(cards))
        cards += [rank + "S"] * count
    jokers = ["BJ", "RJ"] * (players - 2)
    return cards + rng.sample(jokers, rng.randint(0, len(jokers)))


def hands(players: int, count: int) -> list[list[str]]:
    rng = random.Random(players * 1000 + count)
    cards = deck(players)
    out = []
    for n in range(count):
        if n % 3 == 0:
            out.append(crowded(rng, players))
        else:
            out.append(rng.sample(cards, rng.randint(1, HAND[players]) if n % 3 == 1 else HAND[players]))
    return out


def plays_to_beat(rng: random.Random, players: int, plays: list[Combination]) -> list[Combination]:
    """One play of each type in `plays`, and a few more at random."""
    by_type: dict[str, list[Combination]] = {}
    for play in plays:
        by_type.setdefault(play.type, []).append(play)
    picked = [rng.choice(group) for group in by_type.values()]
    return picked + rng.sample(plays, min(3, len(plays)))


@pytest.mark.parametrize("players", [3, 4])
def test_the_same_plays_in_the_same_order_as_the_reference(players: int) -> None:
    rng = random.Random(players)
    seen_types: set[str] = set()
    all_hands = hands(players, 240)
    for hand, other in zip(all_hands, all_hands[1:] + all_hands[:1]):
        leads = legal_plays(hand, None, players)
        assert leads == reference_legal_plays(hand, None, players), hand
        seen_types.update(play.type for play in leads)
        # the other hand's plays (any type) and the hand's own, as the engine passes them
        olds = plays_to_beat(rng, players, reference_legal_plays(other, None, players))
        olds += plays_to_beat(rng, players, leads)
        for old in olds:
            to_beat = classify(ranks_text(old.ranks), players)
            assert to_beat == old
            assert (legal_plays(hand, to_beat, players)
                    == reference_legal_plays(hand, to_beat, players)), (hand, str(to_beat))
    allowed = [kind for kind in TYPES if players == 3 or kind not in
               ("trio_single", "trio_sequence_singles", "quadplex")]
    assert seen_types == set(allowed)  # every type was led, so every type was answered


def test_three_player_types_answered_in_a_four_player_game_by_bombs_and_rocket_only() -> None:
    hand = "3334445556666BBRR"
    for old in ("4443", "55566678", "777734"):
        to_beat = classify(old, 3)
        assert to_beat is not None
        plays = legal_plays(hand, to_beat, 4)
        assert plays == reference_legal_plays(hand, to_beat, 4)
        assert [play.type for play in plays] == ["bomb", "rocket"]


def test_the_hand_may_be_cards_ranks_or_rank_text() -> None:
    expected = legal_plays(["3S", "3H", "3D", "4C", "TS", "TH"], None, 3)
    assert legal_plays("33341010", None, 3) == expected
    assert legal_plays(["3", "3", "3", "4", "t", "T"], None, 3) == expected
    with pytest.raises(ValueError):
        legal_plays(["3S", "XX"], None, 3)
    with pytest.raises(ValueError):
        legal_plays(["3S", ""], None, 3)
