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

from collections.abc import Callable, Iterable, Sequence
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


_RANK_OF = {ch: index for index, ch in enumerate(RANKS)} | {
    ch.lower(): index for index, ch in enumerate(RANKS)}


def _hand_counts(hand: Iterable[str] | str) -> list[int]:
    """`counts_of(to_ranks(hand))`, one dictionary look-up a card."""
    if isinstance(hand, str):
        hand = hand.upper().replace("10", "T")
    counts = [0] * (RED + 1)
    rank_of = _RANK_OF
    for card in hand:
        rank = rank_of.get(card[:1])
        counts[rank_index(card) if rank is None else rank] += 1
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
    counts = _hand_counts(cards)
    size = sum(counts)
    if not size:
        return None
    combo = _classify_any(counts, size, players)
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
#
# Plays are generated type by type in the order of the result (type, size, rank, cards), so
# nothing is sorted or de-duplicated afterwards: a rank multiset has a single reading (the
# ranks held three or four times are the trios or the four, the others the kickers), hence is
# made once. The plays without free kickers (up to the trio with one kicker) are built once at
# import; only trio chains with kickers and quadplex sets are built per call.

_SINGLES = tuple(Combination(SINGLE, rank, 1, (rank,)) for rank in range(RED + 1))
_PAIRS = tuple(Combination(PAIR, rank, 1, (rank, rank)) for rank in range(RED + 1))
_TRIOS = tuple(Combination(TRIO, rank, 1, (rank,) * 3) for rank in range(TWO + 1))
#: Bombs by size (4 to 8 cards), then rank.
_BOMBS = {size: tuple(Combination(BOMB, rank, 1, (rank,) * size) for rank in range(TWO + 1))
          for size in range(4, 9)}
_ROCKETS = {3: Combination(ROCKET, RED, 1, (BLACK, RED)),
            4: Combination(ROCKET, RED, 1, (BLACK, BLACK, RED, RED))}
#: Chains by unit (1, 2 or 3 cards a rank), then (top, length).
_CHAINS = {unit: {(top, length): _make(kind, top, length, unit, (), 1)
                  for top in range(ACE + 1) for length in range(MIN_CHAIN[kind], top + 2)}
           for kind, unit in ((SEQUENCE, 1), (PAIR_SEQUENCE, 2), (TRIO_SEQUENCE, 3))}
#: A trio and one kicker, by kicker width (1: a single, 2: a pair), then trio rank and kicker
#: (a kicker of the trio's own rank is in the table but never looked up).
_TRIOS_WITH = {width: tuple(tuple(_make(kind, trio, 1, 3, (kicker,), width)
                                  for kicker in range(RED + 1))
                            for trio in range(TWO + 1))
               for width, kind in ((1, TRIO_SINGLE), (2, TRIO_PAIR))}
#: The plays of one type (bombs and rocket apart) from rank counts, for `players`, ranked
#: above a rank (-1: any) and of a size (None: any).
_Plays = Callable[[list[int], int, int, "int | None"], list[Combination]]
_UNIT = {SEQUENCE: 1, PAIR_SEQUENCE: 2, TRIO_SEQUENCE: 3, TRIO_SEQUENCE_SINGLES: 4,
         TRIO_SEQUENCE_PAIRS: 5}


def _pool(counts: list[int], width: int, players: int) -> list[int]:
    """The ranks that can give a kicker of `width` cards (joker pairs with 4 players only)."""
    top = RED + 1 if width == 1 or players == 4 else BLACK
    return [rank for rank in range(top) if counts[rank] >= width]


def _run_lengths(counts: list[int], need: int) -> list[int]:
    """For each rank 3..A, how many consecutive ranks up to it have `need` cards or more."""
    runs = []
    length = 0
    for rank in range(ACE + 1):
        length = length + 1 if counts[rank] >= need else 0
        runs.append(length)
    return runs


def _chain_spots(counts: list[int], need: int, lengths: Iterable[int], above: int) -> list[tuple[int, int]]:
    """(top, length) of the chains of `need` cards a rank, by length then top (above `above`)."""
    runs = _run_lengths(counts, need)
    longest = max(runs)
    return [(top, length) for length in lengths if length <= longest
            for top in range(max(length - 1, above + 1), ACE + 1) if runs[top] >= length]


def _lengths(kind: str, size: int | None) -> range:
    """The chain lengths wanted: every one for a lead, else the one of `size` cards."""
    unit = _UNIT[kind]
    if size is None:
        return range(MIN_CHAIN[kind], ACE + 2)
    length, rest = divmod(size, unit)
    return range(length, length + 1) if not rest and length >= MIN_CHAIN[kind] else range(0)


