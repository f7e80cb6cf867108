"""The first `legal_plays` (games/doudizhu/combinations.py as of 0cfb9b9), kept as a slow and
simple reference for the fast one: it enumerates every type from the hand's rank counts, keeps
one play per rank multiset and sorts at the end."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations as choose

from games.doudizhu.combinations import (
    ACE,
    BLACK,
    BOMB,
    MIN_CHAIN,
    PAIR,
    PAIR_SEQUENCE,
    QUADPLEX,
    RED,
    ROCKET,
    SEQUENCE,
    SINGLE,
    THREE_PLAYER_ONLY,
    TRIO,
    TRIO_PAIR,
    TRIO_SEQUENCE,
    TRIO_SEQUENCE_PAIRS,
    TRIO_SEQUENCE_SINGLES,
    TRIO_SINGLE,
    TWO,
    TYPES,
    Combination,
    _chain_ranks,
    _joker_pair_ok,
    _make,
    beats,
    counts_of,
    to_ranks,
)


def _runs(counts: list[int], need: int, min_length: int) -> Iterable[tuple[int, int]]:
    """(top, length) of every chain of ranks 3..A with at least `need` cards each."""
    for top in range(ACE + 1):
        length = 0
        while length <= top and counts[top - length] >= need:
            length += 1
            if length >= min_length:
                yield top, length


def reference_legal_plays(hand: Iterable[str] | str, to_beat: Combination | None = None,
                          players: int = 3) -> list[Combination]:
    counts = counts_of(to_ranks(hand))
    found: dict[tuple[int, ...], Combination] = {}

    def want(kind: str, size: int | None = None) -> bool:
        if players == 4 and kind in THREE_PLAYER_ONLY:
            return False
        if to_beat is None or kind in (BOMB, ROCKET):
            return True
        return (to_beat.type not in (BOMB, ROCKET) and kind == to_beat.type
                and (size is None or size == to_beat.size))

    def add(combo: Combination) -> None:
        if to_beat is None or beats(combo, to_beat, players):
            found.setdefault(combo.key, combo)

    normal = range(TWO + 1)
    if want(SINGLE, 1):
        for rank, count in enumerate(counts):
            if count:
                add(Combination(SINGLE, rank, 1, (rank,)))
    if want(PAIR, 2):
        for rank, count in enumerate(counts):
            if count >= 2 and _joker_pair_ok(rank, players):
                add(Combination(PAIR, rank, 1, (rank, rank)))
    if want(TRIO, 3):
        for rank in normal:
            if counts[rank] >= 3:
                add(Combination(TRIO, rank, 1, (rank,) * 3))
    if want(BOMB):
        for rank in normal:
            for size in range(4, (counts[rank] if players == 4 else min(4, counts[rank])) + 1):
                add(Combination(BOMB, rank, 1, (rank,) * size))
    if want(ROCKET):
        if players == 3 and counts[BLACK] and counts[RED]:
            add(Combination(ROCKET, RED, 1, (BLACK, RED)))
        if players == 4 and counts[BLACK] == 2 and counts[RED] == 2:
            add(Combination(ROCKET, RED, 1, (BLACK, BLACK, RED, RED)))
    for kind, unit in ((SEQUENCE, 1), (PAIR_SEQUENCE, 2), (TRIO_SEQUENCE, 3)):
        if want(kind):
            for top, length in _runs(counts, unit, MIN_CHAIN[kind]):
                if to_beat is None or length * unit == to_beat.size:
                    add(_make(kind, top, length, unit, (), 1))
    # trios and trio chains with kickers
    for width, single_kind, chain_kind in ((1, TRIO_SINGLE, TRIO_SEQUENCE_SINGLES),
                                           (2, TRIO_PAIR, TRIO_SEQUENCE_PAIRS)):
        chains: list[tuple[str, int, int]] = []
        if want(single_kind, 3 + width):
            chains += [(single_kind, rank, 1) for rank in normal if counts[rank] >= 3]
        if want(chain_kind):
            chains += [(chain_kind, top, length) for top, length in _runs(counts, 3, 2)
                       if to_beat is None or length * (3 + width) == to_beat.size]
        for kind, top, length in chains:
            main = set(_chain_ranks(top, length))
            pool = [rank for rank, count in enumerate(counts)
                    if count >= width and rank not in main and (width == 1 or _joker_pair_ok(rank, players))]
            for kickers in choose(pool, length):
                if width == 1 and BLACK in kickers and RED in kickers:
                    continue
                add(_make(kind, top, length, 3, kickers, width))
    if want(QUADPLEX):
        for four in normal:
            if counts[four] < 4:
                continue
            for width in (1, 2):
                if to_beat is not None and to_beat.size != 4 + 2 * width:
                    continue
                pool = [rank for rank, count in enumerate(counts)
                        if count >= width and rank != four and (width == 1 or _joker_pair_ok(rank, players))]
                for kickers in choose(pool, 2):
                    if width == 1 and kickers == (BLACK, RED):
                        continue
                    add(_make(QUADPLEX, four, 1, 4, kickers, width))
    order = {kind: index for index, kind in enumerate(TYPES)}
    return sorted(found.values(), key=lambda c: (order[c.type], c.size, c.rank, c.ranks))
