"""Dou Dizhu (Fight the Landlord) for 3 or 4 seats: a series of rounds with a running ledger.

Seating: turns go counter-clockwise, which here means from seat `s` to seat `s + 1` (mod the
number of players); "clockwise" is therefore `s - 1`. The first dealer is drawn from the seed
and the deal passes clockwise each round (a redeal after an all-pass auction keeps the dealer).

A deal (`seeded_rng(seed, "deal", round_no, redeal_no)`): shuffle, the player to the dealer's
left cuts, the top card is turned face up and put back at a random place in the middle of the
deck (somewhere a player will draw it), then players draw one card at a time counter-clockwise,
starting with the player after the dealer, until each holds 17 (3 players) or 25 (4 players).
The 3 or 8 cards left are the kitty. Whoever drew the face-up card opens the auction.

Phases: `auction` -> `play` -> `round_over` (any seat may then send `next` or `stop`) -> the
next round's `auction`, or `over` once the players stop. Cards are strings: rank then suit
(`7H`, `TS`; suits S H D C) or `BJ` / `RJ` for the jokers; with 4 players every card is there
twice.

The option `deals` (1 to `MAX_DEALS`) fixes the length of the series: between rounds only
`next` is allowed (`stop` is refused), and the series is over by itself once that many rounds
are paid (the outcome's reason is then `deals`). Without it the series is open, as above, and
the state is saved exactly as it was before the option existed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from games.common import (
    BadNotation,
    Event,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Outcome,
    seeded_rng,
    shown,
    unreadable,
)
from games.doudizhu.combinations import (
    BOMB,
    RANKS,
    ROCKET,
    Combination,
    beats,
    classify,
    counts_of,
    explain_invalid,
    explain_not_beating,
    legal_plays,
    rank_index,
    ranks_label,
    ranks_text,
    to_ranks,
)
from games.serial import Serial, omitted_while_default

NAME = "doudizhu"
MIN_SEATS = 3
MAX_SEATS = 4
MAX_DEALS = 20  # the longest series of a fixed number of rounds
#: The number of seats (3 or 4) chooses the game; `deals` fixes the series' length.
OPTIONS: dict[str, dict[str, Any]] = {
    "deals": {
        "default": None,
        "values": (None, f"1..{MAX_DEALS}"),
        "help": "a series of this many rounds, over by itself once the last is paid (no "
        "`stop`); none: the players stop when they like",
    },
}

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HAND_SIZE = {3: 17, 4: 25}
KITTY_SIZE = {3: 3, 4: 8}

AUCTION, PLAY, ROUND_OVER, OVER = "auction", "play", "round_over", "over"


# --------------------------------------------------------------------------- cards


def full_deck(players: int) -> list[str]:
    """54 cards (3 players) or two decks, 108 cards (4 players), in rank-then-suit order."""
    deck = [rank + suit for rank in RANKS[:13] for suit in SUITS] + ["BJ", "RJ"]
    return deck * (players - 2)


def card_key(card: str) -> tuple[int, int]:
    """Sort key: rank first, then suit."""
    return rank_index(card), SUITS.find(card[1:2])


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_key))


def card_text(card: str) -> str:
    """A card in logs and notation: `7H` -> `7♥`, `TS` -> `10♠`; the jokers stay `BJ` and
    `RJ` (the bot's adapter names them in the reader's language)."""
    if card in ("BJ", "RJ"):
        return card
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


# --------------------------------------------------------------------------- moves

_NOTATION_JUNK = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class Bid:
    """An auction call: 0 is a pass, otherwise 1, 2 or 3."""

    amount: int

    @classmethod
    def parse(cls, text: str) -> Bid:
        words = text.lower().split()
        if words and words[0] == "bid":
            words = words[1:]
        if len(words) == 1 and words[0] in ("pass", "0"):
            return cls(0)
        if len(words) == 1 and words[0] in ("1", "2", "3"):
            return cls(int(words[0]))
        raise BadNotation("doudizhu.bad_bid", text=shown(text.strip()))

    def __str__(self) -> str:
        return f"bid {self.amount or 'pass'}"


@dataclass(frozen=True)
class Play:
    """Cards to play, given by rank only (`33344`); the engine picks the cards from the hand.

    A ten may be written `10`, `T` or `0`. `ranks` is the compact code (`T` for a ten) kept
    sorted low to high so two spellings of the same play are equal; `str()` gives the
    canonical form people read (main part low to high, then the kickers; `10` for a ten),
    which `parse` reads back, as it reads logs written with `T`.
    """

    ranks: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", ranks_text(to_ranks(self.ranks)))

    @classmethod
    def parse(cls, text: str) -> Play:
        raw = _NOTATION_JUNK.sub("", text or "")
        if raw.lower().startswith("play"):
            raw = raw[4:]
        cleaned = raw.upper().replace("10", "T").replace("0", "T")
        typed = re.sub(r"^\s*play", "", text or "", flags=re.IGNORECASE).replace("10", "")
        bad = unreadable(typed, lambda char: char in ",0" or char.upper() in RANKS)
        if not cleaned or bad:
            raise BadNotation("doudizhu.bad_ranks", bad=shown(bad), count=len(bad))
        return cls(cleaned)

    def combination(self, players: int) -> Combination | None:
        return classify(self.ranks, players)

    def __str__(self) -> str:
        combo = classify(self.ranks, 3) or classify(self.ranks, 4)
        return str(combo) if combo else ranks_label(to_ranks(self.ranks))


@dataclass(frozen=True)
class Pass:
    """Decline to answer the current trick (in the auction it counts as `bid pass`)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Next:
    """Deal the next round (after a round has ended)."""

    def __str__(self) -> str:
        return "next"


