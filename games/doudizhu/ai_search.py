"""Hard level: determinized (information-set) Monte Carlo over the unseen cards.

Each sample deals the cards this seat has not seen to the other seats (as many as each
holds; the kitty cards the landlord took stay with the landlord unless that rank has been
played since), then every candidate move is played out to the end of the round by the
normal policy for every seat, each deciding from its own `Seen`. The candidate with the most
wins over the same samples is chosen. The budget is deterministic: `samples` deals, each
played once per candidate; the number of deals follows a budget of cards played out
(`sample_count`), so that late decisions, whose playouts are short, sample more deals.
"""

from __future__ import annotations

import random

from games.doudizhu.ai_hand import Counts, hand_score, minus, split
from games.doudizhu.ai_policy import POWER, Seen, answers, choose_play
from games.doudizhu.combinations import Combination

#: Candidates searched at most (the normal policy's choice and the pass always included).
MAX_CANDIDATES = 6
#: Bounds on the deals sampled for one decision.
MIN_SAMPLES, MAX_SAMPLES = 8, 60


def candidates(seen: Seen, rng: random.Random) -> list[Combination | None]:
    """The moves worth searching: the normal choice, the pass, the plays that break the
    hand's split least, bombs and the rocket."""
    first = choose_play(seen, "normal", rng)
    pool: list[Combination | None] = [first]
    if seen.to_beat is None:
        extra = list(split(seen.hand, seen.players))
    else:
        pool.append(None)
        before = hand_score(seen.hand, seen.players)[0]

        def cost(combo: Combination) -> tuple[bool, int, int]:
            after = hand_score(minus(seen.hand, combo.ranks), seen.players)[0]
            return combo.type in POWER, after - before, combo.rank

        extra = sorted(answers(seen), key=cost)
    for combo in extra:
        if len(pool) >= MAX_CANDIDATES:
            break
        if combo not in pool:
            pool.append(combo)
    return pool


def sample_hands(seen: Seen, known: Counts, rng: random.Random) -> list[list[int]]:
    """Hands for every seat: ours, and the unseen cards shared out by count (`known`: cards
    certainly in the landlord's hand)."""
    hands = [[0] * 15 for _ in range(seen.players)]
    hands[seen.seat] = list(seen.hand)
    need = list(seen.cards_left)
    need[seen.seat] = 0
    rest = [rank for rank in range(15) for _ in range(seen.pool[rank] - known[rank])]
    if seen.landlord != seen.seat:
        for rank in range(15):
            hands[seen.landlord][rank] += known[rank]
        need[seen.landlord] -= sum(known)
    rng.shuffle(rest)
    at = 0
    for seat in range(seen.players):
        for rank in rest[at:at + need[seat]]:
            hands[seat][rank] += 1
        at += need[seat]
    return hands


def playout(seen: Seen, hands: list[list[int]], move: Combination | None,
            rng: random.Random, passes: int) -> bool:
    """Play `move` then the round to its end; True if `seen.seat`'s side wins."""
    players, landlord = seen.players, seen.landlord
    deck = [sum(hand[r] for hand in hands) for r in range(15)]  # the cards still held
    counts = [sum(h) for h in hands]
    turn, to_beat, winner = seen.seat, seen.to_beat, seen.winner
    while True:
        if move is None:
            passes += 1
            if passes >= players - 1:
                assert winner is not None  # a pass answers someone's play
                to_beat, passes, turn = None, 0, winner
            else:
                turn = (turn + 1) % players
        else:
            for rank in move.ranks:
                hands[turn][rank] -= 1
                deck[rank] -= 1
            counts[turn] -= move.size
            if counts[turn] == 0:
                return (turn == landlord) == (seen.seat == landlord)
            to_beat, winner, passes = move, turn, 0
            turn = (turn + 1) % players
        hand = tuple(hands[turn])
        pool = tuple(deck[r] - hand[r] for r in range(15))
        view = Seen(players, turn, landlord, hand, tuple(counts), pool, to_beat, winner)
        move = choose_play(view, "normal", rng)


def sample_count(budget: int, options: int, cards: int) -> int:
    """Deals to sample so that `options` playouts of each, of about `cards` cards, play about
    `budget` cards in all: fewer deals early in a round, more near its end."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, budget // (options * cards)))


def search(seen: Seen, known: Counts, passes: int, budget: int,
           rng: random.Random, samples: int | None = None) -> Combination | None:
    """The candidate with the most wins over the sampled deals (`samples` of them, or as
    many as `budget` allows)."""
    options = candidates(seen, rng)
    if len(options) == 1:
        return options[0]
    if samples is None:
        samples = sample_count(budget, len(options), sum(seen.cards_left))
    wins = [0] * len(options)
    for _ in range(samples):
        hands = sample_hands(seen, known, rng)
        for index, move in enumerate(options):
            copy = [list(h) for h in hands]
            wins[index] += playout(seen, copy, move, rng, passes)
    best = max(range(len(options)), key=lambda i: (wins[i], -i))
    return options[best]

