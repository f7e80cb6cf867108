"""Computer players: `choose_move(state, seat, level, *, seed)` at three levels.

A computer decides from `view(state, seat)` only: its own rack, the board, the scores, the
bag count, the unseen tiles and the play open to challenge. Levels are data (`Level`):

- **hard** plays the best static equity: score + the value of the tiles it keeps
  (`leave.leave_value`). It exchanges when keeping the best part of its rack is worth more
  than any play (bag of 7 or more). Once the bag is empty it stops valuing leaves: going out
  earns the opponents' tiles, and in a 2-player game (the opponent's rack is then exactly the
  unseen tiles) it looks at its best `endgame_candidates` plays (divided by one plus the
  blanks the opponent holds, which make replies dearer to find) and subtracts the
  opponent's best reply to each. It challenges every play that forms a word not in the lexicon.
- **normal** plays the best equity (half-weight leave) among plays whose words are all in
  the 40,000 most frequent English words (wordfreq); it challenges invalid words too.
- **easy** knows the 12,000 most frequent words and picks, with the seed, among its plays
  scoring 40% to 70% of its best one. It never challenges.

Every level plays a winning move when one reaches a finish-line target, answers a play that
would end the game (challenge if it would, else pass to accept), and passes when nothing else
is possible. The search is bounded by counts (plays examined, replies generated), never by a
clock, so the same state, seat, level and seed give the same move. Its cost is one move
generation for the rack (for hard while the bag has tiles, one that skips the plays that
cannot beat the best found so far: `movegen.best_options`), plus up to 8 for the opponent's
best replies once the bag is empty.
On a seat that is not to move, `choose_move` returns `Challenge()` when that level
challenges the open play, and raises `NotYourTurn` otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from games.common import GameOver, NotYourTurn

from .board import Board
from .common_words import common_words
from .engine import EXCHANGE_MIN_BAG, State, View, view
from .lexicon import Lexicon, default_lexicon
from .leave import leave_value
from .movegen import Option, best_options, options, search_order
from .moves import Challenge, Exchange, Move, Pass, Play
from .scoring import unknown_words
from .tiles import BLANK, rack_value, sort_tiles

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Level:
    """What a level knows and how it chooses."""

    vocabulary: int | None  # most frequent English words it knows; None: the whole lexicon
    leave_weight: float  # how much the value of the kept tiles counts
    pick_band: tuple[float, float] | None  # seeded pick: scores in this share of the best
    challenges: bool
    endgame_candidates: int  # plays checked against the opponent's reply once the bag is empty


LEVEL_SPECS: dict[str, Level] = {
    "easy": Level(12000, 0.0, (0.4, 0.7), challenges=False, endgame_candidates=0),
    "normal": Level(40000, 0.5, None, challenges=True, endgame_candidates=0),
    "hard": Level(None, 1.0, None, challenges=True, endgame_candidates=8),
}


def choose_move(
    state: State, seat: int, level: str, *, seed: int, lexicon: Lexicon | None = None
) -> Move:
    """The move `seat` makes at `level`, decided from what that seat may see."""
    if level not in LEVEL_SPECS:
        raise ValueError(f"the levels are {', '.join(LEVELS)}, not {level!r}")
    spec = LEVEL_SPECS[level]
    lex = lexicon if lexicon is not None else default_lexicon()
    seen = view(state, seat)
    if seen.outcome is not None:
        raise GameOver("scrabble.over")
    if will_challenge(state, seat, level, lexicon=lex):
        return Challenge()
    if seen.turn != seat:
        raise NotYourTurn("scrabble.not_your_turn", can_challenge=False)
    if seen.pending is not None and seen.pending.final:
        return Pass()  # the play that ends the game stands: accept it
    return _turn(seen, spec, lex, random.Random(seed))


def will_challenge(
    state: State, seat: int, level: str, *, lexicon: Lexicon | None = None
) -> bool:
    """Whether `seat` at `level` challenges the open play now, whether or not it is to move
    (at a table of three or four, any other player may challenge): from its view alone."""
    seen = view(state, seat)
    if seen.pending is None or not (seen.can_challenge and LEVEL_SPECS[level].challenges):
        return False
    lex = lexicon if lexicon is not None else default_lexicon()
    return bool(unknown_words(seen.pending, lex))


def _turn(seen: View, spec: Level, lex: Lexicon, rng: random.Random) -> Move:
    assert seen.rack is not None and seen.seat is not None
    board = Board(seen.board)
    if spec.vocabulary is None and spec.pick_band is None and seen.finish is None and seen.bag:
        # it only ranks plays by equity (see _best_play): the search skips those that cannot win
        weight = spec.leave_weight
        plays = best_options(board, seen.rack, lex, lambda kept: weight * leave_value(kept))
    else:
        plays = options(board, seen.rack, lex, one_blank_choice=True)
    winning = _finish_line_play(seen, plays)
    if winning is not None:
        return winning
    known = plays
    if spec.vocabulary is not None:
        vocabulary = common_words(spec.vocabulary, lex)
        known = [
            o for o in plays
            if o.word in vocabulary and all(w in vocabulary for w, _ in o.scored().words)
        ]
    if known:
        if spec.pick_band is not None:
            return _modest(known, spec.pick_band, rng)
        best = _best_play(seen, board, known, spec, lex)
        exchange = _exchange(seen, spec)
        if exchange is None or best[1] >= exchange[1]:
            return best[0]
        return exchange[0]
    exchange = _exchange(seen, spec)
    if exchange is not None:
        return exchange[0]
    if plays:  # no word it knows well: the lowest-scoring valid play
        return _top(plays, lambda o: -o.score).play()
    return Pass()


def _top(plays: list[Option], value: Callable[[Option], float]) -> Option:
    """The play of highest value; among equals, the first by its text (as a person would
    list them). Play objects are only made for the equals."""
    best = max(map(value, plays))
    return min((o for o in plays if value(o) == best), key=lambda o: str(o.play()))


def _finish_line_play(seen: View, plays: list[Option]) -> Play | None:
    """The best-scoring play that reaches the finish-line target, if any does."""
    if seen.finish is None:
        return None
    assert seen.seat is not None  # a seat's view
    need = seen.finish - seen.scores[seen.seat]
    reaching = [o for o in plays if o.score >= need]
    return _top(reaching, lambda o: o.score).play() if reaching else None


def _modest(known: list[Option], band: tuple[float, float], rng: random.Random) -> Play:
    """A seeded pick among the plays scoring between two fractions of the best known score
    (else the plays nearest the middle of that band)."""
    best = max(o.score for o in known)
    low, high = band[0] * best, band[1] * best
    ranked = sorted(((str(o.play()), o) for o in known), key=lambda item: item[0])
    inside = [o for _, o in ranked if low <= o.score <= high]
    if not inside:
        middle = (low + high) / 2
        nearest = min(abs(o.score - middle) for _, o in ranked)
        inside = [o for _, o in ranked if abs(o.score - middle) == nearest]
    return rng.choice(inside).play()


def _best_play(
    seen: View, board: Board, plays: list[Option], spec: Level, lex: Lexicon
) -> tuple[Play, float]:
    """The play with the best equity, and that equity."""
    if seen.bag > 0:
        weight = spec.leave_weight

        def equity(o: Option) -> float:
            return o.score + weight * leave_value(o.kept)

        best = _top(plays, equity)
        return best.play(), equity(best)
    return _endgame(seen, board, plays, spec, lex)


def _endgame(
    seen: View, board: Board, plays: list[Option], spec: Level, lex: Lexicon
) -> tuple[Play, float]:
    """Bag empty: leaves are worth nothing. Going out earns the opponents' tiles; a tile kept
    costs its value. Against one opponent (whose rack is the unseen tiles) the best few plays
    are also charged with the opponent's best reply."""
    unseen = rack_value(seen.unseen)

    def static(o: Option) -> float:
        return o.score + (2 * unseen if not o.left else -2 * rack_value(o.kept))

    opponents = [s for s in seen.order if s != seen.seat and s not in seen.resigned]
    if len(opponents) != 1 or spec.endgame_candidates == 0:
        best = _top(plays, static)
        return best.play(), static(best)
    # A blank makes the opponent's move generation several times dearer: look at fewer plays.
    examined = max(1, spec.endgame_candidates // (1 + seen.unseen.count(BLANK)))
    values = sorted((static(o) for o in plays), reverse=True)
    cut = values[min(examined, len(values)) - 1]
    ranked = sorted(
        ((-static(o), str(o.play()), o) for o in plays if static(o) >= cut),
        key=lambda item: item[:2],
    )
    scored = [
        (-_after_reply(board, seen.unseen, o, lex), text, o) for _, text, o in ranked[:examined]
    ]
    value, _, best = min(scored, key=lambda item: item[:2])
    return best.play(), -value


def _after_reply(board: Board, opponent: str, o: Option, lex: Lexicon) -> float:
    """Our play's score, less the opponent's best reply; whoever goes out gains the other's
    tiles (counted twice: one side gains what the other loses)."""
    if not o.left:
        return o.score + 2 * rack_value(opponent)
    kept = rack_value(o.kept)
    after = board.place(o.scored().placements)
    replies = best_options(after, opponent, lex, lambda _: 0.0)  # the best-scoring ones
    if not replies:  # the opponent is stuck: we play on with what we kept
        return o.score - kept
    reply = min(replies, key=search_order)  # the first the search has always met
    if not reply.left:
        return o.score - reply.score - 2 * kept
    return o.score - reply.score - kept + rack_value(opponent) / 2


def _exchange(seen: View, spec: Level) -> tuple[Exchange, float] | None:
    """The exchange that keeps the most valuable part of the rack, with the value kept, while
    the bag allows one (7 or more tiles, and enough to replace them)."""
    rack = seen.rack or ""
    if seen.bag < EXCHANGE_MIN_BAG or not rack:
        return None
    weight = spec.leave_weight if spec.leave_weight > 0 else 1.0
    best: tuple[float, str, str] | None = None
    for keep_n in range(len(rack)):
        if len(rack) - keep_n > seen.bag:
            continue
        for keep in set(combinations(rack, keep_n)):
            kept = "".join(keep)
            value = weight * leave_value(kept)
            if best is None or (value, kept) > (best[0], best[1]):
                best = (value, kept, _minus(rack, kept))
    if best is None:
        return None
    return Exchange(best[2]), best[0]


def _minus(rack: str, kept: str) -> str:
    left = Counter(rack)
    left.subtract(kept)
    return sort_tiles("".join(left.elements()))