class BadOption(IllegalMove):
    """A match option the game does not know or does not accept."""


@dataclass(frozen=True)
class Stop:
    """End the series after a round; the ledger decides the winner."""

    def __str__(self) -> str:
        return "stop"


Move = Bid | Play | Pass | Next | Stop


def parse_move(text: str) -> Move:
    """`bid 2`, `bid pass`, `play 33344` (or just `33344`), `pass`, `next`, `stop`."""
    words = (text or "").strip().lower()
    if words in ("pass", "next", "stop"):
        said: dict[str, Move] = {"pass": Pass(), "next": Next(), "stop": Stop()}
        return said[words]
    if words.startswith("bid"):
        return Bid.parse(words)
    return Play.parse(text)


# --------------------------------------------------------------------------- state


@omitted_while_default("deals")
@dataclass(frozen=True)
class State(Serial):
    """One match: the current round's cards, auction and trick, and the running ledger.

    `bids` is the auction so far as (seat, amount) with 0 for a pass. `trick` is the current
    trick (or the one just won, until its winner leads again) as (seat, cards) with no cards
    for a pass. `played` holds every card played this round, in order. `doublings` lists the
    bombs and rockets (compact code, `TTTT`) that doubled the stake. `payments` is what the last
    finished round paid each seat; `went_out` who emptied their hand. `deals` is the series'
    fixed number of rounds (None: an open series, left out of the saved data).
    """

    players: int
    seed: int
    round_no: int
    redeal_no: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]
    face_up: str
    face_up_seat: int
    turn: int | None
    ledger: tuple[int, ...]
    bids: tuple[tuple[int, int], ...] = ()
    landlord: int | None = None
    trick: tuple[tuple[int, tuple[str, ...]], ...] = ()
    played: tuple[str, ...] = ()
    doublings: tuple[str, ...] = ()
    went_out: int | None = None
    payments: tuple[int, ...] | None = None
    resigned: int | None = None
    deals: int | None = None
    events: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def first_dealer(self) -> int:
        return seeded_rng(self.seed, "first dealer").randrange(self.players)

    @property
    def dealer(self) -> int:
        return (self.first_dealer - (self.round_no - 1)) % self.players

    @property
    def bid(self) -> int:
        """The highest bid so far (0 before any bid)."""
        return max((amount for _, amount in self.bids), default=0)

    @property
    def multiplier(self) -> int:
        return 2 ** len(self.doublings)

    @property
    def last_round(self) -> bool:
        """Whether this round is the last of a series of a fixed number of rounds."""
        return self.deals is not None and self.round_no >= self.deals

    @property
    def to_beat(self) -> tuple[int, tuple[str, ...]] | None:
        """The play the seat to move must beat, or None when that seat leads."""
        if self.phase != PLAY or _trailing_passes(self.trick) >= self.players - 1:
            return None
        return next((entry for entry in reversed(self.trick) if entry[1]), None)


