"""The Dou Dizhu computer's rule policy (levels easy and normal, and hard's rollouts).

It sees a `Seen`: its own hand, how many cards each seat holds, the cards nobody has shown
(`pool`, what the others may hold) and the play to beat. Leading, it plays its hand's split
(`ai_hand.split`) low to high, an unbeatable combination first when that takes it out, and
avoids what an opponent about to go out could answer. Following, it answers with the play that
breaks its split the least, lets a winning partner's play stand, and keeps bombs and the rocket
for when an opponent is close to going out or they take it out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.doudizhu.ai_hand import Counts, beatable, hand_score, minus, replies, size, split
from games.doudizhu.combinations import (
    ACE,
    BLACK,
    BOMB,
    PAIR,
    RED,
    ROCKET,
    SINGLE,
    TWO,
    Combination,
    legal_plays,
    ranks_text,
)

POWER = (BOMB, ROCKET)
JACK = 8


@dataclass(frozen=True)
class Seen:
    """What one seat knows while the cards are played."""

    players: int
    seat: int
    landlord: int
    hand: Counts
    cards_left: tuple[int, ...]
    pool: Counts  # cards the other seats hold between them, as far as this seat knows
    to_beat: Combination | None  # None when leading
    winner: int | None  # who played `to_beat`

    def partner(self, other: int) -> bool:
        return other != self.seat and self.landlord not in (self.seat, other)

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.players)
                if s != self.seat and not self.partner(s)]

    @property
    def danger(self) -> int:
        """The fewest cards an opponent holds."""
        return min(self.cards_left[s] for s in self.opponents)

    @property
    def most(self) -> int:
        """The most cards an opponent holds (the largest play one could answer with)."""
        return max(self.cards_left[s] for s in self.opponents)


@dataclass(frozen=True)
class Style:
    """How a level plays: `counting` uses the cards seen to find unbeatable plays;
    `noise` is the chance of a random (but sensible-looking) choice."""

    counting: bool
    noise: float


STYLES = {"easy": Style(counting=False, noise=0.25), "normal": Style(counting=True, noise=0.0)}


def hand_text(hand: Counts) -> str:
    return ranks_text(rank for rank in range(15) for _ in range(hand[rank]))


def answers(seen: Seen) -> list[Combination]:
    """Every legal play now (leading: every combination)."""
    if seen.to_beat is None:
        return legal_plays(hand_text(seen.hand), None, seen.players)
    return replies(seen.hand, seen.to_beat, seen.players)


def _safe(seen: Seen, combo: Combination, style: Style) -> bool:
    """No opponent can beat it (as far as the cards seen tell)."""
    if not style.counting:
        return combo.type == ROCKET
    return not beatable(combo, seen.pool, seen.players, seen.most)


# --------------------------------------------------------------------------- leading


def lead(seen: Seen, style: Style, rng: random.Random) -> Combination:
    combos = split(seen.hand, seen.players)
    if len(combos) == 1:
        return combos[0]
    if len(combos) == 2:
        for combo in combos:
            if _safe(seen, combo, style):
                return combo
    feed = _feed_partner(seen)
    if feed is not None:
        return feed
    plain = [c for c in combos if c.type not in POWER] or list(combos)
    if style.noise and rng.random() < style.noise:
        return rng.choice(plain)
    if len(combos) <= 3:
        safe = [c for c in plain if _safe(seen, c, style)]
        if safe:
            return safe[0]
    danger = seen.danger
    wary = [c for c in plain if not _answerable(seen, c, danger, style)]
    if wary:
        return min(wary, key=_lead_key)
    return _last_resort(seen, plain, danger)


def _feed_partner(seen: Seen) -> Combination | None:
    """The partner who plays next holds one or two cards: lead the lowest single or pair."""
    after = (seen.seat + 1) % seen.players
    if not seen.partner(after) or seen.cards_left[after] > 2:
        return None
    if seen.cards_left[after] == 1:
        low = _lowest(seen.hand)
        return Combination(SINGLE, low, 1, (low,))
    pair = next((r for r in range(TWO + 1) if seen.hand[r] >= 2), None)
    return None if pair is None else Combination(PAIR, pair, 1, (pair, pair))


def _lowest(hand: Counts) -> int:
    return next(rank for rank in range(15) if hand[rank])


def _lead_key(combo: Combination) -> tuple[bool, int, int]:
    """Low combinations first, keeping 2s and jokers back; more cards first on a tie."""
    return combo.rank >= TWO, combo.rank, -combo.size


def _answerable(seen: Seen, combo: Combination, danger: int, style: Style) -> bool:
    """Could an opponent with `danger` cards go out (or nearly) answering this?"""
    if danger > 2 or combo.size > danger:
        return False
    return combo.type in (SINGLE, PAIR) and not _safe(seen, combo, style)


def _last_resort(seen: Seen, plain: list[Combination], danger: int) -> Combination:
    """Every plain combination helps an opponent about to go out: play another shape, or
    the highest single."""
    others = [c for c in answers(seen) if c.size > danger and c.type not in POWER]
    if others:
        return min(others, key=_lead_key)
    top = max(rank for rank in range(15) if seen.hand[rank])
    return Combination(SINGLE, top, 1, (top,))


# --------------------------------------------------------------------------- following


def follow(seen: Seen, style: Style, rng: random.Random) -> Combination | None:
    """A play beating `seen.to_beat`, or None to pass."""
    assert seen.winner is not None  # who played `to_beat`
    options = answers(seen)
    if not options:
        return None
    total = size(seen.hand)
    for combo in options:
        if combo.size == total:
            return combo
    if seen.partner(seen.winner):
        return _block(seen, options)
    if style.noise and rng.random() < style.noise:
        plain = [c for c in options if c.type not in POWER]
        return rng.choice(plain + [None])
    before = hand_score(seen.hand, seen.players)[0]
    urgent = seen.cards_left[seen.winner] <= 4 or seen.danger <= 2
    costly = []
    for combo in options:  # low to high: the lowest play that keeps the split whole wins
        if combo.type in POWER:
            continue
        cost = _break(seen, combo, before)
        if cost <= 0 and _worth(seen, combo, cost, urgent, before):
            return combo
        costly.append((cost, combo.rank, combo.size, combo.ranks, combo))
    for cost, *_, combo in sorted(costly, key=lambda item: item[:4]):
        if _worth(seen, combo, cost, urgent, before):
            return combo
    power = [c for c in options if c.type in POWER]
    if power and (urgent or before <= 3):
        return min(power, key=lambda c: (c.type == ROCKET, c.size, c.rank))
    return None


def _block(seen: Seen, options: list[Combination]) -> Combination | None:
    """A partner is winning: let the play stand, unless it is a low single or pair, the
    landlord plays next and a high one (jack to ace) can go on top without breaking the hand,
    so that the landlord must spend a 2 or a joker."""
    assert seen.to_beat is not None  # following
    low = seen.to_beat.type in (SINGLE, PAIR) and seen.to_beat.rank < JACK
    if not low or (seen.seat + 1) % seen.players != seen.landlord:
        return None
    before = hand_score(seen.hand, seen.players)[0]
    for combo in options:
        if (JACK <= combo.rank <= ACE and combo.type == seen.to_beat.type
                and _break(seen, combo, before) <= 0):
            return combo
    return None


def _break(seen: Seen, combo: Combination, before: int) -> int:
    """How many more combinations the hand splits into after this play than it should."""
    after = hand_score(minus(seen.hand, combo.ranks), seen.players)[0]
    return after - (before - 1)


def _worth(seen: Seen, combo: Combination, cost: int, urgent: bool, before: int) -> bool:
    """Is answering with `combo` (breaking `cost` extra combinations) worth it?"""
    assert seen.to_beat is not None  # following
    against_landlord = seen.winner == seen.landlord
    if combo.rank >= TWO and combo.type == SINGLE and not urgent and before > 3:
        # a 2 or a joker: spend it on high cards, or keep it for control
        if seen.to_beat.rank < ACE - 2 and not against_landlord:
            return False
    if cost <= 0:
        return True
    if urgent:
        return cost <= 2
    return cost <= 1 and (against_landlord or seen.seat == seen.landlord) and combo.rank < TWO


# --------------------------------------------------------------------------- bidding


def strength(hand: Counts, players: int) -> float:
    """Bidding points: jokers, 2s, aces and bombs, less the combinations left to shed."""
    combos = split(hand, players)
    points = 4.0 * min(hand[RED], 1) + 3.0 * min(hand[BLACK], 1) + 2.0 * hand[TWO] + 0.5 * hand[ACE]
    if players == 4:
        points = 2.0 * hand[RED] + 1.5 * hand[BLACK] + 1.0 * hand[TWO] + 0.25 * hand[ACE]
    for combo in combos:
        if combo.type == BOMB:
            points += 3.0 + 2.0 * (combo.size - 4)
        elif combo.type == ROCKET:
            points += 2.0
    return points - 0.7 * len([c for c in combos if c.type not in POWER])


#: Strength needed to bid 1, 2, 3.
BID_LEVELS = {3: (1.0, 3.0, 5.5), 4: (3.5, 5.5, 8.0)}


def bid_amount(hand: Counts, players: int, high: int, noise: float, rng: random.Random) -> int:
    """The bid for this hand (0 to pass) above the highest bid `high`."""
    points = strength(hand, players) + (rng.uniform(-noise, noise) * 6 if noise else 0.0)
    wanted = sum(1 for level in BID_LEVELS[players] if points >= level)
    return wanted if wanted > high else 0


def choose_play(seen: Seen, level: str, rng: random.Random) -> Combination | None:
    style = STYLES[level]
    return lead(seen, style, rng) if seen.to_beat is None else follow(seen, style, rng)
