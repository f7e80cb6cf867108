"""The coach's judgment of one Scrabble turn (games/review.py): a play, an exchange or a pass.

The unit is **equity**, as the hard computer counts it (ai.py): a move's score plus the value
of the tiles it keeps (`leave.leave_value`); an exchange scores 0 and keeps the best part of
the rack it can; a pass scores 0 and keeps the whole rack. Once the bag is empty the kept
tiles count as the hard computer counts them there: going out earns twice the unseen tiles'
face value, and each tile kept costs twice its own (no reply is looked ahead).

It is judged from `view(before, seat)` alone: the seat's own rack, the board, the scores and
how many tiles are unseen (never the other racks, nor the order of the bag). The move
generator (movegen.py, as analysis.py uses it) finds every play the rack allows; with the
exchanges (bag of 7 or more) and the pass, these are the candidates, and the best is the one
with the highest chance to win, then the highest equity (ties: the first by its text).

The played move counts what it could score: a play forming a word not in the lexicon (a
"phony", possible only with `challenge="double"`) is valued as taken off, 0 points and the
whole rack kept, as a pass. The judge sees only the state before the turn, so it cannot know
whether the table challenged; every computer that challenges at all takes a phony off.

**Win chance.** Each opponent j still playing is behind the mover, after the move, by
`d_j = (mover's score - j's score) + equity`. How much that lead is worth shrinks as the game
runs out: `scale = K * sqrt(unseen + C)`, with `unseen` the tiles the mover cannot see
(93 at a 2-player start: scale 39 points, so a 40-point lead there is about 73%; 7 unseen at
the end: scale 12). The mover's chance is `1 / (1 + sum_j exp(-d_j / scale))`: the logistic
of the lead for one opponent, 1/N at level scores at a table of N. Hand-set, not fitted: a
logistic of scale s has a standard deviation of 1.8 s, about the spread of final margins
between equal players (70 points at the start). A play reaching a finish-line target wins at
once: 1.

**Choices**: the plays found (one per placement of blanks), the exchanges and the pass.
**Not judged** (None): a challenge (whether a word is good is a question of the dictionary,
not of equity, and at a table of three or four it is taken out of turn), the pass that only
accepts a play ending the game (the seat may only accept or challenge then), and anything
done out of turn. `seed` is unused: there is no sampling.

**Reasons**, when a better move was seen (the first that holds):
`phony` (`words`: not in the dictionary), `finish_missed` (`target`, `move`: a play reached
the finish-line target), `bingo_missed` (`move`, `score`: a play using 7 tiles or more, the
bingo bonus, had more equity than the play made), `exchange_better` (`tiles` to put back,
`kept`), `bad_leave` (`kept`, `better_kept`: about the same score, a much worse leave).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from games.review import Judged, logistic

from . import movegen
from .board import Board
from .engine import EXCHANGE_MIN_BAG, State, View, view
from .leave import leave_value
from .lexicon import Lexicon, default_lexicon
from .moves import Challenge, Exchange, Move, Pass, Play, parse_move
from .scoring import BINGO_TILES, evaluate, unknown_words
from .tiles import rack_value, sort_tiles

UNIT = "equity"
K = 4.0  # points of lead per unit of the curve, times sqrt(unseen tiles + C)
C = 2.0  # keeps the scale above 0 when few tiles are unseen
SIMILAR_SCORE = 5  # points: plays this close in score are "about the same score"
BAD_LEAVE = 8.0  # equity: a leave this much worse is "much worse"

Key = Callable[[movegen.Option], tuple[bool, float]]  # (reaches the target, equity)


@dataclass(frozen=True)
class Candidate:
    """A move the seat could make, valued."""

    move: str
    kind: str  # "play", "exchange" or "pass"
    score: int
    kept: str
    value: float
    reaches: bool = False  # reaches the finish-line target
    bingo: bool = False


def judge(before: State, seat: int, played: str, *, seed: int,
          lexicon: Lexicon | None = None) -> Judged | None:
    """`seat`'s turn from `before` judged from its view only (None: no decision of its own)."""
    del seed  # no sampling
    move = parse_move(played)
    seen = view(before, seat)
    if isinstance(move, Challenge) or seen.turn != seat or seen.outcome is not None:
        return None
    if seen.pending is not None and seen.pending.final:
        return None  # only accept (pass) or challenge
    return judge_view(seen, move, played, lexicon or default_lexicon())


