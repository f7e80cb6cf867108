"""Scrabble for 2-4 seats: state, turns, the bag, challenges, the end and the per-seat view.

How the rules are modelled (see /work/shared/rules/scrabble.md):

- Turn order: each seat draws a tile; closest to A (a blank beats everything) goes first, tied
  seats draw again, then play passes in seat order. The draws are kept in `State.opening`.
- The bag is a string in draw order, shuffled from the seed; tiles are drawn from its front.
  When tiles go back (an exchange, a play taken back) the bag is reshuffled with an RNG derived
  from the seed, the label and the action number, so every state is plain, replayable JSON.
- Challenges (`challenge="double"`, the default): a play is scored and stands unchecked. The
  player refills the rack at once; the tiles drawn are remembered in `State.pending`. Until the
  next player acts, any other seat may `Challenge`. If a word is not in the lexicon the tiles
  go back to the rack, the tiles drawn go back to the bag (reshuffled), the score is removed
  and the turn stays lost. If every word is good the challenger loses their next turn
  (`State.skips`; a challenger who is the next player loses the turn in hand at once). A play
  that would end the game (going out with the bag empty, or reaching the finish-line target)
  leaves the game waiting: the next player may challenge, or pass to accept and end the game.
  With `challenge="void"` every word is checked when played and a bad one is refused.
- The end: a player goes out with the bag empty; every seat has passed twice in a row (only
  `Pass` counts; a play, even one taken back, restarts every seat's run, and an exchange or
  a lost turn the seat's own, so every seat has passed twice since the last play); or no
  seat can play a word and nobody can exchange (fewer than 7 tiles in the bag), checked
  after each action once no play is pending; or, in finish-line games, a seat reaches the
  target.
- Resigning: the seat's tiles go back into the bag and its turns are skipped; it can no longer
  challenge or win; its play still open to challenge stands. The others play on (passes and
  blocked racks count only the seats still playing; a play that went out with the bag empty
  no longer ends the game once tiles are back in the bag: its player draws). The game ends
  when a single player is left, who wins.
- Exchanges need 7 tiles in the bag and swap one for one, so with 9-tile racks a player may
  put back at most as many tiles as the bag holds.

Event kinds and their values (plain data; seats as numbers, the bot words them):
`opening_draw` (one per round of the draw for first turn: `draws` [[seat, tile]...], `tied`
seats that draw again), `order` (seat: who starts; `order`), `options` (non-default rules:
`rack_size`, `finish`, `challenge`), `play` (`square`, `direction`, `word`, `score`, `words`
[[word, score]...], `bingo`), `final_play` (a play that ends the game if it stands: `ends`
"finish" or "out", `target`), `accept` (the next player passes on such a play), `exchange`
(`tiles`: how many), `pass`, `challenge` (`player`: whose play), `withdrawn` (the challenged
play comes off: `words` not in the dictionary), `challenge_failed` (`later`: the challenger
loses their next turn), `lost_turn`, `resign` (`goes_on`, `tiles` put back), `play_goes_on`
(a resignation refilled the bag under a play that went out: `drew`), `end` (`reason`, `player`,
`target`, `before`, `adjustments`, `racks`, `final`, `resigned`, `winners`, `tiebreak`).

Errors are `GameError`s with a key ("scrabble.<what>") and plain values; the bot words them.
An outcome's `reason` is a key: "out", "passes", "blocked", "finish" or "resigned" (the seat
concerned is `details["seat"]`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from games.common import (
    Event,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Outcome,
    seeded_rng,
    shown,
)
from games.serial import Serial

from .board import Board
from .lexicon import Lexicon, default_lexicon
from . import movegen
from .movegen import has_play, placements
from .moves import Challenge, Exchange, Move, Pass, Play, move_key, parse_move
from .scoring import (
    ScoredPlay,
    UnknownWord,
    check_tiles,
    evaluate,
    unknown_words,
)
from .tiles import BLANK, FULL_SET, order_rank, parse_square, rack_value, sort_tiles

NAME = "scrabble"
MIN_SEATS = 2
MAX_SEATS = 4
EXCHANGE_MIN_BAG = 7
MAX_FINISH = 1000  # the highest finish-line target a game may set

# Suggested finish-line targets by number of players (the rules' table).
FINISH_TARGETS: dict[int, dict[str, int]] = {
    2: {"beginner": 70, "intermediate": 120, "expert": 200},
    3: {"beginner": 60, "intermediate": 100, "expert": 180},
    4: {"beginner": 50, "intermediate": 90, "expert": 160},
}

OPTIONS: dict[str, dict[str, Any]] = {
    "tiles": {
        "default": 7,
        "values": (7, 9),
        "help": "rack size: 7, or 9 for 9-tile Scrabble (bingo for 7, 8 or 9 tiles played)",
    },
    "finish": {
        "default": None,
        "values": (None, "beginner", "intermediate", "expert", "<a positive int>"),
        "help": "finish-line Scrabble: the first to reach this score wins; a level picks the "
        "suggested target for the number of players (FINISH_TARGETS)",
    },
    "challenge": {
        "default": "double",
        "values": ("double", "void"),
        "help": "double: plays stand unchecked and may be challenged (a failed challenge "
        "costs the challenger a turn); void: every word is checked as it is played",
    },
}


class CannotExchange(IllegalMove):
    """An exchange the rules do not allow now."""


class CannotChallenge(IllegalMove):
    """A challenge that cannot be made now."""


class AnswerFinalPlay(IllegalMove):
    """The previous play ends the game if it stands; only a challenge or a pass will do."""


class BadOption(IllegalMove):
    """A match option the game does not know or does not accept."""


@dataclass(frozen=True)
class PlayRecord(Serial):
    """A play on the board: where, which words and what it scored.

    `drawn` (the tiles drawn after it) is private to the player; views leave it out.
    `ends`: `"out"` or `"finish"` when the play ends the game if it stands (the player went
    out with the bag empty, or reached the finish-line target), else None.
    """

    seat: int
    move: str
    squares: tuple[str, ...]
    tiles: str
    words: tuple[tuple[str, int], ...]
    score: int
    bingo: bool
    drawn: str = ""
    ends: str | None = None

    @property
    def final(self) -> bool:
        return self.ends is not None

    def public(self) -> PlayRecord:
        return replace(self, drawn="")


@dataclass(frozen=True)
class State(Serial):
    """A whole game, hidden tiles included; plain JSON through `to_dict`/`from_dict`."""

    seats: int
    seed: int
    rack_size: int
    finish: int | None
    challenge: str
    board: Board
    bag: str
    racks: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int | None
    first: int
    opening: tuple[tuple[tuple[int, str], ...], ...]
    pending: PlayRecord | None = None
    last_play: PlayRecord | None = None
    skips: tuple[int, ...] = ()
    passes: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()
    actions: int = 0
    result: Outcome | None = None
    events: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats still in the game (not resigned), in seat order."""
        return _playing(self.seats, self.resigned)

    def tile_count(self) -> int:
        """Tiles in the bag, on racks and on the board: always 100."""
        on_board = sum(1 for _ in self.board.tiles())
        return len(self.bag) + sum(len(rack) for rack in self.racks) + on_board


