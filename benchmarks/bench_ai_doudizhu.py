"""Strength and speed of the Dou Dizhu computer players.

- 3 players: a level against rlcard's rule-based agent (`DouDizhuRuleAgentV1` from
  `rlcard.models.doudizhu_rule_models`; install the `bench` extra). Every deal is played twice
  with the same cards and the same landlord seat (the strongest hand by our bidding points):
  once with the level as landlord against two rlcard peasants, once with rlcard as landlord
  against two peasants of the level. The win rate is the mean of the two roles.
- 4 players: hard against normal, the same way (hard landlord against three normal
  peasants, then normal landlord against three hard peasants).

Prints win rates with 95% Wilson intervals, the counts, and the level's time per decision
(p50/p99, wall clock and CPU). `--games N` deals per match-up.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

import games.doudizhu as dd
from games.doudizhu.ai_hand import card_counts
from games.doudizhu.ai_policy import strength
from games.doudizhu.combinations import legal_plays, ranks_text, to_ranks

Agent = Callable[[dd.State, int, list[tuple[int, str]]], dd.Move]


def wilson(wins: float, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return 0.0, 0.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def crowned(players: int, seed: int) -> dd.State:
    """A seeded deal whose strongest hand (by bidding points) bids 3 and becomes landlord."""
    state = dd.new_game(players, seed=seed)
    landlord = max(range(players), key=lambda s: (strength(card_counts(state.hands[s]), players), -s))
    while state.phase == dd.AUCTION:
        seat = dd.current_seat(state)
        state = dd.apply(state, seat, dd.Bid(3 if seat == landlord else 0))
    return state


class Level:
    """Our computer at one level, timing its decisions."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, state: dd.State, seat: int, trace: list[tuple[int, str]]) -> dd.Move:
        wall, cpu = time.perf_counter(), time.process_time()
        move = dd.choose_move(state, seat, self.level, seed=state.seed * 7 + len(trace))
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.process_time() - cpu)
        return move


class RlcardRule:
    """rlcard's rule agent V1, fed rlcard's raw observation built from our state."""

    def __init__(self) -> None:
        import numpy as np
        from rlcard.games.doudizhu.utils import CARD_TYPE
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self.np = np
        self.known = CARD_TYPE[2]
        self.agent = DouDizhuRuleAgentV1()

    def __call__(self, state: dd.State, seat: int, trace: list[tuple[int, str]]) -> dd.Move:
        hand = ranks_text(to_ranks(state.hands[seat]))
        old = dd.classify(state.to_beat[1], 3) if state.to_beat else None
        plays = [ranks_text(c.key) for c in legal_plays(state.hands[seat], old, 3)]
        actions = (["pass"] if old else []) + [p for p in plays if p in self.known]
        raw = {"trace": trace, "current_hand": hand, "actions": actions,
               "landlord": state.landlord, "self": seat}
        action = self.agent.step({"raw_obs": raw})
        if action == "pass":
            return dd.Pass()
        if action not in plays:  # never seen: its lead rule always plays from its hand
            raise AssertionError(f"rlcard chose {action!r}, not legal here")
        return dd.Play(action)


def play_round(state: dd.State, agents: list[Agent]) -> dd.State:
    trace: list[tuple[int, str]] = []
    while state.phase == dd.PLAY:
        seat = dd.current_seat(state)
        move = agents[seat](state, seat, trace)
        trace.append((seat, "pass" if isinstance(move, dd.Pass) else move.ranks))
        state = dd.apply(state, seat, move)
    return state


def match(players: int, ours: Level, theirs: Agent, games: int, first_seed: int,
          until: float) -> tuple[int, int, int]:
    """(deals played, wins as landlord, wins as peasants) of `ours` over up to `games` deals
    played both ways, starting no deal after the `until` monotonic time."""
    as_landlord = as_peasants = done = 0
    for seed in range(first_seed, first_seed + games):
        if time.monotonic() > until:
            break
        random.seed(seed)
        if isinstance(theirs, RlcardRule):
            theirs.np.random.seed(seed)  # its fallback picks at random
        start = crowned(players, seed)
        landlord = start.landlord
        end = play_round(start, [ours if s == landlord else theirs for s in range(players)])
        as_landlord += end.went_out == landlord
        end = play_round(start, [theirs if s == landlord else ours for s in range(players)])
        as_peasants += end.went_out != landlord
        done += 1
        if done % 5 == 0:
            print(f"  ... {done} deals: {as_landlord} won as landlord, {as_peasants} as peasants",
                  file=sys.stderr, flush=True)
    return done, as_landlord, as_peasants


def report(title: str, ours: Level, result: tuple[int, int, int]) -> None:
    games, *wins = result
    total = 2 * games
    rate = sum(wins) / total
    low, high = wilson(sum(wins), total)
    print(f"{title}: win rate {rate:.3f} (95% {low:.3f}-{high:.3f}) over {games} deals x 2 roles; "
          f"as landlord {wins[0]}/{games}, as peasants {wins[1]}/{games}")
    for name, samples in (("wall", ours.wall), ("cpu", ours.cpu)):
        ordered = sorted(samples)
        if ordered:
            p50 = ordered[len(ordered) // 2]
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            print(f"    {ours.level} time per decision ({name}): p50 {p50 * 1000:.1f} ms, "
                  f"p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms, n={len(ordered)}")


def deadline(minutes: float | None) -> float:
    return math.inf if minutes is None else time.monotonic() + 60 * minutes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per match-up")
    parser.add_argument("--hard-games", type=int, default=None, help="deals for the hard match-ups")
    parser.add_argument("--only", choices=("normal", "hard", "four"), action="append")
    parser.add_argument("--minutes", type=float, default=None,
                        help="start no new deal of a match-up after this many minutes of it")
    args = parser.parse_args()
    hard_games = args.hard_games or args.games
    only = set(args.only or ("normal", "hard", "four"))
    try:
        rule: Agent | None = RlcardRule()
    except ImportError:
        rule = None
        print("rlcard is not installed (pip install -e '.[bench]'): skipping the 3-player match-ups")
    if rule is not None:
        for level, games in (("normal", args.games), ("hard", hard_games)):
            if level in only:
                ours = Level(level)
                result = match(3, ours, rule, games, 1, deadline(args.minutes))
                report(f"3 players, {level} vs rlcard rule agent V1", ours, result)
    if "four" in only:
        ours = Level("hard")
        result = match(4, ours, Level("normal"), hard_games, 1, deadline(args.minutes))
        report("4 players, hard vs normal", ours, result)


if __name__ == "__main__":
    main()