def _trailing_passes(entries: tuple[tuple[int, Any], ...]) -> int:
    """How many passes end the sequence (a pass is a falsy second item)."""
    count = 0
    for _, what in reversed(entries):
        if what:
            break
        count += 1
    return count


def _deal(seed: int, players: int, round_no: int, redeal_no: int, dealer: int) -> dict[str, Any]:
    rng = seeded_rng(seed, "deal", round_no, redeal_no)
    deck = full_deck(players)
    rng.shuffle(deck)
    cut = rng.randrange(1, len(deck))
    deck = deck[cut:] + deck[:cut]
    face_up = deck.pop(0)
    drawn = HAND_SIZE[players] * players
    position = rng.randrange(1, drawn)
    deck.insert(position, face_up)
    first = (dealer + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, card in enumerate(deck[:drawn]):
        hands[(first + index) % players].append(card)
    return {
        "hands": tuple(sort_cards(hand) for hand in hands),
        "kitty": tuple(deck[drawn:]),
        "face_up": face_up,
        "face_up_seat": (first + position) % players,
    }


def _new_round(*, players: int, seed: int, round_no: int, redeal_no: int,
               ledger: tuple[int, ...], lead_events: list[Event],
               deals: int | None = None) -> State:
    blank = State(players, seed, round_no, redeal_no, AUCTION, (), (), "", 0, None, ledger,
                  deals=deals)
    dealt = _deal(seed, players, round_no, redeal_no, blank.dealer)
    holder = dealt["face_up_seat"]
    events = (*lead_events, Event("deal", seat=holder, values={
        "round": round_no, "deal": redeal_no + 1, "dealer": blank.dealer,
        "face_up": dealt["face_up"], "holder": holder}))
    return replace(blank, turn=holder, events=events, **dealt)


def new_game(seats: int = 3, *, seed: int, options: dict[str, Any] | None = None) -> State:
    """The first round of a series, dealt and waiting for the first bid."""
    if seats not in HAND_SIZE:
        raise ValueError("Dou Dizhu is played by 3 or 4 players.")
    return _new_round(players=seats, seed=seed, round_no=1, redeal_no=0,
                      ledger=(0,) * seats, lead_events=[], deals=resolve_deals(options))


def resolve_deals(options: dict[str, Any] | None) -> int | None:
    """The series' fixed number of rounds from match options (None: an open series)."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise BadOption("doudizhu.unknown_option", option=shown(unknown[0]),
                        options=list(OPTIONS))
    deals = options.get("deals", OPTIONS["deals"]["default"])
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int)
                              or not 1 <= deals <= MAX_DEALS):
        raise BadOption("doudizhu.deals_option", most=MAX_DEALS)
    return deals


# --------------------------------------------------------------------------- queries


def current_seat(state: State) -> int | None:
    """The seat to act; between rounds the seat that went out (though any seat may act)."""
    if state.phase == OVER:
        return None
    if state.phase == ROUND_OVER:
        return state.went_out
    return state.turn


def legal_moves(state: State, seat: int) -> list[Move]:
    """Auction: the bids (pass first); play: pass (unless leading) then every legal play;
    between rounds: next and (in an open series) stop for every seat."""
    if state.phase == ROUND_OVER:
        return [Next()] if state.deals is not None else [Next(), Stop()]
    if state.phase == OVER or seat != state.turn:
        return []
    if state.phase == AUCTION:
        return [Bid(amount) for amount in (0, *range(state.bid + 1, 4))]
    plays: list[Move] = [Play(ranks_text(combo.key)) for combo in legal_combinations(state, seat)]
    return ([Pass()] if state.to_beat else []) + plays


def legal_combinations(state: State, seat: int) -> list[Combination]:
    """The plays (as combinations, not the pass) `seat` may make now, in the rules' order."""
    if state.phase != PLAY or seat != state.turn:
        return []
    to_beat = state.to_beat
    old = classify(to_beat[1], state.players) if to_beat else None
    return legal_plays(state.hands[seat], old, state.players)


def outcome(state: State) -> Outcome | None:
    """Once the series is over: the ledger as scores; the winners are the top of the ledger
    (a seat that resigned cannot win). The reason: `resigned`, `stopped`, or `deals` (the last
    round of a fixed series was paid)."""
    if state.phase != OVER:
        return None
    candidates = [seat for seat in range(state.players) if seat != state.resigned]
    best = max(state.ledger[seat] for seat in candidates)
    winners = tuple(seat for seat in candidates if state.ledger[seat] == best)
    draw = state.resigned is None and len(winners) == state.players
    details: dict[str, Any] = {"ledger": list(state.ledger), "rounds": state.round_no}
    if state.deals is not None:
        details["deals"] = state.deals
    if state.resigned is not None:
        return Outcome(scores=state.ledger, winners=winners, reason="resigned", draw=draw,
                       details={**details, "resigned": state.resigned})
    reason = "stopped" if state.deals is None else "deals"
    return Outcome(scores=state.ledger, winners=winners, reason=reason, draw=draw,
                   details=details)


# --------------------------------------------------------------------------- payments


def payment(state: State) -> dict[str, Any] | None:
    """How the last round's payment came about, as plain data for the adapter to word:
    the `bid`, the `doublings` (each `{"type": "bomb" or "rocket", "play": "6666"}`), the
    `unit` each other player pays or receives and the landlord's `total`, the `landlord`,
    whether the landlord `won`, and who `went_out` first (None: a side resigned or forfeited).
    None before any round has been paid."""
    if state.payments is None or state.landlord is None:
        return None
    unit = state.bid * state.multiplier
    doublings = []
    for code in state.doublings:
        combo = classify(code, state.players)
        assert combo is not None  # a bomb or a rocket, played
        doublings.append({"type": combo.type, "play": str(combo)})
    return {"bid": state.bid, "doublings": doublings, "unit": unit,
            "total": unit * (state.players - 1), "landlord": state.landlord,
            "won": state.payments[state.landlord] > 0, "went_out": state.went_out}


def _round_end(state: State, seat: int) -> Event:
    """The event of the round just paid (it ended with `seat`'s play, resignation or forfeit)."""
    values = payment(state)
    assert values is not None  # paid, and the auction chose a landlord
    return Event("round_end", seat=seat, values=values)


def _paid(state: State, landlord_won: bool, went_out: int | None) -> State:
    """The round settled: the ledger paid, and the series over if that was its last round."""
    payments = _settle(state, landlord_won)
    phase = OVER if state.last_round else ROUND_OVER
    return replace(state, phase=phase, turn=None, went_out=went_out, payments=payments,
                   ledger=tuple(a + b for a, b in zip(state.ledger, payments)))


def _last_round_end(state: State) -> tuple[Event, ...]:
    """The event that ends a fixed series with its last round (none otherwise)."""
    if state.phase != OVER:
        return ()
    return (Event("end", values={"round": state.round_no, "deals": state.deals}),)


def _settle(state: State, landlord_won: bool) -> tuple[int, ...]:
    unit = state.bid * state.multiplier
    sign = 1 if landlord_won else -1
    return tuple(sign * unit * (state.players - 1) if seat == state.landlord else -sign * unit
                 for seat in range(state.players))


# --------------------------------------------------------------------------- apply


_MOVE_TYPES = (Bid, Play, Pass, Next, Stop)


def _check_seat(state: State, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise NotYourTurn("game.no_seat", seat=shown(seat))


def _check_turn(state: State, seat: int, move: Move) -> None:
    if state.phase == OVER:
        raise GameOver("doudizhu.series_over")
    _check_seat(state, seat)
    if not isinstance(move, _MOVE_TYPES):
        raise IllegalMove("doudizhu.not_a_move", move=shown(repr(move)))
    if isinstance(move, Stop) and state.deals is not None:
        raise IllegalMove("doudizhu.fixed_deals", deals=state.deals, round=state.round_no)
    if state.phase == ROUND_OVER:
        if not isinstance(move, (Next, Stop)):
            raise IllegalMove("doudizhu.round_over")
        return
    if isinstance(move, (Next, Stop)):
        raise IllegalMove("doudizhu.between_rounds_only", move=str(move))
    if seat != state.turn:
        raise NotYourTurn("doudizhu.not_your_turn", phase=state.phase)


def apply(state: State, seat: int, move: Move) -> State:
    """Apply one action of `seat` and return the new state."""
    _check_turn(state, seat, move)
    if isinstance(move, Next):
        return _new_round(players=state.players, seed=state.seed, round_no=state.round_no + 1,
                          redeal_no=0, ledger=state.ledger, lead_events=[], deals=state.deals)
    if isinstance(move, Stop):
        event = Event("end", seat=seat, values={"round": state.round_no})
        return replace(state, phase=OVER, turn=None, events=(event,))
    if state.phase == AUCTION:
        if isinstance(move, Pass):
            move = Bid(0)
        if not isinstance(move, Bid):
            raise IllegalMove("doudizhu.auction_on")
        return _bid(state, seat, move.amount)
    if isinstance(move, Bid):
        raise IllegalMove("doudizhu.auction_over")
    if isinstance(move, Pass):
        return _pass(state, seat)
    return _play(state, seat, move)


def _bid(state: State, seat: int, amount: int) -> State:
    high = state.bid
    if amount not in (0, 1, 2, 3):
        raise IllegalMove("doudizhu.bad_amount")
    if amount and amount <= high:
        raise IllegalMove("doudizhu.bid_higher", high=high, higher=list(range(high + 1, 4)))
    bids = (*state.bids, (seat, amount))
    event = Event("bid", seat=seat, values={"amount": amount})
    new = replace(state, bids=bids, events=(event,))
    high = new.bid
    if amount == 3 or (high and _trailing_passes(bids) >= state.players - 1):
        landlord = next(s for s, a in reversed(bids) if a == high)
        return _crown(new, landlord, event)
    if not high and len(bids) == state.players:
        redeal = Event("redeal")
        return _new_round(players=state.players, seed=state.seed, round_no=state.round_no,
                          redeal_no=state.redeal_no + 1, ledger=state.ledger,
                          lead_events=[event, redeal], deals=state.deals)
    return replace(new, turn=(seat + 1) % state.players)


def _crown(state: State, landlord: int, bid_event: Event) -> State:
    hands = list(state.hands)
    hands[landlord] = sort_cards(hands[landlord] + state.kitty)
    event = Event("landlord", seat=landlord, values={
        "bid": state.bid, "kitty": list(sort_cards(state.kitty))})
    return replace(state, phase=PLAY, landlord=landlord, hands=tuple(hands), turn=landlord,
                   events=(bid_event, event))


def _pick_cards(hand: tuple[str, ...], ranks: str) -> tuple[str, ...]:
    """The concrete cards for `ranks`, or raise naming a rank the hand lacks."""
    want = counts_of(to_ranks(ranks))
    have = counts_of(to_ranks(hand))
    for rank, count in enumerate(want):
        if count > have[rank]:
            raise IllegalMove("doudizhu.not_held", rank=RANKS[rank], count=count,
                              have=have[rank])
    picked: list[str] = []
    for card in hand:
        rank = rank_index(card)
        if want[rank]:
            want[rank] -= 1
            picked.append(card)
    return tuple(picked)


def _play(state: State, seat: int, move: Play) -> State:
    players = state.players
    hand = state.hands[seat]
    cards = _pick_cards(hand, move.ranks)
    combo = classify(cards, players)
    if combo is None:
        key, values = explain_invalid(cards, players)
        raise IllegalMove(key, **values)
    to_beat = state.to_beat
    if to_beat is not None:
        old = classify(to_beat[1], players)
        assert old is not None  # the play that stands was classified when it was played
        if not beats(combo, old, players):
            key, values = explain_not_beating(combo, old, players)
            raise IllegalMove(key, **values)
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    hands = list(state.hands)
    hands[seat] = tuple(remaining)
    leading = to_beat is None
    trick = ((seat, cards),) if leading else (*state.trick, (seat, cards))
    doubles = combo.type == ROCKET or (combo.type == BOMB and (players == 3 or combo.size >= 6))
    doublings = (*state.doublings, combo.code) if doubles else state.doublings
    events = [Event("play", seat=seat, values={
        "play": str(combo), "type": combo.type, "size": combo.size, "lead": leading,
        "cards": list(sort_cards(cards))})]
    if doubles:
        events.append(Event("double", seat=seat, values={
            "type": combo.type, "play": str(combo), "bid": state.bid,
            "multiplier": 2 ** len(doublings)}))
    new = replace(state, hands=tuple(hands), trick=trick, played=(*state.played, *cards),
                  doublings=doublings, turn=(seat + 1) % players)
    if remaining:
        return replace(new, events=tuple(events))
    new = _paid(new, landlord_won=seat == state.landlord, went_out=seat)
    events.append(_round_end(new, seat))
    return replace(new, events=(*events, *_last_round_end(new)))


def _pass(state: State, seat: int) -> State:
    to_beat = state.to_beat
    if to_beat is None:
        raise IllegalMove("doudizhu.lead_no_pass")
    trick = (*state.trick, (seat, ()))
    events = [Event("pass", seat=seat)]
    turn = (seat + 1) % state.players
    if _trailing_passes(trick) >= state.players - 1:
        winner, cards = to_beat
        turn = winner
        events.append(Event("trick", seat=winner,
                            values={"play": str(classify(cards, state.players))}))
    return replace(state, trick=trick, turn=turn, events=tuple(events))


def resign(state: State, seat: int) -> State:
    """`seat` concedes and the series ends. During the play its side loses the round (paid as
    usual); the top of the ledger among the other seats wins."""
    if state.phase == OVER:
        raise GameOver("doudizhu.series_over")
    _check_seat(state, seat)
    new = replace(state, phase=OVER, turn=None, resigned=seat)
    events = [Event("resign", seat=seat)]
    if state.phase == PLAY:
        payments = _settle(state, landlord_won=seat != state.landlord)
        new = replace(new, payments=payments, went_out=None,
                      ledger=tuple(a + b for a, b in zip(state.ledger, payments)))
        events.append(_round_end(new, seat))
    events.append(Event("end"))
    return replace(new, events=tuple(events))


def forfeit(state: State, seat: int) -> State:
    """`seat` gives up the round in play and the series goes on (its clock ran out, and a
    computer takes the seat): in the play its side loses the round, paid as usual (the last
    round of a fixed series ends it); in the auction it passes."""
    if state.phase == OVER:
        raise GameOver("doudizhu.series_over")
    _check_seat(state, seat)
    if state.phase == AUCTION:
        return apply(state, seat, Bid(0))
    if state.phase != PLAY:
        raise IllegalMove("doudizhu.nothing_to_forfeit")
    new = _paid(state, landlord_won=seat != state.landlord, went_out=None)
    events = (Event("forfeit", seat=seat), _round_end(new, seat), *_last_round_end(new))
    return replace(new, events=events)


# --------------------------------------------------------------------------- view


@dataclass(frozen=True)
class TrickEntry:
    """One action in the trick: who, the cards (none for a pass) and the canonical text."""

    seat: int
    cards: tuple[str, ...]
    text: str  # "33344" or "pass"


@dataclass(frozen=True)
class View:
    """What one seat (or, with `seat=None`, anybody) may see.

    Hands other than the viewer's are hidden until the round is over (`revealed_hands`).
    `kitty` is None until the landlord takes it. `to_beat` is the play that `must_answer` (the
    seat to move) has to beat or pass on; both are None when the seat to move leads. Plays
    (`trick`, `to_beat`, `doublings`) are in the notation people read (`10` for a ten).
    Once a round is over, `payment` says how it was paid (see `payment`).
    """

    seat: int | None
    players: int
    phase: str
    round_no: int
    deals: int | None  # the series' fixed number of rounds (None: open)
    dealer: int
    turn: int | None
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    face_up: str
    face_up_seat: int
    bids: tuple[tuple[int, int], ...]
    bid: int
    landlord: int | None
    kitty: tuple[str, ...] | None
    trick: tuple[TrickEntry, ...]
    to_beat: TrickEntry | None
    must_answer: int | None
    multiplier: int
    doublings: tuple[str, ...]
    stake: int
    played: tuple[str, ...]
    ledger: tuple[int, ...]
    went_out: int | None
    payments: tuple[int, ...] | None
    payment: dict[str, Any] | None
    revealed_hands: tuple[tuple[str, ...], ...] | None
    events: tuple[Event, ...]
    outcome: Outcome | None


def _entry(entry: tuple[int, tuple[str, ...]], players: int) -> TrickEntry:
    seat, cards = entry
    combo = classify(cards, players) if cards else None
    return TrickEntry(seat, cards, str(combo) if combo else "pass")


def view(state: State, seat: int | None = None) -> View:
    """The game as `seat` sees it: its own hand only, everything public besides."""
    ended = state.phase in (ROUND_OVER, OVER) and state.payments is not None
    to_beat = state.to_beat
    return View(
        seat=seat,
        players=state.players,
        phase=state.phase,
        round_no=state.round_no,
        deals=state.deals,
        dealer=state.dealer,
        turn=current_seat(state),
        hand=state.hands[seat] if seat is not None else (),
        hand_counts=tuple(len(hand) for hand in state.hands),
        face_up=state.face_up,
        face_up_seat=state.face_up_seat,
        bids=state.bids,
        bid=state.bid,
        landlord=state.landlord,
        kitty=sort_cards(state.kitty) if state.landlord is not None else None,
        trick=tuple(_entry(entry, state.players) for entry in state.trick),
        to_beat=_entry(to_beat, state.players) if to_beat else None,
        must_answer=state.turn if to_beat else None,
        multiplier=state.multiplier,
        doublings=tuple(str(classify(code, state.players)) for code in state.doublings),
        stake=state.bid * state.multiplier,
        played=state.played,
        ledger=state.ledger,
        went_out=state.went_out,
        payments=state.payments,
        payment=payment(state) if ended else None,
        revealed_hands=state.hands if ended else None,
        events=state.events,
        outcome=outcome(state),
    )


__all__ = [
    "AUCTION", "MAX_DEALS", "MAX_SEATS", "MIN_SEATS", "NAME", "OPTIONS", "OVER", "PLAY",
    "ROUND_OVER", "BadOption", "Bid", "Move", "Next", "Pass", "Play", "State", "Stop",
    "TrickEntry", "View",
    "apply", "card_text", "current_seat", "forfeit", "full_deck", "legal_combinations",
    "legal_moves",
    "new_game", "outcome", "parse_move", "payment", "resign", "sort_cards", "view",
]
