"""Dou Dizhu legal plays, ours against rlcard's, in one run on the same hands.

3 players: seeded deals, the landlord's 20 cards (hand + kitty). Four cases, interleaved
(every round runs each once, in a rotating order, so load hits all of them alike):

- our lead: `legal_plays(hand, None, 3)`, the hand as the engine holds it (`7H`, `BJ`...);
- rlcard's lead: `DoudizhuJudger.playable_cards_from_hand`, the hand as its sorted rank string;
- our answer: `legal_plays(hand, classify(previous), 3)`, as the engine does it (the previous
  play from its ranks, as rlcard gets it);
- rlcard's answer: `rlcard.games.doudizhu.utils.get_gt_cards`, the hand as rlcard's `Card`s and
  the previous play in its notation (sorted rank characters, `33344`).

The previous plays: another seat's legal leads that rlcard also knows, one type drawn at
random among those the seat could lead, then one play of that type (so chains and kickers are
as common as singles). 4 players (33-card hands, ours only: rlcard has no 4-player game): our
lead and answer the same way. Prints median and p99 per case, of the wall clock and of the
thread's CPU time (which leaves out other processes' load on a shared machine). The set-up's
objects are frozen out of the garbage collector first, so a full collection during the loop
does not walk rlcard's tables. `--rounds N` samples per case;
`--reference` also times the first, slower `legal_plays` kept in the tests
(tests/games/doudizhu/reference_plays.py) as "old lead" and "old answer".
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import games.doudizhu as dd
from games.doudizhu.combinations import (
    Combination,
    classify,
    legal_plays,
    rank_index,
    ranks_text,
    to_ranks,
)

Case = Callable[[int], object]
Generator = Callable[[tuple[str, ...], "Combination | None", int], list[Combination]]


def landlord_hand(players: int, seed: int) -> tuple[str, ...]:
    state = dd.new_game(players, seed=seed)
    return state.hands[0] + state.kitty


def previous_play(players: int, seed: int, known: set[str] | None) -> Combination:
    """A lead of seat 1 in deal `seed`: a type at random, then a play of it."""
    hand = dd.new_game(players, seed=seed).hands[1]
    plays = [p for p in legal_plays(hand, None, players)
             if known is None or ranks_text(p.key) in known]
    by_type: dict[str, list[Combination]] = {}
    for play in plays:
        by_type.setdefault(play.type, []).append(play)
    rng = random.Random(seed)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def rlcard_cases(hands: list[tuple[str, ...]], olds: list[Combination]) -> dict[str, Case] | None:
    """rlcard's lead and answer on the same hands, inputs in its own notation."""
    try:
        from rlcard.games.base import Card
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import get_gt_cards
    except ImportError:
        return None

    def card(code: str) -> Any:
        return Card(code, "") if code in ("BJ", "RJ") else Card(code[1], code[0])

    texts = [ranks_text(to_ranks(hand)) for hand in hands]
    players = [SimpleNamespace(current_hand=[card(c) for c in sorted(hand, key=rank_index)])
               for hand in hands]
    played = [SimpleNamespace(played_cards=ranks_text(old.key)) for old in olds]
    lead = DoudizhuJudger.playable_cards_from_hand
    return {"rlcard lead": lambda i: lead(texts[i]),
            "rlcard answer": lambda i: get_gt_cards(players[i], played[i])}


def generator_cases(who: str, plays: Generator, hands: list[tuple[str, ...]], texts: list[str],
                    players: int) -> dict[str, Case]:
    """A generator's lead and answer (to the previous play given by its ranks) on the hands."""
    def lead(index: int) -> object:
        return plays(hands[index], None, players)

    def answer(index: int) -> object:
        return plays(hands[index], classify(texts[index], players), players)

    return {f"{who} lead": lead, f"{who} answer": answer}


def reference() -> Generator:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.games.doudizhu.reference_plays import reference_legal_plays

    return reference_legal_plays


def known_plays() -> set[str] | None:
    try:
        from rlcard.games.doudizhu.utils import CARD_TYPE
    except ImportError:
        return None
    return CARD_TYPE[2]


Samples = dict[str, tuple[list[float], list[float]]]


def measure(cases: dict[str, Case], count: int, rounds: int) -> Samples:
    """`rounds` (wall, CPU) samples per case; each round runs every case once on the same deal,
    starting with a different case each round."""
    names = list(cases)
    samples: Samples = {name: ([], []) for name in names}
    wall, cpu = time.perf_counter, time.thread_time
    for n in range(rounds):
        index = n % count
        shift = n % len(names)
        for name in names[shift:] + names[:shift]:
            func = cases[name]
            cpu_start = cpu()
            start = wall()
            func(index)
            walls, cpus = samples[name]
            walls.append(wall() - start)
            cpus.append(cpu() - cpu_start)
    return samples


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    median = values[len(values) // 2]
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"median {median * 1e6:7.1f} us  p99 {p99 * 1e6:7.1f} us"


def report(title: str, samples: Samples) -> None:
    """Wall clock, and this thread's CPU time (the other processes' load left out; it includes
    the ~0.5 us of reading that clock)."""
    print(title)
    for name, (walls, cpus) in samples.items():
        print(f"  {name:<14} wall {quantiles(walls)}   cpu {quantiles(cpus)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="seeded deals (hands) per game")
    parser.add_argument("--rounds", type=int, default=4000, help="samples per case")
    parser.add_argument("--reference", action="store_true",
                        help="also time the first legal_plays, kept in the tests")
    args = parser.parse_args()
    old_plays = reference() if args.reference else None
    known = known_plays()
    if known is None:
        print("rlcard is not installed (pip install -e '.[bench]'): measuring ours only")
    for players in (3, 4):
        seeds = range(1, args.deals + 1)
        hands = [landlord_hand(players, seed) for seed in seeds]
        olds = [previous_play(players, seed, known if players == 3 else None) for seed in seeds]
        texts = [ranks_text(old.key) for old in olds]
        cases = generator_cases("our", legal_plays, hands, texts, players)
        if old_plays is not None:
            cases.update(generator_cases("old", old_plays, hands, texts, players))
        if players == 3 and known is not None:
            cases.update(rlcard_cases(hands, olds) or {})
        order = [f"{who} {what}" for what in ("lead", "answer") for who in ("our", "old", "rlcard")]
        cases = {name: cases[name] for name in order if name in cases}
        gc.collect()
        gc.freeze()  # the set-up's objects, rlcard's tables among them, out of the collector's walks
        samples = measure(cases, len(hands), args.rounds)
        report(f"{players} players, {len(hands[0])}-card landlord hands, {len(hands)} deals, "
               f"{args.rounds} samples per case:", samples)


if __name__ == "__main__":
    main()
