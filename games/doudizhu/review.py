"""The coach's judgment of one Dou Dizhu turn (games/review.py): a bid, a play or a pass.

The unit is the win chance: the chance that the mover's side wins the round (the landlord
alone, or the peasants together; in the auction, the side the mover ends up on as the round
would go). It is estimated from what the mover could know then, `view(before, seat)`, and
nothing else: the unseen cards are dealt out at random many times (each other seat gets as
many as it holds; the kitty cards the landlord took stay with the landlord unless that rank has
been played since, and the face-up card of the deal stays with whoever drew it until it is
played), and each candidate move is played out to the end of the round by the normal
computer's policy for every seat, on the same deals (common random numbers: the candidates
are compared on identical cards).

Candidates: in the auction every legal bid; in the play the move played and the hard
computer's candidates (`ai_search.candidates`: the normal policy's choice, the pass, the plays
that break the hand least, bombs). An auction that nobody bids in is dealt again: it counts as
an even chance. Another candidate is better than the move played only if it wins on clearly
more of the deals than it loses (more than `NOISE` standard deviations of the paired
difference): two moves whose estimates differ by noise are equal, and the move played stands.

The budget: deals come in batches of `BATCH`, every candidate still in the race played out on
each; after a batch, the candidates that did no better than the move played drop out, and the
race ends when none is left, after `MAX_DEALS` deals, or once `CARDS_PLAYED` cards have been
played out (so the close decisions get the deals, and a decided one costs one batch). A whole
round of 3 or 4 players is reviewed in a few seconds of one core
(`benchmarks/bench_review_doudizhu.py`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from games.doudizhu.ai import kitty_kept, passes_since_play, seen_of
from games.doudizhu.ai_hand import Counts, card_counts, counts, deck_counts, minus, split
from games.doudizhu.ai_policy import POWER, Seen, answers, bid_amount, choose_play
from games.doudizhu.ai_search import candidates, playout
from games.doudizhu.combinations import (
    PAIR_SEQUENCE, SEQUENCE, TRIO_SEQUENCE, TRIO_SEQUENCE_PAIRS, TRIO_SEQUENCE_SINGLES,
    Combination, classify, rank_index, ranks_text,
)
from games.doudizhu.engine import (
    AUCTION, HAND_SIZE, KITTY_SIZE, PLAY, Bid, Pass, Play, State, View, parse_move, view,
)
from games.review import Judged

UNIT = "win chance"
#: Cards played out per decision at most, over all candidates and deals, by players.
CARDS_PLAYED = {3: 8_000, 4: 3_000}
#: Deals are sampled in batches of BATCH, at most MAX_DEALS for one decision.
BATCH, MAX_DEALS = 8, 64
#: The hard computer's candidates judged besides the move played.
CANDIDATES = 4
#: How many standard deviations of the paired difference a candidate must win by.
NOISE = 2.0
NOT_DECISIONS = ("next", "stop", "resign", "forfeit")
CHAINS = (SEQUENCE, PAIR_SEQUENCE, TRIO_SEQUENCE, TRIO_SEQUENCE_SINGLES, TRIO_SEQUENCE_PAIRS)

Option = Combination | None  # a play, or None for the pass
Hands = list[list[int]]


def judge(before: State, seat: int, played: str, *, seed: int) -> Judged | None:
    """`seat`'s turn from `before` judged from its view only (None: no decision)."""
    words = played.strip().lower().split()
    if not words or words[0] in NOT_DECISIONS:
        return None
    seen = view(before, seat)
    if seen.turn != seat:
        return None
    rng = random.Random(_seed_text(seed, seen))
    if seen.phase == AUCTION:
        judged = _judge_bid(seen, _bid_of(played), rng)
    elif seen.phase == PLAY:
        judged = _judge_play(seen, parse_move(played), rng)
    else:
        return None
    # the move played as the log wrote it (`pass` in the auction is `bid pass`)
    text = played.strip()
    return replace(judged, played=text, best=text if judged.best == judged.played else judged.best)


def _seed_text(seed: int, seen: View) -> str:
    """The sampling seed: the judge's seed and only what the seat can see."""
    return (f"{seed}|review|{seen.seat}|{seen.round_no}|{len(seen.bids)}|{len(seen.played)}"
            f"|{len(seen.trick)}")