def judge_view(seen: View, move: Move, played: str, lexicon: Lexicon) -> Judged:
    """The turn judged from the seat's view (`seen.turn` is the seat)."""
    assert seen.seat is not None and seen.rack is not None
    mine, phony = _played(seen, move, played, lexicon)
    plays = movegen.options(Board(seen.board), seen.rack, lexicon, one_blank_choice=True)
    exchanges = _exchanges(seen)
    best, bingo = _best_play(seen, plays)
    others = [c for c in (best, _top(exchanges), _pass(seen)) if c is not None]
    best = max(others, key=lambda c: (c.reaches, c.value))
    win_played, win_best = _win(seen, mine), _win(seen, best)
    if (win_played, mine.value) >= (win_best, best.value) and not phony:
        best, win_best = mine, win_played
    reason, values = (None, {}) if best is mine else _reason(seen, mine, best, bingo, phony)
    return Judged(
        seat=seen.seat, played=played, best=best.move,
        played_value=round(mine.value, 2), best_value=round(best.value, 2),
        win_played=win_played, win_best=win_best,
        choices=len(plays) + len(exchanges) + 1, unit=UNIT, reason=reason,
        reason_values=values)


# -- values ------------------------------------------------------------------------------------

def equity(seen: View, score: int, kept: str) -> float:
    """A move's equity: its score and the worth of the tiles it keeps (module doc)."""
    if seen.bag > 0:
        return score + leave_value(kept)
    if not kept:
        return score + 2 * rack_value(seen.unseen)
    return score - 2 * rack_value(kept)


def win_chance(seen: View, lead: float) -> float:
    """The mover's chance to win once its equity `lead` is added to its score (module doc)."""
    assert seen.seat is not None
    scale = K * math.sqrt(len(seen.unseen) + C)
    mine = seen.scores[seen.seat] + lead
    behind = [-(mine - seen.scores[s]) / scale for s in seen.order
              if s != seen.seat and s not in seen.resigned]
    if not behind:
        return 1.0
    top = max(behind)
    return logistic(-(top + math.log(sum(math.exp(x - top) for x in behind))))


def _win(seen: View, candidate: Candidate) -> float:
    return 1.0 if candidate.reaches else win_chance(seen, candidate.value)


def _need(seen: View) -> float:
    """Points that reach the finish-line target (infinite without one)."""
    assert seen.seat is not None
    return math.inf if seen.finish is None else seen.finish - seen.scores[seen.seat]


# -- the candidates ----------------------------------------------------------------------------

def _played(seen: View, move: Move, played: str, lexicon: Lexicon) -> tuple[Candidate, list[str]]:
    """The move played, valued; and the words of a phony (empty for any other move)."""
    rack = seen.rack or ""
    if isinstance(move, Play):
        scored = evaluate(Board(seen.board), move, rack)
        bad = unknown_words(scored, lexicon)
        if bad:
            return Candidate(played, "play", 0, rack, equity(seen, 0, rack)), bad
        kept = _minus(rack, scored.rack_tiles)
        return Candidate(played, "play", scored.score, kept, equity(seen, scored.score, kept),
                         reaches=scored.score >= _need(seen),
                         bingo=len(scored.placements) >= BINGO_TILES), []
    if isinstance(move, Exchange):
        kept = _minus(rack, move.tiles)
        return Candidate(played, "exchange", 0, kept, equity(seen, 0, kept)), []
    assert isinstance(move, Pass)
    return Candidate(played, "pass", 0, rack, equity(seen, 0, rack)), []