def _playing(seats: int, resigned: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(s for s in range(seats) if s not in resigned)


@dataclass(frozen=True)
class View:
    """What one seat may see (`seat=None`: the public view, no rack at all).

    `rack` is the seat's own rack; `rack_sizes` everyone's tile counts; `unseen` the tiles the
    seat cannot see (bag and opponents' racks together; for the public view, every tile not on
    the board). `last_play` is the latest play on the board (for highlighting) and `pending`
    the play still open to challenge, if any.
    """

    seat: int | None
    board: tuple[str, ...]
    scores: tuple[int, ...]
    bag: int
    turn: int | None
    first: int
    order: tuple[int, ...]
    rack: str | None
    rack_sizes: tuple[int, ...]
    unseen: str
    last_play: PlayRecord | None
    pending: PlayRecord | None
    can_challenge: bool
    lost_turns: tuple[int, ...]
    resigned: tuple[int, ...]
    rack_size: int
    finish: int | None
    challenge: str
    events: tuple[Event, ...]
    outcome: Outcome | None


# ---------------------------------------------------------------------------------------------
# Setting up


def resolve_options(seats: int, options: dict[str, Any] | None) -> tuple[int, int | None, str]:
    """(rack size, finish target or None, challenge mode) from match options."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise BadOption("scrabble.unknown_option", option=shown(unknown[0]),
                        options=list(OPTIONS))
    tiles = options.get("tiles", OPTIONS["tiles"]["default"])
    if not _is_int(tiles) or tiles not in (7, 9):
        raise BadOption("scrabble.tiles_option")
    finish = options.get("finish", OPTIONS["finish"]["default"])
    if isinstance(finish, str):
        levels = FINISH_TARGETS.get(seats, FINISH_TARGETS[4])
        if finish not in levels:
            raise BadOption("scrabble.finish_option")
        finish = levels[finish]
    if finish is not None and (not _is_int(finish) or finish <= 0):
        raise BadOption("scrabble.finish_option")
    if finish is not None and finish > MAX_FINISH:
        raise BadOption("scrabble.finish_too_high", most=MAX_FINISH)
    challenge = options.get("challenge", OPTIONS["challenge"]["default"])
    if challenge not in ("double", "void"):
        raise BadOption("scrabble.challenge_option")
    return tiles, finish, challenge


def _is_int(value: Any) -> bool:
    """A whole number given as an int (not a bool, not a float such as 7.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def new_game(seats: int, *, seed: int, options: dict[str, Any] | None = None) -> State:
    """Draw for turn order, shuffle the bag and deal the racks, all from `seed`."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Scrabble is played by {MIN_SEATS} to {MAX_SEATS} players")
    rack_size, finish, challenge = resolve_options(seats, options)

    rng = seeded_rng(seed, "opening")
    contenders = list(range(seats))
    opening: list[tuple[tuple[int, str], ...]] = []
    events: list[Event] = []
    while True:
        drawn = rng.sample(FULL_SET, len(contenders))  # the tiles go back after each round
        rnd = tuple(zip(contenders, drawn))
        opening.append(rnd)
        draws = [[s, t] for s, t in rnd]
        best = min(order_rank(t) for _, t in rnd)
        leaders = [s for s, t in rnd if order_rank(t) == best]
        if len(leaders) > 1:
            events.append(Event("opening_draw", values={"draws": draws, "tied": leaders}))
            contenders = leaders
            continue
        first = leaders[0]
        events.append(Event("opening_draw", values={"draws": draws, "tied": []}))
        break
    order = _order(seats, first)
    events.append(Event("order", seat=first, values={"order": list(order)}))

    bag = list(FULL_SET)
    seeded_rng(seed, "bag").shuffle(bag)
    racks = []
    for _ in range(seats):
        racks.append(sort_tiles("".join(bag[:rack_size])))
        del bag[:rack_size]
    if rack_size == 9 or finish is not None or challenge == "void":
        events.append(Event("options", values={
            "rack_size": rack_size, "finish": finish, "challenge": challenge}))
    return State(
        seats=seats,
        seed=seed,
        rack_size=rack_size,
        finish=finish,
        challenge=challenge,
        board=Board(),
        bag="".join(bag),
        racks=tuple(racks),
        scores=(0,) * seats,
        turn=first,
        first=first,
        opening=tuple(opening),
        skips=(0,) * seats,
        passes=(0,) * seats,
        events=tuple(events),
    )


def _order(seats: int, first: int) -> tuple[int, ...]:
    return tuple((first + i) % seats for i in range(seats))


# ---------------------------------------------------------------------------------------------
# Queries


def current_seat(state: State) -> int | None:
    return None if state.result is not None else state.turn


def outcome(state: State) -> Outcome | None:
    return state.result


def _lexicon(lexicon: Any) -> Lexicon:
    if lexicon is None:
        return default_lexicon()
    if isinstance(lexicon, Lexicon):
        return lexicon
    return Lexicon(lexicon)


def can_challenge(state: State, seat: int) -> bool:
    return (
        state.result is None
        and state.challenge == "double"
        and state.pending is not None
        and state.pending.seat != seat
        and seat not in state.resigned
    )


def legal_moves(state: State, seat: int, *, lexicon: Any = None) -> list[Move]:
    """Every action `seat` may take now, sorted (plays, exchanges, pass, challenge).

    Plays are generated in full but only those whose words are all in the lexicon (in a
    double-challenge game `apply` also accepts other plays, which may then be challenged).
    Exchanges are every distinct set of the seat's tiles, while the bag allows them.
    A seat that is not to move gets `[Challenge()]` while it may challenge, else [].
    """
    if state.result is not None:
        return []
    moves: list[Move] = []
    if can_challenge(state, seat):
        moves.append(Challenge())
    if seat != state.turn:
        return moves
    moves.append(Pass())
    if state.pending is not None and state.pending.final:
        return sorted(moves, key=move_key)
    rack = state.racks[seat]
    if len(state.bag) >= EXCHANGE_MIN_BAG:
        moves.extend(
            Exchange(tiles) for tiles in _sub_racks(rack) if len(tiles) <= len(state.bag)
        )
    moves.extend(play for play, _ in placements(state.board, rack, _lexicon(lexicon)))
    return sorted(moves, key=move_key)


def scored_plays(
    state: State, seat: int, *, lexicon: Any = None, one_blank_choice: bool = False
) -> list[tuple[int, Play]]:
    """Every valid play for `seat`'s rack with its score, best first (a hint or a bot).
    `one_blank_choice` keeps one letter choice per placement of blanks (see `movegen`)."""
    return movegen.scored_plays(
        state.board, state.racks[seat], _lexicon(lexicon), one_blank_choice=one_blank_choice
    )


def _sub_racks(rack: str) -> set[str]:
    out = {""}
    for tile in rack:
        out |= {sort_tiles(sub + tile) for sub in out}
    out.discard("")
    return out


def score_play(
    state: State, seat: int, play: Play | str, *, lexicon: Any = None
) -> ScoredPlay:
    """Check `play` for `seat` as `apply` would and return its words and score (no change)."""
    if isinstance(play, str):
        play = Play.parse(play)
    return _scored(state, seat, play, lexicon)


def _scored(state: State, seat: int, play: Play, lexicon: Any) -> ScoredPlay:
    """Place, check against the rack and score `play`; in a void game a word not in the
    lexicon is refused."""
    scored = evaluate(state.board, play, state.racks[seat])
    if state.challenge == "void":
        bad = unknown_words(scored, _lexicon(lexicon))
        if bad:
            raise UnknownWord(bad)
    return scored


# ---------------------------------------------------------------------------------------------
# Acting


def apply(state: State, seat: int, move: Move | str, *, lexicon: Any = None) -> State:
    """`seat` takes an action; returns the new state. A refused action changes nothing."""
    if state.result is not None:
        raise GameOver("scrabble.over")
    if not 0 <= seat < state.seats:
        raise NotYourTurn("scrabble.no_seat", seat=seat)
    if seat in state.resigned:
        raise NotYourTurn("scrabble.resigned")
    if isinstance(move, str):
        move = parse_move(move)
    lex = _lexicon(lexicon)
    if isinstance(move, Challenge):
        return _challenge(state, seat, lex)
    if seat != state.turn:
        raise NotYourTurn("scrabble.not_your_turn", can_challenge=can_challenge(state, seat))
    if state.pending is not None and state.pending.final and not isinstance(move, Pass):
        raise AnswerFinalPlay("scrabble.answer_final_play")
    if isinstance(move, Play):
        return _play(state, seat, move, lex)
    if isinstance(move, Exchange):
        return _exchange(state, seat, move)
    if isinstance(move, Pass):
        return _pass(state, seat, lex)
    raise IllegalMove("scrabble.not_an_action", action=shown(repr(move)))


class _Draft:
    """Mutable working copy of a state while one action is applied."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.board = state.board
        self.bag = state.bag
        self.racks = list(state.racks)
        self.scores = list(state.scores)
        self.turn = state.turn
        self.pending = state.pending
        self.last_play = state.last_play
        self.skips = list(state.skips)
        self.passes = list(state.passes)
        self.resigned = list(state.resigned)
        self.result: Outcome | None = None
        self.events: list[Event] = []

    def event(self, kind: str, seat: int | None = None, **values: Any) -> None:
        self.events.append(Event(kind, seat=seat, values=values))

    def draw(self, seat: int) -> str:
        need = max(0, self.state.rack_size - len(self.racks[seat]))
        drawn, self.bag = self.bag[:need], self.bag[need:]
        self.racks[seat] = sort_tiles(self.racks[seat] + drawn)
        return drawn

    def return_to_bag(self, tiles: str, label: str) -> None:
        bag = list(self.bag + tiles)
        seeded_rng(self.state.seed, label, self.state.actions).shuffle(bag)
        self.bag = "".join(bag)

    @property
    def playing(self) -> tuple[int, ...]:
        return _playing(self.state.seats, self.resigned)

    def next_seat(self, seat: int) -> int:
        """The next seat after `seat` that is still playing."""
        following = (seat + 1) % self.state.seats
        while following in self.resigned:
            following = (following + 1) % self.state.seats
        return following

    def advance(self, *, settle: bool = True) -> None:
        """The turn passes to the next seat still playing; seats that owe a lost turn are
        skipped."""
        assert self.turn is not None
        self.turn = self.next_seat(self.turn)
        if settle:
            self.settle()

    def settle(self) -> None:
        """Skip the seat to move for as long as it owes lost turns."""
        assert self.turn is not None
        while self.skips[self.turn] > 0:
            self.skips[self.turn] -= 1
            self.passes[self.turn] = 0  # a lost turn is a turn, and not a pass
            self.event("lost_turn", self.turn)
            self.turn = self.next_seat(self.turn)

    def all_passed_twice(self) -> bool:
        return all(self.passes[s] >= 2 for s in self.playing)

    def check_blocked(self, lexicon: Lexicon) -> None:
        """End the game when nobody can exchange and no seat has any valid play."""
        if self.result is not None or self.pending is not None:
            return
        if len(self.bag) >= EXCHANGE_MIN_BAG:
            return
        if any(has_play(self.board, self.racks[s], lexicon) for s in self.playing):
            return
        self.end("blocked")

    def end(self, reason: str, seat: int | None = None) -> None:
        """Finish the game. `seat`: who went out, reached the target, or resigned."""
        seats = self.state.seats
        out = seat if reason == "out" else None
        before = list(self.scores)
        left = [rack_value(rack) for rack in self.racks]
        if reason == "finish" or reason == "resigned":
            adjust = [0] * seats
        else:
            adjust = [-v for v in left]
            if out is not None:
                adjust[out] = sum(left) - left[out]
        final = [b + a for b, a in zip(before, adjust)]
        tiebreak = False
        playing = self.playing  # a seat that resigned cannot win
        if reason == "finish":
            assert seat is not None  # who reached the target
            winners = [seat]
        else:
            top = max(final[s] for s in playing)
            winners = [s for s in playing if final[s] == top]
            if reason != "resigned" and len(winners) > 1:
                tiebreak = True
                best = max(before[s] for s in winners)
                winners = [s for s in winners if before[s] == best]
        details = {
            "reason": reason,
            "seat": seat,  # who went out, reached the target or resigned (else None)
            "target": self.state.finish,
            "before": before,
            "racks": [rack for rack in self.racks],
            "adjustments": adjust,
            "went_out": out,
            "resigned": seat if reason == "resigned" else None,
            "resigned_seats": list(self.resigned),
            "tiebreak": tiebreak,
        }
        self.scores = final
        self.result = Outcome(
            scores=tuple(final),
            winners=tuple(winners),
            reason=reason,
            draw=len(winners) > 1,
            details=details,
        )
        self.pending = None
        self.turn = None
        self.event("end", reason=reason, player=seat, target=self.state.finish, before=before,
                   adjustments=adjust, racks=list(self.racks), final=final,
                   resigned=list(self.resigned), winners=winners, tiebreak=tiebreak)

    def build(self) -> State:
        return replace(
            self.state,
            board=self.board,
            bag=self.bag,
            racks=tuple(self.racks),
            scores=tuple(self.scores),
            turn=self.turn,
            pending=self.pending,
            last_play=self.last_play,
            skips=tuple(self.skips),
            passes=tuple(self.passes),
            resigned=tuple(self.resigned),
            actions=self.state.actions + 1,
            result=self.result,
            events=tuple(self.events),
        )


def _play(state: State, seat: int, play: Play, lexicon: Lexicon) -> State:
    scored = _scored(state, seat, play, lexicon)
    draft = _Draft(state)
    draft.pending = None  # the next player has acted: the previous play stands
    draft.board = state.board.place(scored.placements)
    remaining = Counter(state.racks[seat])
    remaining.subtract(scored.rack_tiles)
    draft.racks[seat] = sort_tiles("".join(remaining.elements()))
    drawn = draft.draw(seat)
    draft.scores[seat] += scored.score
    draft.passes = [0] * state.seats  # runs of passes count from the last play
    reached = state.finish is not None and draft.scores[seat] >= state.finish
    went_out = not draft.racks[seat] and not draft.bag
    ends = "finish" if reached else "out" if went_out else None
    record = PlayRecord(
        seat=seat,
        move=str(play),
        squares=scored.squares,
        tiles=scored.rack_tiles,
        words=scored.words,
        score=scored.score,
        bingo=scored.bingo,
        drawn=drawn,
        ends=ends,
    )
    draft.last_play = record
    draft.event("play", seat, square=play.square, direction=play.direction, word=play.word,
                score=scored.score, words=[[w, s] for w, s in scored.words],
                bingo=scored.bingo)
    if state.challenge == "void":
        if ends is not None:
            draft.end(ends, seat)
        else:
            draft.advance()
            draft.check_blocked(lexicon)
        return draft.build()

    draft.pending = record
    if record.final:
        draft.advance(settle=False)
        # That the game ends if it stands, and who may challenge it, is the turn line's to say.
        draft.event("final_play", seat, ends=ends, target=state.finish)
    else:
        draft.advance()
    return draft.build()


def _exchange(state: State, seat: int, move: Exchange) -> State:
    if len(state.bag) < EXCHANGE_MIN_BAG:
        raise CannotExchange("scrabble.exchange_bag_low", need=EXCHANGE_MIN_BAG,
                             bag=len(state.bag))
    if len(move.tiles) > len(state.bag):  # 9-tile racks: the bag must replace every tile
        raise CannotExchange("scrabble.exchange_too_many", bag=len(state.bag))
    check_tiles(state.racks[seat], move.tiles, exchange=True)
    draft = _Draft(state)
    draft.pending = None
    remaining = Counter(state.racks[seat])
    remaining.subtract(move.tiles)
    draft.racks[seat] = sort_tiles("".join(remaining.elements()))
    draft.draw(seat)
    draft.return_to_bag(move.tiles, "exchange")
    draft.passes[seat] = 0
    draft.event("exchange", seat, tiles=len(move.tiles))
    draft.advance()  # the bag still holds 7 or more tiles: no need to look for a block
    return draft.build()


def _pass(state: State, seat: int, lexicon: Lexicon) -> State:
    draft = _Draft(state)
    pending = state.pending
    draft.pending = None
    if pending is not None and pending.ends is not None:  # a final play
        draft.event("accept", seat)
        draft.end(pending.ends, pending.seat)
        return draft.build()
    draft.passes[seat] += 1
    draft.event("pass", seat)
    if draft.all_passed_twice():
        draft.end("passes")
        return draft.build()
    draft.advance()
    draft.check_blocked(lexicon)
    return draft.build()


def _challenge(state: State, seat: int, lexicon: Lexicon) -> State:
    if state.challenge != "double":
        raise CannotChallenge("scrabble.challenges_off")
    pending = state.pending
    if pending is None:
        raise CannotChallenge("scrabble.nothing_to_challenge")
    if pending.seat == seat:
        raise CannotChallenge("scrabble.own_play")
    draft = _Draft(state)
    draft.pending = None
    bad = unknown_words(pending, lexicon)
    player = pending.seat
    draft.event("challenge", seat, player=player)
    if bad:
        draft.event("withdrawn", player, words=list(bad))
        draft.board = state.board.place(
            (*parse_square(sq), ".") for sq in pending.squares
        )
        rack = Counter(state.racks[player])
        rack.subtract(pending.drawn)
        draft.racks[player] = sort_tiles("".join(rack.elements()) + pending.tiles)
        if pending.drawn:
            draft.return_to_bag(pending.drawn, "challenge")
        draft.scores[player] -= pending.score
        draft.last_play = None
        draft.settle()  # a final play put the turn on the next seat without settling
        draft.check_blocked(lexicon)
        return draft.build()

    # The cost is told once: a game that ends has no next turn, and a challenger who is to
    # move hears "loses this turn" when the turn is skipped below.
    later = pending.ends is None and seat != draft.turn
    draft.event("challenge_failed", seat, later=later)
    if pending.ends is not None:
        draft.end(pending.ends, player)
        return draft.build()
    draft.skips[seat] += 1
    draft.settle()  # a challenger who is the next player loses the turn in hand
    draft.check_blocked(lexicon)
    return draft.build()


def resign(state: State, seat: int, *, lexicon: Any = None) -> State:
    """`seat` concedes. With two or more players left, its tiles go back into the bag, any
    play of its still open to challenge stands, and the others play on; otherwise the game
    ends and the player left wins."""
    if state.result is not None:
        raise GameOver("scrabble.over")
    if not 0 <= seat < state.seats:
        raise NotYourTurn("scrabble.no_seat", seat=seat)
    if seat in state.resigned:
        raise NotYourTurn("scrabble.resigned_already")
    draft = _Draft(state)
    draft.resigned.append(seat)
    if len(draft.playing) == 1:
        draft.event("resign", seat, goes_on=False, tiles=len(draft.racks[seat]))
        draft.end("resigned", seat)
        return draft.build()
    rack = draft.racks[seat]
    draft.racks[seat] = ""
    draft.return_to_bag(rack, "resign")
    draft.skips[seat] = draft.passes[seat] = 0
    draft.event("resign", seat, goes_on=True, tiles=len(rack))
    _hand_on_turn(draft, state, seat)
    _reopen_going_out(draft)
    if draft.all_passed_twice():
        draft.end("passes")
    else:
        draft.check_blocked(_lexicon(lexicon))
    return draft.build()


def _reopen_going_out(draft: _Draft) -> None:
    """A play that went out with the bag empty, still open, no longer ends the game once a
    resignation put tiles back in the bag: its player draws, and play goes on."""
    pending = draft.pending
    if pending is None or pending.ends != "out" or not draft.bag:
        return
    drawn = draft.draw(pending.seat)
    draft.pending = replace(pending, drawn=pending.drawn + drawn, ends=None)
    draft.last_play = draft.pending
    draft.event("play_goes_on", pending.seat, drew=len(drawn))
    draft.settle()  # the game-ending play put the turn on the next seat without settling


def _hand_on_turn(draft: _Draft, state: State, seat: int) -> None:
    """After `seat` resigned: its open play stands; its turn goes to the next player."""
    pending = state.pending
    if pending is not None and pending.seat == seat:
        draft.pending = None  # nobody is left to take the tiles back
        if pending.final:
            draft.settle()  # the final play put the turn on the next seat without settling
    if state.turn == seat:
        # Someone else's game-ending play still waits for an answer from the next player.
        draft.advance(settle=draft.pending is None or not draft.pending.final)


# ---------------------------------------------------------------------------------------------
# Views


def view(state: State, seat: int | None = None) -> View:
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"there is no seat {seat} in this game")
    if seat is None:
        on_board = Counter(BLANK if ch.islower() else ch for _, _, ch in state.board.tiles())
        unseen = Counter(FULL_SET)
        unseen.subtract(on_board)
        hidden = "".join(unseen.elements())
    else:
        hidden = state.bag + "".join(r for s, r in enumerate(state.racks) if s != seat)
    pending = state.pending
    last = state.last_play
    return View(
        seat=seat,
        board=state.board.rows,
        scores=state.scores,
        bag=len(state.bag),
        turn=current_seat(state),
        first=state.first,
        order=_order(state.seats, state.first),
        rack=None if seat is None else state.racks[seat],
        rack_sizes=tuple(len(r) for r in state.racks),
        unseen=sort_tiles(hidden),
        last_play=None if last is None else _shown(last, seat),
        pending=None if pending is None else _shown(pending, seat),
        can_challenge=seat is not None and can_challenge(state, seat),
        lost_turns=state.skips,
        resigned=state.resigned,
        rack_size=state.rack_size,
        finish=state.finish,
        challenge=state.challenge,
        events=state.events,
        outcome=state.result,
    )


def _shown(record: PlayRecord, seat: int | None) -> PlayRecord:
    return record if record.seat == seat else record.public()


def position(
    board: str | Board,
    racks: tuple[str, ...] | list[str],
    *,
    bag: str | None = None,
    scores: tuple[int, ...] | None = None,
    turn: int = 0,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """A state from a board text and racks, for tests and puzzles.

    Without `bag` the bag holds every tile not on the board or a rack (in a seeded order).
    """
    if isinstance(board, str):
        board = Board.parse(board)
    seats = len(racks)
    rack_size, finish, challenge = resolve_options(seats, options)
    racks = tuple(sort_tiles(r.upper()) for r in racks)
    if bag is None:
        rest = Counter(FULL_SET)
        rest.subtract(BLANK if ch.islower() else ch for _, _, ch in board.tiles())
        rest.subtract("".join(racks))
        if any(n < 0 for n in rest.values()):
            raise ValueError("the board and racks use more tiles than the set holds")
        tiles = list(rest.elements())
        seeded_rng(seed, "bag").shuffle(tiles)
        bag = "".join(tiles)
    return State(
        seats=seats,
        seed=seed,
        rack_size=rack_size,
        finish=finish,
        challenge=challenge,
        board=board,
        bag=bag,
        racks=racks,
        scores=scores if scores is not None else (0,) * seats,
        turn=turn,
        first=turn,
        opening=(),
        skips=(0,) * seats,
        passes=(0,) * seats,
    )