def _singles(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
    if size not in (None, 1):
        return []
    return [_SINGLES[rank] for rank in range(above + 1, RED + 1) if counts[rank]]


def _pairs(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
    if size not in (None, 2):
        return []
    top = RED + 1 if players == 4 else BLACK
    return [_PAIRS[rank] for rank in range(above + 1, top) if counts[rank] >= 2]


def _trios(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
    if size not in (None, 3):
        return []
    return [_TRIOS[rank] for rank in range(above + 1, TWO + 1) if counts[rank] >= 3]


def _trio_with(width: int) -> _Plays:
    def plays(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
        if size not in (None, 3 + width):
            return []
        pool = _pool(counts, width, players)
        table = _TRIOS_WITH[width]
        return [table[trio][kicker] for trio in range(above + 1, TWO + 1) if counts[trio] >= 3
                for kicker in pool if kicker != trio]
    return plays


def _chains(kind: str) -> _Plays:
    unit = _UNIT[kind]
    table = _CHAINS[unit]

    def plays(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
        return [table[spot] for spot in _chain_spots(counts, unit, _lengths(kind, size), above)]
    return plays


def _kicker_sets(pool: list[int], count: int, width: int) -> Iterable[tuple[int, ...]]:
    """Every `count` kickers of `width` cards from `pool` (sorted ranks), as their ranks, in
    order; never both jokers as singles."""
    if width == 2:
        return (sum(pairs, ()) for pairs in choose([_PAIRS[rank].ranks for rank in pool], count))
    if BLACK in pool and RED in pool:
        return (picks for picks in choose(pool, count) if picks[-2:] != (BLACK, RED))
    return choose(pool, count)


def _trio_chains_with(kind: str, width: int) -> _Plays:
    def plays(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
        spots = _chain_spots(counts, 3, _lengths(kind, size), above)
        if not spots:
            return []
        pool = _pool(counts, width, players)
        out: list[Combination] = []
        for top, length in spots:
            main = _CHAINS[3][top, length].ranks
            free = [rank for rank in pool if rank <= top - length or rank > top]
            out += [Combination(kind, top, length, main + extra)
                    for extra in _kicker_sets(free, length, width)]
        return out
    return plays


def _quadplexes(counts: list[int], players: int, above: int, size: int | None) -> list[Combination]:
    fours = [rank for rank in range(above + 1, TWO + 1) if counts[rank] >= 4]
    out: list[Combination] = []
    for width in (1, 2):
        if not fours or size not in (None, 4 + 2 * width):
            continue
        pool = _pool(counts, width, players)
        for four in fours:
            main = (four,) * 4
            out += [Combination(QUADPLEX, four, 1, main + extra)
                    for extra in _kicker_sets([rank for rank in pool if rank != four], 2, width)]
    return out


def _bombs(counts: list[int], players: int, to_beat: Combination | None) -> list[Combination]:
    """The bombs of the hand (beating `to_beat` if it is a bomb), by size then rank."""
    if players == 3:
        low = to_beat.rank + 1 if to_beat is not None else 0
        return [_BOMBS[4][rank] for rank in range(low, TWO + 1) if counts[rank] >= 4]
    old = (to_beat.size, to_beat.rank) if to_beat is not None else (0, -1)
    return [_BOMBS[size][rank] for size in range(4, 9) for rank in range(TWO + 1)
            if counts[rank] >= size and (size, rank) > old]


def _rocket(counts: list[int], players: int) -> list[Combination]:
    if players == 3 and counts[BLACK] and counts[RED]:
        return [_ROCKETS[3]]
    if players == 4 and counts[BLACK] == 2 and counts[RED] == 2:
        return [_ROCKETS[4]]
    return []


_OF_TYPE: dict[str, _Plays] = {
    SINGLE: _singles, PAIR: _pairs, TRIO: _trios, TRIO_SINGLE: _trio_with(1),
    TRIO_PAIR: _trio_with(2), SEQUENCE: _chains(SEQUENCE), PAIR_SEQUENCE: _chains(PAIR_SEQUENCE),
    TRIO_SEQUENCE: _chains(TRIO_SEQUENCE),
    TRIO_SEQUENCE_SINGLES: _trio_chains_with(TRIO_SEQUENCE_SINGLES, 1),
    TRIO_SEQUENCE_PAIRS: _trio_chains_with(TRIO_SEQUENCE_PAIRS, 2), QUADPLEX: _quadplexes,
}


def legal_plays(hand: Iterable[str] | str, to_beat: Combination | None = None,
                players: int = 3) -> list[Combination]:
    """Every distinct legal play from `hand` (one per rank multiset): any combination when
    leading (`to_beat=None`), otherwise those that beat `to_beat`, bombs and rocket included.

    Generated per type from the hand's rank counts, so large hands stay cheap. Sorted by
    type (the rules' order), then size, then rank, then cards.
    """
    counts = _hand_counts(hand)
    if to_beat is None:
        out: list[Combination] = []
        for kind in TYPES:
            if kind == BOMB:
                out += _bombs(counts, players, None)
            elif kind == ROCKET:
                out += _rocket(counts, players)
            elif players == 3 or kind not in THREE_PLAYER_ONLY:
                out += _OF_TYPE[kind](counts, players, -1, None)
        return out
    if to_beat.type == ROCKET:
        return []
    if to_beat.type == BOMB:
        return _bombs(counts, players, to_beat) + _rocket(counts, players)
    same = []
    if players == 3 or to_beat.type not in THREE_PLAYER_ONLY:
        same = _OF_TYPE[to_beat.type](counts, players, to_beat.rank, to_beat.size)
    power = _bombs(counts, players, None) + _rocket(counts, players)
    return power + same if to_beat.type == QUADPLEX else same + power  # the rules' order


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
