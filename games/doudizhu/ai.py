"""Dou Dizhu computer players: `choose_move(state, seat, level, *, seed)`.

The computer decides from `view(state, seat)` only: its own hand, the cards played, how many
cards each seat holds, the bids, the kitty the landlord took and the current trick.

- easy: the rule policy (`ai_policy`) without counting cards, a random choice a quarter of
  the time, noisy bids.
- normal: the rule policy: split the hand into the fewest combinations, keep bombs, follow
  the partner, count the cards seen, lead what opponents cannot follow near the end.
- hard: normal's bids, and in the play a determinized Monte Carlo search (`ai_search`) over
  sampled deals of the unseen cards, each candidate played out by the normal policy. The
  budget is deterministic: `HARD_BUDGET` cards played out per decision (deals sampled =
  budget / (candidates x cards in hands), between 8 and 60), sized so that a decision
  stays under 2 s at the 99th percentile on the project's 2-core benchmark machine
  (`benchmarks/bench_ai_doudizhu.py` measures it).

The engine has no doubling step (bombs and the rocket double the stake when played), so the
computer acts in the auction, in the play, and between rounds.

Between rounds the computer always answers `next`: ending the series is left to the people.
"""

from __future__ import annotations

import random

from games.common import GameOver, NotYourTurn
from games.doudizhu.ai_hand import Counts, card_counts, deck_counts
from games.doudizhu.ai_policy import Seen, bid_amount, choose_play
from games.doudizhu.ai_search import search
from games.doudizhu.combinations import Combination, classify, ranks_text
from games.doudizhu.engine import (
    AUCTION, OVER, ROUND_OVER, Bid, Move, Next, Pass, Play, State, View, view,
)

LEVELS = ("easy", "normal", "hard")
#: Cards the hard level plays out per decision (over all candidates and sampled deals).
HARD_BUDGET = 6_000
BID_NOISE = {"easy": 0.5, "normal": 0.0, "hard": 0.0}


def choose_move(state: State, seat: int, level: str, *, seed: int,
                samples: int | None = None) -> Move:
    """The move `level` plays for `seat`; the same view, level and seed give the same move.

    `samples` fixes the number of deals the hard level samples (tests use a small one).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
    seen = view(state, seat)
    if seen.phase == OVER:
        raise GameOver("The series is over.")
    if seen.phase == ROUND_OVER:
        return Next()
    if seen.turn != seat:
        raise NotYourTurn(f"it is not seat {seat}'s turn")
    rng = random.Random(f"{seed}|{level}|{seat}|{seen.round_no}|{len(seen.bids)}|{len(seen.played)}"
                        f"|{len(seen.trick)}")
    if seen.phase == AUCTION:
        hand = card_counts(seen.hand)
        return Bid(bid_amount(hand, seen.players, seen.bid, BID_NOISE[level], rng))
    combo = _play(seen, level, rng, samples)
    return Pass() if combo is None else Play(ranks_text(combo.key))


def _play(seen: View, level: str, rng: random.Random, samples: int | None) -> Combination | None:
    situation = seen_of(seen)
    if level != "hard":
        return choose_play(situation, level, rng)
    return search(situation, kitty_kept(seen), passes_since_play(seen), HARD_BUDGET, rng, samples)


def seen_of(seen: View) -> Seen:
    """The policy's `Seen` from a seat's view of the play."""
    assert seen.seat is not None and seen.landlord is not None  # a seat's view, in the play
    hand = card_counts(seen.hand)
    played = card_counts(seen.played)
    deck = deck_counts(seen.players)
    pool = tuple(deck[r] - hand[r] - played[r] for r in range(15))
    to_beat = classify(seen.to_beat.cards, seen.players) if seen.to_beat else None
    return Seen(seen.players, seen.seat, seen.landlord, hand, seen.hand_counts, pool, to_beat,
                seen.to_beat.seat if seen.to_beat else None)


def kitty_kept(seen: View) -> Counts:
    """Kitty cards the landlord surely still holds (no card of that rank played since)."""
    kitty = card_counts(seen.kitty or ())
    played = card_counts(seen.played)
    if seen.landlord == seen.seat:
        return (0,) * 15
    return tuple(max(0, kitty[r] - played[r]) for r in range(15))


def passes_since_play(seen: View) -> int:
    """Passes since the play to beat."""
    count = 0
    for entry in reversed(seen.trick):
        if entry.cards:
            break
        count += 1
    return count