def _bid_of(played: str) -> int:
    move = parse_move(played)
    return 0 if isinstance(move, Pass) else move.amount if isinstance(move, Bid) else 0


# --------------------------------------------------------------------------- the play


def _judge_play(seen: View, move: object, rng: random.Random) -> Judged:
    situation = seen_of(seen)
    mine = _option_of(move, seen.players)
    legal = answers(situation)
    choices = len(legal) + (situation.to_beat is not None)
    options: list[Option] = [mine]
    if choices > 1:
        for other in candidates(situation, rng):
            if len(options) > CANDIDATES:
                break
            if other not in options:
                options.append(other)
    known = _known_play(seen)
    passes = passes_since_play(seen)

    def deal(alive: list[int]) -> list[float]:
        hands = _deal_play(situation, known, rng)
        return [float(playout(situation, [list(hand) for hand in hands], options[index], rng,
                              passes)) for index in alive]

    outcomes = _race(len(options), deal, sum(situation.cards_left), seen.players)
    best = _best(outcomes)
    win_played, win_best = _mean(outcomes[0]), _mean(outcomes[best])
    reason, values = _play_reason(situation, mine, options[best])
    return _judged(seen, _move_text(mine), _move_text(options[best]), win_played, win_best,
                   choices, reason, values)


def _option_of(move: object, players: int) -> Option:
    if isinstance(move, Play):
        combo = classify(move.ranks, players)
        if combo is None:
            raise ValueError(f"{move} is no combination")
        return combo
    return None


def _move_text(option: Option) -> str:
    """An option as the move log writes it."""
    return "pass" if option is None else str(Play(ranks_text(option.ranks)))


def _known_play(seen: View) -> list[Counts]:
    """Cards each other seat surely holds: the landlord's kitty cards of ranks not played
    since, and the deal's face-up card with its drawer until a card like it is played (each
    only where the unseen cards and the seat's count leave room: a set-up position may lack
    them)."""
    assert seen.seat is not None and seen.landlord is not None
    situation = seen_of(seen)
    known = [[0] * 15 for _ in range(seen.players)]
    free = list(situation.pool)
    room = list(situation.cards_left)
    sure = [(seen.landlord, rank) for rank, count in enumerate(kitty_kept(seen))
            for _ in range(count)]
    if seen.face_up_seat != seen.seat and seen.face_up not in seen.played:
        sure.append((seen.face_up_seat, rank_index(seen.face_up)))
    for seat, rank in sure:
        if free[rank] and room[seat]:
            known[seat][rank] += 1
            free[rank] -= 1
            room[seat] -= 1
    return [tuple(row) for row in known]


def _deal_play(seen: Seen, known: Sequence[Counts], rng: random.Random) -> Hands:
    """Every seat's hand: ours, and the unseen cards shared out by count after the known
    ones (`known` never exceeds what is unseen: each is a card the seat cannot see)."""
    hands = [list(known[seat]) for seat in range(seen.players)]
    hands[seen.seat] = list(seen.hand)
    need = [seen.cards_left[seat] - sum(hands[seat]) for seat in range(seen.players)]
    need[seen.seat] = 0
    rest = [rank for rank in range(15)
            for _ in range(seen.pool[rank] - sum(known[s][rank] for s in range(seen.players)
                                                 if s != seen.seat))]
    rng.shuffle(rest)
    at = 0
    for seat in range(seen.players):
        for rank in rest[at:at + need[seat]]:
            hands[seat][rank] += 1
        at += need[seat]
    return hands