def _best_play(seen: View, plays: list[movegen.Option]
               ) -> tuple[Candidate | None, Candidate | None]:
    """The play of the best (reaches target, equity), and the bingo of the best equity."""
    if not plays:
        return None, None
    rack = seen.rack or ""
    need = _need(seen)
    kept_of: dict[int, tuple[str, float]] = {}

    def key(o: movegen.Option) -> tuple[bool, float]:
        known = kept_of.get(o.left)
        if known is None:
            kept = o.kept
            known = kept_of[o.left] = (kept, equity(seen, 0, kept))
        return o.score >= need, o.score + known[1]

    best = _first_of_top(plays, key)
    bingos = [o for o in plays if len(rack) - len(o.kept) >= BINGO_TILES]
    bingo = _first_of_top(bingos, key) if bingos else None
    return _candidate(seen, best, key), None if bingo is None else _candidate(seen, bingo, key)


def _first_of_top(plays: list[movegen.Option], key: Key) -> movegen.Option:
    """The option of the highest key; among equals, the first by its text."""
    top = max(map(key, plays))
    return min((o for o in plays if key(o) == top), key=lambda o: str(o.play()))


def _candidate(seen: View, o: movegen.Option, key: Key) -> Candidate:
    reaches, value = key(o)
    kept = o.kept
    return Candidate(str(o.play()), "play", o.score, kept, value, reaches=reaches,
                     bingo=len(seen.rack or "") - len(kept) >= BINGO_TILES)


def _exchanges(seen: View) -> list[Candidate]:
    """Every exchange the bag allows (7 tiles or more, and enough to replace them)."""
    rack = seen.rack or ""
    if seen.bag < EXCHANGE_MIN_BAG:
        return []
    found = []
    for keep_n in range(len(rack)):
        if len(rack) - keep_n > seen.bag:
            continue
        for keep in sorted(set(combinations(rack, keep_n))):
            kept = "".join(keep)
            tiles = _minus(rack, kept)
            found.append(Candidate(str(Exchange(tiles)), "exchange", 0, sort_tiles(kept),
                                   equity(seen, 0, kept)))
    return found


def _top(candidates: list[Candidate]) -> Candidate | None:
    """The candidate of the best equity; among equals, the first by its text."""
    if not candidates:
        return None
    top = max(c.value for c in candidates)
    return min((c for c in candidates if c.value == top), key=lambda c: c.move)


def _pass(seen: View) -> Candidate:
    rack = seen.rack or ""
    return Candidate("pass", "pass", 0, rack, equity(seen, 0, rack))


def _minus(rack: str, tiles: str) -> str:
    left = Counter(rack)
    left.subtract(tiles)
    return sort_tiles("".join(left.elements()))


# -- why ---------------------------------------------------------------------------------------

def _reason(seen: View, mine: Candidate, best: Candidate, bingo: Candidate | None,
            phony: list[str]) -> tuple[str | None, dict[str, object]]:
    """The first reason that holds (module doc), with its values."""
    if phony:
        return "phony", {"words": phony}
    if best.reaches and not mine.reaches:
        return "finish_missed", {"target": seen.finish, "move": best.move}
    if bingo is not None and not mine.bingo and bingo.value > mine.value:
        return "bingo_missed", {"move": bingo.move, "score": bingo.score}
    if best.kind == "exchange" and mine.kind != "exchange":
        return "exchange_better", {"tiles": best.move.split()[1], "kept": best.kept}
    if (mine.kind == best.kind == "play" and seen.bag > 0
            and best.score - mine.score <= SIMILAR_SCORE
            and leave_value(best.kept) - leave_value(mine.kept) >= BAD_LEAVE):
        return "bad_leave", {"kept": mine.kept, "better_kept": best.kept}
    return None, {}
