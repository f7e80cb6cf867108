"""Hand arithmetic for the Dou Dizhu computer: rank counts, the split of a hand into the
fewest combinations, and whether anybody could still beat a play.

A hand is a tuple of 15 counts, one per rank of `RANKS` (3 .. 2, black joker, red joker).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from games.doudizhu.combinations import (
    ACE,
    BLACK,
    BOMB,
    MIN_CHAIN,
    PAIR,
    PAIR_SEQUENCE,
    RED,
    ROCKET,
    SEQUENCE,
    SINGLE,
    TRIO,
    TRIO_PAIR,
    TRIO_SEQUENCE,
    TRIO_SEQUENCE_PAIRS,
    TRIO_SEQUENCE_SINGLES,
    TRIO_SINGLE,
    TWO,
    Combination,
    legal_plays,
    rank_index,
    ranks_text,
)
from games.doudizhu.engine import full_deck

Counts = tuple[int, ...]
#: At most this many chain choices are tried when splitting one hand (the search is exhaustive
#: for ordinary hands; the cap only bounds freak 4-player hands, deterministically).
SPLIT_NODES = 3000
_CHAIN_KINDS = ((1, SEQUENCE), (2, PAIR_SEQUENCE), (3, TRIO_SEQUENCE))
_UNIT_KIND = dict(_CHAIN_KINDS)


def counts(ranks: Iterable[int]) -> Counts:
    out = [0] * 15
    for rank in ranks:
        out[rank] += 1
    return tuple(out)


def card_counts(cards: Iterable[str]) -> Counts:
    """Counts of cards given as strings (`7H`, `BJ`) or rank characters."""
    return counts(rank_index(card) for card in cards)


def deck_counts(players: int) -> Counts:
    return card_counts(full_deck(players))


def minus(hand: Counts, ranks: Iterable[int]) -> Counts:
    out = list(hand)
    for rank in ranks:
        out[rank] -= 1
    return tuple(out)


def size(hand: Counts) -> int:
    return sum(hand)


# --------------------------------------------------------------------------- the split


def _combo(kind: str, top: int, length: int, unit: int,
           kickers: tuple[int, ...] = (), width: int = 1) -> Combination:
    main = [rank for rank in range(top - length + 1, top + 1) for _ in range(unit)]
    extra = [rank for rank in sorted(kickers) for _ in range(width)]
    return Combination(kind, top, length, tuple(main + extra))


def _kicker_kind(length: int, width: int) -> str:
    if length == 1:
        return TRIO_SINGLE if width == 1 else TRIO_PAIR
    return TRIO_SEQUENCE_SINGLES if width == 1 else TRIO_SEQUENCE_PAIRS


def _kickers(rest: list[int], players: int) -> tuple[list[int], list[int]]:
    """The singles and pairs left (a joker pair only with 4 players)."""
    singles = [rank for rank in range(15) if rest[rank] == 1]
    pairs = [rank for rank in range(15) if rest[rank] == 2 and (rank < BLACK or players == 4)]
    return singles, pairs


def _groups(rest: list[int], chains: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """(length, top) of the trios and trio chains, shortest first: each takes kickers."""
    trios = [(1, rank) for rank in range(TWO + 1) if rest[rank] == 3]
    return sorted([(length, top) for unit, top, length in chains if unit == 3] + trios)


def _takes_singles(singles: list[int], length: int, players: int) -> bool:
    """A trio group carries singles (3 players, enough of them, the lowest below a 2)."""
    return players == 3 and len(singles) >= length and singles[0] < TWO


def _score(rest: list[int], chains: list[tuple[int, int, int]], players: int) -> tuple[int, int]:
    """(number of combinations, singles left) for these chains and the rest: lower is better.
    Trios and trio chains carry the lowest singles, else the lowest pairs."""
    singles, pairs = _kickers(rest, players)
    free_singles, free_pairs = len(singles), len(pairs)
    groups = _groups(rest, chains)
    for length, _ in groups:
        if _takes_singles(singles[len(singles) - free_singles:], length, players):
            free_singles -= length
        elif free_pairs >= length:
            free_pairs -= length
    plain = sum(1 for unit, _, _ in chains if unit != 3)
    return plain + len(groups) + free_singles + free_pairs, free_singles


def _build(rest: list[int], chains: list[tuple[int, int, int]], players: int) -> list[Combination]:
    """The combinations `_score` counted."""
    singles, pairs = _kickers(rest, players)
    combos = [_combo(_UNIT_KIND[unit], top, length, unit)
              for unit, top, length in chains if unit != 3]
    for length, top in _groups(rest, chains):
        if _takes_singles(singles, length, players):
            kickers, singles = tuple(singles[:length]), singles[length:]
            combos.append(_combo(_kicker_kind(length, 1), top, length, 3, kickers, 1))
        elif len(pairs) >= length:
            kickers, pairs = tuple(pairs[:length]), pairs[length:]
            combos.append(_combo(_kicker_kind(length, 2), top, length, 3, kickers, 2))
        else:
            combos.append(_combo(TRIO if length == 1 else TRIO_SEQUENCE, top, length, 3))
    combos += [_combo(PAIR, rank, 1, 2) for rank in pairs]
    combos += [_combo(SINGLE, rank, 1, 1) for rank in singles]
    return combos


def _chain_options(rest: list[int], start: int) -> list[tuple[int, int, int]]:
    """(unit, top, length) of every chain whose lowest rank is `start`, in a fixed order."""
    options = []
    for unit, kind in _CHAIN_KINDS:
        length = 0
        while start + length <= ACE and rest[start + length] >= unit:
            length += 1
            if length >= MIN_CHAIN[kind]:
                options.append((unit, start + length - 1, length))
    return options


@lru_cache(maxsize=20_000)  # a few kB an entry: tens of MB at most per worker process
def split(hand: Counts, players: int) -> tuple[Combination, ...]:
    """The hand as the fewest combinations (then the fewest singles): rocket and bombs kept
    whole, the chains chosen by an exhaustive search (capped at `SPLIT_NODES`), trios carrying
    the lowest singles or pairs. Sorted low to high by rank, bombs and rocket last."""
    rest = list(hand)
    power: list[Combination] = []
    if players == 3 and rest[BLACK] and rest[RED]:
        power.append(Combination(ROCKET, RED, 1, (BLACK, RED)))
        rest[BLACK] -= 1
        rest[RED] -= 1
    if players == 4 and rest[BLACK] == 2 and rest[RED] == 2:
        power.append(Combination(ROCKET, RED, 1, (BLACK, BLACK, RED, RED)))
        rest[BLACK] = rest[RED] = 0
    for rank in range(TWO + 1):
        if rest[rank] >= 4:
            count = rest[rank] if players == 4 else 4
            power.append(Combination(BOMB, rank, 1, (rank,) * count))
            rest[rank] -= count
    best: list = [None, None]
    nodes = [0]

    def search(start: int, last: tuple[int, int, int], chains: list[tuple[int, int, int]]) -> None:
        # chains starting at the same rank are taken in `_chain_options` order (from `last` on)
        nodes[0] += 1
        while start <= ACE and rest[start] == 0:
            start, last = start + 1, (0, 0, 0)
        if start <= ACE and nodes[0] < SPLIT_NODES:
            for option in _chain_options(rest, start):
                if option < last:
                    continue
                unit, top, length = option
                for rank in range(start, top + 1):
                    rest[rank] -= unit
                chains.append(option)
                search(start, option, chains)
                chains.pop()
                for rank in range(start, top + 1):
                    rest[rank] += unit
            search(start + 1, (0, 0, 0), chains)
            return
        score = _score(rest, chains, players)
        if best[0] is None or score < best[0]:
            best[0], best[1] = score, (list(rest), list(chains))

    search(0, (0, 0, 0), [])
    kept, chains = best[1]
    combos = sorted(_build(kept, chains, players), key=lambda c: (c.rank, -c.size))
    return tuple(combos + power)


def hand_score(hand: Counts, players: int) -> tuple[int, int]:
    """(combinations in the split, singles among them below the ace): lower is better."""
    combos = split(hand, players)
    return len(combos), sum(1 for c in combos if c.type == SINGLE and c.rank < ACE)


# --------------------------------------------------------------------------- who can beat


_UNITS = {SINGLE: 1, PAIR: 2, TRIO: 3}
_UNIT_TYPES = {1: SINGLE, 2: PAIR, 3: TRIO}


def _same_rank_ok(rank: int, unit: int, players: int) -> bool:
    """Can `unit` cards of `rank` be a single / pair / trio?"""
    return unit == 1 or rank < BLACK or (unit == 2 and players == 4)


def _power(hand: Counts, players: int, most: int = 99) -> list[Combination]:
    """Every bomb and the rocket in `hand`, of at most `most` cards."""
    out = []
    for rank in range(TWO + 1):
        top = hand[rank] if players == 4 else min(hand[rank], 4)
        out += [Combination(BOMB, rank, 1, (rank,) * n) for n in range(4, min(top, most) + 1)]
    if players == 3 and hand[BLACK] and hand[RED] and most >= 2:
        out.append(Combination(ROCKET, RED, 1, (BLACK, RED)))
    if players == 4 and hand[BLACK] == 2 and hand[RED] == 2 and most >= 4:
        out.append(Combination(ROCKET, RED, 1, (BLACK, BLACK, RED, RED)))
    return out


def replies(hand: Counts, to_beat: Combination, players: int) -> list[Combination]:
    """`legal_plays(hand, to_beat)`, fast for a single, a pair or a trio to beat."""
    unit = _UNITS.get(to_beat.type)
    if unit is None:
        text = ranks_text(r for r in range(15) for _ in range(hand[r]))
        return legal_plays(text, to_beat, players)
    kind = _UNIT_TYPES[unit]
    same = [Combination(kind, rank, 1, (rank,) * unit) for rank in range(to_beat.rank + 1, 15)
            if hand[rank] >= unit and _same_rank_ok(rank, unit, players)]
    return same + _power(hand, players)


def beatable(combo: Combination, pool: Counts, players: int, most: int) -> bool:
    """Could some `most` or fewer of the `pool` cards beat `combo`? (`pool`: the cards the
    others may hold; `most`: the largest hand among the opponents.)"""
    if most <= 0 or combo.type == ROCKET:
        return False
    if combo.type != BOMB and _power(pool, players, most):
        return True
    if combo.type in _UNITS:
        unit = _UNITS[combo.type]
        return most >= unit and any(pool[rank] >= unit and _same_rank_ok(rank, unit, players)
                                    for rank in range(combo.rank + 1, 15))
    return any(answer.size <= most for answer in replies(pool, combo, players))