def _race(width: int, deal: Callable[[list[int]], list[float]], cards: int,
          players: int) -> list[list[float]]:
    """Each option's outcomes over the deals (option 0, the move played, on every deal; the
    others on the first deals, until they stop contending). Deals come in batches of
    `BATCH`; after each, an option that did no better than the move played anywhere, or
    worse on the whole, drops out, and the race stops once none is left, `MAX_DEALS` deals
    are played or the budget of cards played out (`CARDS_PLAYED`) is spent."""
    outcomes: list[list[float]] = [[] for _ in range(width)]
    alive = list(range(width))
    spent, budget = 0, CARDS_PLAYED[players]
    while True:
        for _ in range(BATCH):
            for index, value in zip(alive, deal(alive)):
                outcomes[index].append(value)
        spent += BATCH * len(alive) * cards
        alive = [0] + [i for i in alive[1:] if _contends(outcomes[0], outcomes[i])]
        if len(alive) == 1 or len(outcomes[0]) >= MAX_DEALS or spent >= budget:
            return outcomes


def _gaps(played: list[float], other: list[float]) -> list[float]:
    return [b - a for a, b in zip(played, other)]


def _contends(played: list[float], other: list[float]) -> bool:
    """Whether `other` may still prove better than the move played: better on some deal,
    not worse on the whole."""
    gaps = _gaps(played, other)
    return sum(gaps) >= 0 and any(gap > 0 for gap in gaps)


def _clearly_better(played: list[float], other: list[float]) -> bool:
    """Better by more than `NOISE` standard deviations of the paired difference."""
    gaps = _gaps(played, other)
    return sum(gaps) > NOISE * math.sqrt(sum(gap * gap for gap in gaps))


def _best(outcomes: list[list[float]]) -> int:
    """The option judged best: of those clearly better than the move played (option 0) on
    the same deals, the highest mean; else the move played."""
    better = [i for i in range(1, len(outcomes)) if _clearly_better(outcomes[0], outcomes[i])]
    return max(better, key=lambda i: (_mean(outcomes[i]), -i), default=0)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


# --------------------------------------------------------------------------- the auction


