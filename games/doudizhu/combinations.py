"""Dou Dizhu combinations: what a set of cards is, what beats what, and every legal play.

Usable on its own (hints, autocomplete, AI, tests). Cards are strings whose first character is
the rank: `3 4 5 6 7 8 9 T J Q K A 2` then `B` (black joker) and `R` (red joker); suited cards
carry a suit letter after it (`7H`, `TS`) and jokers are `BJ` / `RJ`. Every function here also
accepts bare rank characters (`"33344"` or `["3", "3", "3", "4", "4"]`), because suits never
matter to the rules.

Internally a rank is an index 0..14 into `RANKS` (3 is 0, 2 is 12, B 13, R 14). Combinations
are identified by their rank multiset: the engine picks concrete cards from a hand afterwards.
People read a ten as `10` (`str()` of a combination, `ranks_label`); the one-character `T` is the
compact code (`Combination.code`, `ranks_text`). Strings of ranks may use either.

The thirteen types of the rules, by number:
 1 single, 2 pair, 3 trio, 4 trio_single, 5 trio_pair, 6 sequence, 7 pair_sequence,
 8 trio_sequence, 9 trio_sequence_singles, 10 trio_sequence_pairs, 11 bomb, 12 rocket,
 13 quadplex. Types 4, 9 and 13 are not legal with 4 players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations as choose
from typing import Any

RANKS = "3456789TJQKA2BR"
TWO, BLACK, RED = 12, 13, 14
ACE = 11  # the highest rank a chain may reach

SINGLE = "single"
PAIR = "pair"
TRIO = "trio"
TRIO_SINGLE = "trio_single"
TRIO_PAIR = "trio_pair"
SEQUENCE = "sequence"
PAIR_SEQUENCE = "pair_sequence"
TRIO_SEQUENCE = "trio_sequence"
TRIO_SEQUENCE_SINGLES = "trio_sequence_singles"
TRIO_SEQUENCE_PAIRS = "trio_sequence_pairs"
BOMB = "bomb"
ROCKET = "rocket"
QUADPLEX = "quadplex"

#: The types in the rules' order (index + 1 is the number in the rules).
TYPES = (
    SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR, SEQUENCE, PAIR_SEQUENCE, TRIO_SEQUENCE,
    TRIO_SEQUENCE_SINGLES, TRIO_SEQUENCE_PAIRS, BOMB, ROCKET, QUADPLEX,
)
#: Types 4, 9 and 13: only legal in the 3-player game.
THREE_PLAYER_ONLY = frozenset({TRIO_SINGLE, TRIO_SEQUENCE_SINGLES, QUADPLEX})

#: The smallest chain of each chained type (in ranks).
MIN_CHAIN = {SEQUENCE: 5, PAIR_SEQUENCE: 3, TRIO_SEQUENCE: 2, TRIO_SEQUENCE_SINGLES: 2,
             TRIO_SEQUENCE_PAIRS: 2}


def rank_index(card: str) -> int:
    """The rank index (0..14) of a card or a rank character."""
    index = RANKS.find(card[:1].upper()) if card else -1
    if index < 0:
        raise ValueError(f"{card!r} is not a card")
    return index


def to_ranks(cards: Iterable[str] | str) -> list[int]:
    """Rank indices of cards (or of a string of ranks, `10` or `T` for a ten), sorted."""
    if isinstance(cards, str):
        cards = cards.upper().replace("10", "T")
    return sorted(rank_index(card) for card in cards)


def counts_of(ranks: Iterable[int]) -> list[int]:
    counts = [0] * len(RANKS)
    for rank in ranks:
        counts[rank] += 1
    return counts


def ranks_text(ranks: Iterable[int]) -> str:
    """The compact code of ranks, one character each: `TJQKA`."""
    return "".join(RANKS[rank] for rank in ranks)


def rank_label(rank: int) -> str:
    """A rank as people read it: `10` for the ten, else its character."""
    return "10" if RANKS[rank] == "T" else RANKS[rank]


def ranks_label(ranks: Iterable[int]) -> str:
    """Ranks as people read and type them: `10JQKA`, spaced out (`10 10`, `8 9 10 J Q`) when
    a ten would touch another digit and read as a number (`1010`, `8910JQ`)."""
    labels = [rank_label(rank) for rank in ranks]
    touching = any("10" in (left, right) and left[-1].isdigit() and right[0].isdigit()
                   for left, right in zip(labels, labels[1:]))
    return (" " if touching else "").join(labels)


@dataclass(frozen=True)
class Combination:
    """A legal combination: its type, its ranking rank, its chain length and its cards.

    `rank` is the rank that decides comparisons (the single, the pair, the trio, the highest
    rank of a chain, the four, the bomb's rank). `length` is the number of consecutive ranks in
    the main part (1 for everything that is not a chain). `ranks` holds every card's rank in
    canonical order: the main part low to high, then the kickers low to high. `str()` gives
    the canonical notation people read, e.g. `33344`, `10JQKA`, `BR`; `code` the compact one
    (`TJQKA`).
    """

    type: str
    rank: int
    length: int
    ranks: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.ranks)

    @property
    def key(self) -> tuple[int, ...]:
        """The rank multiset, sorted: two plays with the same key use the same ranks."""
        return tuple(sorted(self.ranks))

    @property
    def code(self) -> str:
        """The compact notation, one character a card: `TJQKA`."""
        return ranks_text(self.ranks)

    def __str__(self) -> str:
        return ranks_label(self.ranks)


# --------------------------------------------------------------------------- classification


def _joker_pair_ok(rank: int, players: int) -> bool:
    """Can two cards of this rank form a pair? Jokers only with 4 players (same colour)."""
    return rank < BLACK or players == 4


def _chain_ranks(top: int, length: int) -> range:
    return range(top - length + 1, top + 1)


def _kickers_ok(kickers: Sequence[int], width: int, main: set[int], players: int) -> bool:
    """Kickers: `width` (1 or 2) cards of each rank, distinct ranks, none in `main`,
    never both jokers as singles, joker pairs only with 4 players."""
    if len(set(kickers)) != len(kickers) or main.intersection(kickers):
        return False
    if width == 1:
        return not (BLACK in kickers and RED in kickers)
    return all(_joker_pair_ok(rank, players) for rank in kickers)


def _make(kind: str, top: int, length: int, unit: int, kickers: Sequence[int], width: int) -> Combination:
    main = [rank for rank in _chain_ranks(top, length) for _ in range(unit)]
    return Combination(kind, top, length, tuple(main + [k for k in sorted(kickers) for _ in range(width)]))


def _classify_any(counts: list[int], size: int, players: int) -> Combination | None:
    """Classify a rank multiset for `players`, ignoring which types that count forbids."""
    present = [rank for rank, count in enumerate(counts) if count]
    distinct = len(present)
    low, high = present[0], present[-1]
    # the rocket
    if players == 3 and size == 2 and counts[BLACK] == 1 and counts[RED] == 1:
        return Combination(ROCKET, RED, 1, (BLACK, RED))
    if players == 4 and size == 4 and counts[BLACK] == 2 and counts[RED] == 2:
        return Combination(ROCKET, RED, 1, (BLACK, BLACK, RED, RED))
    if distinct == 1:
        if size == 1:
            return Combination(SINGLE, low, 1, (low,))
        if size == 2 and _joker_pair_ok(low, players):
            return Combination(PAIR, low, 1, (low, low))
        if size == 3 and low < BLACK:
            return Combination(TRIO, low, 1, (low,) * 3)
        if low < BLACK and (size == 4 or (players == 4 and 4 <= size <= 8)):
            return Combination(BOMB, low, 1, (low,) * size)
        return None
    # plain chains: every rank present the same number of times, consecutive, below 2
    if high <= ACE and high - low + 1 == distinct:
        unit = size // distinct
        if all(counts[rank] == unit for rank in present):
            kind = {1: SEQUENCE, 2: PAIR_SEQUENCE, 3: TRIO_SEQUENCE}.get(unit)
            if kind and distinct >= MIN_CHAIN[kind]:
                return Combination(kind, high, distinct, tuple(r for r in present for _ in range(unit)))
    # trios (or a trio chain) with kickers
    for width, single_kind, chain_kind in ((1, TRIO_SINGLE, TRIO_SEQUENCE_SINGLES),
                                           (2, TRIO_PAIR, TRIO_SEQUENCE_PAIRS)):
        if size % (3 + width):
            continue
        length = size // (3 + width)
        for top in range(TWO if length == 1 else ACE, length - 2, -1):
            chain = _chain_ranks(top, length)
            if any(counts[r] < 3 for r in chain):
                continue
            rest = counts[:]
            for r in chain:
                rest[r] -= 3
            kickers = []
            valid = True
            for rank, count in enumerate(rest):
                if count == 0:
                    continue
                if count != width:
                    valid = False
                    break
                kickers.append(rank)
            if valid and len(kickers) == length and _kickers_ok(kickers, width, set(chain), players):
                kind = single_kind if length == 1 else chain_kind
                return _make(kind, top, length, 3, kickers, width)
    # quadplex set: four of a rank with two singles or two pairs
    if size in (6, 8):
        width = (size - 4) // 2
        for four in range(TWO, -1, -1):
            if counts[four] != 4:
                continue
            others = [(rank, count) for rank, count in enumerate(counts)
                      if count and rank != four]
            kickers = [rank for rank, count in others if count == width]
            if (len(kickers) == 2 and len(others) == 2
                    and _kickers_ok(kickers, width, {four}, players)):
                return _make(QUADPLEX, four, 1, 4, kickers, width)
    return None


def classify(cards: Iterable[str] | str, players: int = 3) -> Combination | None:
    """The combination these cards form in a `players`-player game, or None if none.

    `cards` are card strings (`7H`, `BJ`) or rank characters (`"33344"`).
    """
    ranks = to_ranks(cards)
    if not ranks:
        return None
    combo = _classify_any(counts_of(ranks), len(ranks), players)
    if combo is None or (players == 4 and combo.type in THREE_PLAYER_ONLY):
        return None
    return combo


def classify_ranks(ranks: Iterable[int], players: int = 3) -> Combination | None:
    """`classify` for rank indices."""
    return classify(ranks_text(ranks), players)


# --------------------------------------------------------------------------- comparison


def beats(new: Combination, old: Combination, players: int = 3) -> bool:
    """Does `new` beat `old`? The rocket beats everything; a bomb beats anything but the
    rocket and a lower bomb (with 4 players more cards beat fewer first); otherwise the type
    and the number of cards must match and the ranking rank must be higher."""
    if old.type == ROCKET:
        return False
    if new.type == ROCKET:
        return True
    if new.type == BOMB:
        if old.type != BOMB:
            return True
        if players == 4:
            return (new.size, new.rank) > (old.size, old.rank)
        return new.rank > old.rank
    return new.type == old.type and new.size == old.size and new.rank > old.rank


# --------------------------------------------------------------------------- enumeration


def _runs(counts: list[int], need: int, min_length: int) -> Iterable[tuple[int, int]]:
    """(top, length) of every chain of ranks 3..A with at least `need` cards each."""
    for top in range(ACE + 1):
        length = 0
        while length <= top and counts[top - length] >= need:
            length += 1
            if length >= min_length:
                yield top, length


def legal_plays(hand: Iterable[str] | str, to_beat: Combination | None = None,
                players: int = 3) -> list[Combination]:
    """Every distinct legal play from `hand` (one per rank multiset): any combination when
    leading (`to_beat=None`), otherwise those that beat `to_beat`, bombs and rocket included.

    Enumerated per type from the hand's rank counts, so large hands stay cheap. Sorted by
    type (the rules' order), then size, then rank, then cards.
    """
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


# --------------------------------------------------------------------------- explanations

#: Why a play is refused: a key (`doudizhu.not_a_combination`) and its values as plain data
#: (plays as people write them, `type` a combination type); the bot's adapter words it.
Refusal = tuple[str, dict[str, Any]]

_KICKER_TYPES = frozenset({TRIO_SINGLE, TRIO_PAIR, TRIO_SEQUENCE_SINGLES, TRIO_SEQUENCE_PAIRS, QUADPLEX})
_CHAIN_OF_UNIT = {1: SEQUENCE, 2: PAIR_SEQUENCE, 3: TRIO_SEQUENCE}


def _try_substitute(ranks: list[int], old: int, players: int) -> Combination | None:
    """Classify after replacing one card of rank `old` by a rank the cards do not use."""
    unused = [rank for rank in range(TWO + 1) if rank not in ranks]
    for new in unused:
        changed = ranks[:]
        changed[changed.index(old)] = new
        combo = classify_ranks(changed, players)
        if combo is not None:
            return combo
    return None


def explain_invalid(cards: Iterable[str] | str, players: int = 3) -> Refusal:
    """Why these cards are not a legal combination."""
    ranks = to_ranks(cards)
    text = ranks_label(ranks)
    if not ranks:
        return "doudizhu.no_cards_played", {}
    counts = counts_of(ranks)
    present = [rank for rank, count in enumerate(counts) if count]
    if players == 4:
        three = classify_ranks(ranks, 3)
        if three is None and counts[BLACK] == 1 and counts[RED] == 1:
            three = _try_substitute(ranks, RED, 3)  # its type, were the jokers not both kickers
        if three is not None and three.type in THREE_PLAYER_ONLY:
            return "doudizhu.three_players_only", {"type": three.type}
        if counts[BLACK] == 1 and counts[RED] == 1 and len(ranks) == 2:
            return "doudizhu.joker_colours", {}
    if players == 3 and counts[BLACK] and counts[RED] and len(ranks) > 2:
        if _try_substitute(ranks, RED, players) is not None:
            return "doudizhu.both_jokers", {}
    if counts[BLACK] == 1 and counts[RED] == 1 and len(ranks) > 2:
        return "doudizhu.jokers_not_a_pair", {"players": players}
    # chains of equal units
    units = {counts[rank] for rank in present}
    if len(present) > 1 and len(units) == 1 and (unit := units.pop()) in _CHAIN_OF_UNIT:
        kind = _CHAIN_OF_UNIT[unit]
        if present[-1] - present[0] + 1 != len(present):
            return "doudizhu.not_consecutive", {"cards": text, "type": kind}
        if present[-1] > ACE:
            return "doudizhu.chain_with_twos", {"type": kind}
        return "doudizhu.chain_too_short", {"type": kind}
    trios = [rank for rank in present if counts[rank] >= 3]
    if TWO in trios and ACE in trios:
        return "doudizhu.twos_in_trio_sequence", {}
    # a kicker that repeats a rank of the trios / the four, or another kicker
    for rank in present:
        combo = _try_substitute(ranks, rank, players)
        if combo is None or combo.type not in _KICKER_TYPES:
            continue
        main = combo.ranks[: combo.length * (4 if combo.type == QUADPLEX else 3)]
        if rank in main:
            return "doudizhu.kicker_shares_rank", {"type": combo.type}
        return "doudizhu.kickers_differ", {}
    if len(trios) > 1 and trios[-1] - trios[0] + 1 != len(trios):
        return "doudizhu.trios_not_consecutive", {}
    return "doudizhu.not_a_combination", {"cards": text}


def explain_not_beating(new: Combination, old: Combination, players: int = 3) -> Refusal:
    """Why `new` does not beat `old` (call only when `beats` said no)."""
    if old.type == ROCKET:
        return "doudizhu.rocket_unbeaten", {}
    plays = {"play": str(new), "to_beat": str(old)}
    if new.type == BOMB and old.type == BOMB:
        if players == 4 and new.size < old.size:
            return "doudizhu.smaller_bomb", plays
        return "doudizhu.does_not_beat", plays
    if old.type == BOMB:
        if players == 4:
            return "doudizhu.beat_the_bomb_4", {"to_beat": str(old), "size": old.size}
        return "doudizhu.beat_the_bomb", {"to_beat": str(old)}
    if new.type != old.type or new.size != old.size:
        return "doudizhu.answer_in_kind", {"type": old.type, "size": old.size}
    return "doudizhu.does_not_beat", plays