def _judge_bid(seen: View, amount: int, rng: random.Random) -> Judged:
    assert seen.seat is not None
    options = [0, *range(seen.bid + 1, 4)]
    if amount not in options:
        raise ValueError(f"bid {amount} is not legal over {seen.bid}")
    options.remove(amount)
    options.insert(0, amount)
    hand = card_counts(seen.hand)

    def deal(alive: list[int]) -> list[float]:
        hands, kitty = _deal_auction(seen, hand, rng)
        played_out: dict[int | None, float] = {}
        values = []
        for index in alive:
            landlord = _auction_end(seen, hands, options[index], rng)
            if landlord not in played_out:
                played_out[landlord] = _round_for(seen, hands, kitty, landlord, rng)
            values.append(played_out[landlord])
        return values

    cards = HAND_SIZE[seen.players] * seen.players + KITTY_SIZE[seen.players]
    outcomes = _race(len(options), deal, cards // 2, seen.players)  # about 2 rounds a deal
    best = _best(outcomes)
    reason, values = _bid_reason(options[0], options[best])
    return _judged(seen, str(Bid(options[0])), str(Bid(options[best])), _mean(outcomes[0]),
                   _mean(outcomes[best]), len(options), reason, values)


def _deal_auction(seen: View, hand: Counts, rng: random.Random) -> tuple[Hands, list[int]]:
    """The other hands and the kitty, dealt from the cards not in ours (the face-up card to
    the seat that drew it)."""
    players, seat = seen.players, seen.seat
    assert seat is not None
    hands = [[0] * 15 for _ in range(players)]
    hands[seat] = list(hand)
    deck = deck_counts(players)
    rest = [rank for rank in range(15) for _ in range(deck[rank] - hand[rank])]
    need = [HAND_SIZE[players]] * players
    need[seat] = 0
    if seen.face_up_seat != seat:
        face = rank_index(seen.face_up)
        rest.remove(face)
        hands[seen.face_up_seat][face] += 1
        need[seen.face_up_seat] -= 1
    rng.shuffle(rest)
    at = 0
    for other in range(players):
        for rank in rest[at:at + need[other]]:
            hands[other][rank] += 1
        at += need[other]
    kitty = [0] * 15
    for rank in rest[at:]:
        kitty[rank] += 1
    return hands, kitty


def _auction_end(seen: View, hands: Hands, amount: int, rng: random.Random) -> int | None:
    """Who becomes landlord if the seat bids `amount` and the others bid as the normal
    computer does with the dealt hands (None: nobody bids, the cards are dealt again)."""
    assert seen.seat is not None
    players = seen.players
    bids = [*seen.bids, (seen.seat, amount)]
    turn = seen.seat
    while True:
        high = max(a for _, a in bids)
        trailing = 0
        for _, a in reversed(bids):
            if a:
                break
            trailing += 1
        if high == 3 or (high and trailing >= players - 1):
            return next(s for s, a in reversed(bids) if a == high)
        if not high and len(bids) == players:
            return None
        turn = (turn + 1) % players
        bids.append((turn, bid_amount(tuple(hands[turn]), players, high, 0.0, rng)))


def _round_for(seen: View, hands: Hands, kitty: list[int], landlord: int | None,
               rng: random.Random) -> float:
    """1 if the seat's side wins the round played out with `landlord` (0.5: dealt again)."""
    if landlord is None:
        return 0.5
    assert seen.seat is not None
    players = seen.players
    round_hands = [list(hand) for hand in hands]
    round_hands[landlord] = [a + b for a, b in zip(round_hands[landlord], kitty)]
    deck = [sum(hand[r] for hand in round_hands) for r in range(15)]
    hand = tuple(round_hands[landlord])
    lead = Seen(players, landlord, landlord, hand, tuple(sum(h) for h in round_hands),
                tuple(deck[r] - hand[r] for r in range(15)), None, None)
    landlord_won = playout(lead, round_hands, choose_play(lead, "normal", rng), rng, 0)
    return float(landlord_won == (seen.seat == landlord))


# --------------------------------------------------------------------------- reasons


def _play_reason(seen: Seen, played: Option, best: Option) -> tuple[str | None, dict[str, str]]:
    """Why the better move is better, when a cheap fact says so."""
    if best == played:
        return None, {}
    total = sum(seen.hand)
    if best is not None and best.size == total:
        key = "pass_could_win" if played is None else "out_missed"
        return key, {"play": str(best)}
    if (played is not None and played.type in POWER and (best is None or best.type not in POWER)
            and _holds(minus(seen.hand, () if best is None else best.ranks), played.ranks)):
        return "bomb_early", {"play": str(played), "type": played.type}
    if (played is not None and best is None and seen.winner is not None
            and seen.partner(seen.winner)):
        return "partner_beaten", {}
    chain = _broken_chain(seen, played)
    if chain is not None and _broken_chain(seen, best) is None:
        return "broke_chain", {"chain": str(chain), "play": str(played)}
    return None, {}


def _broken_chain(seen: Seen, option: Option) -> Combination | None:
    """The chain of the hand's split that `option` breaks: takes cards from without playing
    it whole, so that what is left cannot make it any more (None: it breaks none)."""
    if option is None:
        return None
    left = list(minus(seen.hand, option.ranks))
    for combo in split(seen.hand, seen.players):
        if combo.type not in CHAINS:
            continue
        main = combo.ranks[:combo.length * _UNIT[combo.type]]
        if (set(main) & set(option.ranks) and not _holds(counts(option.ranks), main)
                and not _holds(left, main)):
            return combo
    return None


_UNIT = {SEQUENCE: 1, PAIR_SEQUENCE: 2, TRIO_SEQUENCE: 3, TRIO_SEQUENCE_SINGLES: 3,
         TRIO_SEQUENCE_PAIRS: 3}


def _holds(hand: Sequence[int], ranks: Sequence[int]) -> bool:
    """Whether rank counts `hand` hold every card of `ranks`."""
    need = counts(ranks)
    return all(have >= want for have, want in zip(hand, need))


def _bid_reason(played: int, best: int) -> tuple[str | None, dict[str, int]]:
    if played == best:
        return None, {}
    return ("bid_too_high" if played > best else "bid_too_low"), {"bid": best, "played": played}


def _judged(seen: View, played: str, best: str, win_played: float, win_best: float,
            choices: int, reason: str | None, values: dict) -> Judged:
    assert seen.seat is not None
    return Judged(seat=seen.seat, played=played, best=best, played_value=win_played,
                  best_value=win_best, win_played=win_played, win_best=win_best,
                  choices=choices, unit=UNIT, reason=reason, reason_values=values)
