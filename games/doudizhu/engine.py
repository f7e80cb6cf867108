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
    join_and,
    quoted,
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
from games.serial import Serial

NAME = "doudizhu"
MIN_SEATS = 3
MAX_SEATS = 4
#: No options: the number of seats (3 or 4) chooses the game.
OPTIONS: dict[str, Any] = {}

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
    """`7H` -> `7♥`, `TS` -> `10♠`, `BJ` -> `black joker`."""
    if card == "BJ":
        return "black joker"
    if card == "RJ":
        return "red joker"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
               "B": "black joker", "R": "red joker"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def rank_phrase(rank: int, count: int) -> str:
    """`(4, 3)` -> `three 7s`, `(11, 1)` -> `an ace`, `(13, 2)` -> `two black jokers`."""
    char = RANKS[rank]
    word = _RANK_WORDS.get(char, char)
    if count == 1:
        return ("an " if word[0] in "a8" else "a ") + word
    return f"{_count_word(count)} {word}s"


def _count_word(count: int) -> str:
    """`3` -> `three`; past eight, the digits."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


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
        raise BadNotation(f"{quoted(text.strip())} is not a bid: write `bid 1`, `bid 2`, `bid 3` or `bid pass`.")

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
            what = (f"{quoted(bad)} " + ("is not a rank" if len(bad) == 1 else "are not ranks")
                    if bad else "no cards were given")
            raise BadNotation(f"{what}: write ranks like `33344`, `10JQKA` or `BR` (3-9, 10 "
                              "(or T or 0), J, Q, K, A, 2, B for the black joker, R for the red).")
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
        return {"pass": Pass(), "next": Next(), "stop": Stop()}[words]
    if words.startswith("bid"):
        return Bid.parse(words)
    return Play.parse(text)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State(Serial):
    """One match: the current round's cards, auction and trick, and the running ledger.

    `bids` is the auction so far as (seat, amount) with 0 for a pass. `trick` is the current
    trick (or the one just won, until its winner leads again) as (seat, cards) with no cards
    for a pass. `played` holds every card played this round, in order. `doublings` lists the
    bombs and rockets (compact code, `TTTT`) that doubled the stake. `payments` is what the last
    finished round paid each seat; `went_out` who emptied their hand.
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


def _new_round(*, players: int, seed: int, round_no: int,
               redeal_no: int, ledger: tuple[int, ...], lead_events: list[Event]) -> State:
    blank = State(players, seed, round_no, redeal_no, AUCTION, (), (), "", 0, None, ledger)
    dealt = _deal(seed, players, round_no, redeal_no, blank.dealer)
    holder = dealt["face_up_seat"]
    heading = f"Round {round_no}" + (f", deal {redeal_no + 1}" if redeal_no else "")
    text = (f"{heading}: {{seat{blank.dealer}}} deals. The face-up card "
            f"{card_text(dealt['face_up'])} went to {{seat{holder}}}, who opens the auction.")
    events = (*lead_events, Event("deal", text, holder))
    return replace(blank, turn=holder, events=events, **dealt)


def new_game(seats: int = 3, *, seed: int, options: dict[str, Any] | None = None) -> State:
    """The first round of a series, dealt and waiting for the first bid."""
    if seats not in HAND_SIZE:
        raise ValueError("Dou Dizhu is played by 3 or 4 players.")
    return _new_round(players=seats, seed=seed, round_no=1, redeal_no=0,
                      ledger=(0,) * seats, lead_events=[])


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
    between rounds: next and stop for every seat."""
    if state.phase == ROUND_OVER:
        return [Next(), Stop()]
    if state.phase == OVER or seat != state.turn:
        return []
    if state.phase == AUCTION:
        return [Bid(0)] + [Bid(amount) for amount in range(state.bid + 1, 4)]
    plays = [Play(ranks_text(combo.key)) for combo in legal_combinations(state, seat)]
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
    (a seat that resigned cannot win)."""
    if state.phase != OVER:
        return None
    candidates = [seat for seat in range(state.players) if seat != state.resigned]
    best = max(state.ledger[seat] for seat in candidates)
    winners = tuple(seat for seat in candidates if state.ledger[seat] == best)
    draw = state.resigned is None and len(winners) == state.players
    if state.resigned is not None:
        reason = f"{{seat{state.resigned}}} resigned"
    else:
        reason = "the players stopped the series"
    return Outcome(scores=state.ledger, winners=winners, reason=reason, draw=draw,
                   details={"ledger": list(state.ledger), "rounds": state.round_no})


# --------------------------------------------------------------------------- payments


def payment_text(state: State) -> str:
    """How the last round's payment came about, doublings listed (`{seatN}` placeholders)."""
    if state.payments is None or state.landlord is None:
        return ""
    unit = state.bid * state.multiplier
    steps = "".join(f" \u00d7 2 ({_doubling_text(d, state.players)})" for d in state.doublings)
    formula = f"bid {state.bid}{steps} = {unit}" if steps else f"bid {state.bid}, no doubling"
    landlord = f"{{seat{state.landlord}}}"
    total = unit * (state.players - 1)
    if state.payments[state.landlord] > 0:
        who = ("the landlord " + landlord + " went out first" if state.went_out == state.landlord
               else "the other side resigned")
        return f"{formula}: {who} and collects {unit} from each other player (+{total})."
    who = (f"{{seat{state.went_out}}} went out first" if state.went_out is not None
           else "the landlord resigned")
    return f"{formula}: {who}, so the landlord {landlord} pays {unit} to each other player (-{total})."


def _doubling_text(code: str, players: int) -> str:
    """`bomb 10101010` or `rocket BR`, from a doubling's compact code."""
    combo = classify(code, players)
    return f"{'rocket' if combo.type == ROCKET else 'bomb'} {combo}"


def _settle(state: State, landlord_won: bool) -> tuple[int, ...]:
    unit = state.bid * state.multiplier
    sign = 1 if landlord_won else -1
    return tuple(sign * unit * (state.players - 1) if seat == state.landlord else -sign * unit
                 for seat in range(state.players))


# --------------------------------------------------------------------------- apply


_MOVE_TYPES = (Bid, Play, Pass, Next, Stop)


def _check_seat(state: State, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise NotYourTurn(f"there is no seat {shown(seat)} in this game")


def _check_turn(state: State, seat: int, move: Move) -> None:
    if state.phase == OVER:
        raise GameOver("The series is over.")
    _check_seat(state, seat)
    if not isinstance(move, _MOVE_TYPES):
        raise IllegalMove(f"{shown(repr(move))} is not a Dou Dizhu move: bid, play cards like "
                          "`33344`, pass, next or stop")
    if state.phase == ROUND_OVER:
        if not isinstance(move, (Next, Stop)):
            raise IllegalMove("the round is over: send `next` to deal the next round or `stop` "
                              "to end the series")
        return
    if isinstance(move, (Next, Stop)):
        raise IllegalMove(f"you can only say `{move}` once the round is over")
    if seat != state.turn:
        action = "bid" if state.phase == AUCTION else "play"
        raise NotYourTurn(f"it is not your turn to {action}")


def apply(state: State, seat: int, move: Move) -> State:
    """Apply one action of `seat` and return the new state."""
    _check_turn(state, seat, move)
    if isinstance(move, Next):
        return _new_round(players=state.players, seed=state.seed, round_no=state.round_no + 1,
                          redeal_no=0, ledger=state.ledger, lead_events=[])
    if isinstance(move, Stop):
        event = Event("end", f"{{seat{seat}}} stopped the series after round {state.round_no}.", seat)
        return replace(state, phase=OVER, turn=None, events=(event,))
    if state.phase == AUCTION:
        if isinstance(move, Pass):
            move = Bid(0)
        if not isinstance(move, Bid):
            raise IllegalMove("the auction is on: bid 1, 2 or 3 higher than the current bid, or pass")
        return _bid(state, seat, move.amount)
    if isinstance(move, Bid):
        raise IllegalMove("the auction is over: play cards or pass")
    if isinstance(move, Pass):
        return _pass(state, seat)
    return _play(state, seat, move)


def _bid(state: State, seat: int, amount: int) -> State:
    high = state.bid
    if amount not in (0, 1, 2, 3):
        raise IllegalMove("bids are 1, 2 or 3 (or pass)")
    if amount and amount <= high:
        higher = join_and(range(high + 1, 4), "or")
        raise IllegalMove(f"you must bid more than {high}: bid {higher}, or pass")
    bids = (*state.bids, (seat, amount))
    event = Event("bid", f"{{seat{seat}}} bids {amount}." if amount else f"{{seat{seat}}} passes.", seat)
    new = replace(state, bids=bids, events=(event,))
    high = new.bid
    if amount == 3 or (high and _trailing_passes(bids) >= state.players - 1):
        landlord = next(s for s, a in reversed(bids) if a == high)
        return _crown(new, landlord, event)
    if not high and len(bids) == state.players:
        redeal = Event("redeal", "Everybody passed: the cards are reshuffled and dealt again.")
        return _new_round(players=state.players, seed=state.seed, round_no=state.round_no,
                          redeal_no=state.redeal_no + 1, ledger=state.ledger,
                          lead_events=[event, redeal])
    return replace(new, turn=(seat + 1) % state.players)


def _crown(state: State, landlord: int, bid_event: Event) -> State:
    hands = list(state.hands)
    hands[landlord] = sort_cards(hands[landlord] + state.kitty)
    kitty = ", ".join(card_text(card) for card in sort_cards(state.kitty))
    event = Event("landlord", f"{{seat{landlord}}} is the landlord for {state.bid}, takes the kitty "
                  f"({kitty}) and leads.", landlord)
    return replace(state, phase=PLAY, landlord=landlord, hands=tuple(hands), turn=landlord,
                   events=(bid_event, event))


def _pick_cards(hand: tuple[str, ...], ranks: str) -> tuple[str, ...]:
    """The concrete cards for `ranks`, or raise naming a rank the hand lacks."""
    want = counts_of(to_ranks(ranks))
    have = counts_of(to_ranks(hand))
    for rank, count in enumerate(want):
        if count > have[rank]:
            held = f" (you have {_count_word(have[rank])})" if count > 1 and have[rank] else ""
            raise IllegalMove(f"you do not hold {rank_phrase(rank, count)}{held}")
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
        raise IllegalMove(explain_invalid(cards, players))
    to_beat = state.to_beat
    if to_beat is not None:
        old = classify(to_beat[1], players)
        if not beats(combo, old, players):
            raise IllegalMove(explain_not_beating(combo, old, players))
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    hands = list(state.hands)
    hands[seat] = tuple(remaining)
    leading = to_beat is None
    trick = ((seat, cards),) if leading else (*state.trick, (seat, cards))
    doubles = combo.type == ROCKET or (combo.type == BOMB and (players == 3 or combo.size >= 6))
    doublings = (*state.doublings, combo.code) if doubles else state.doublings
    shown = " ".join(card_text(card) for card in sort_cards(cards))
    events = [Event("play", f"{{seat{seat}}} {'leads' if leading else 'plays'} {combo} "
                    f"({combo.describe()}: {shown}).", seat)]
    if doubles:
        events.append(Event("double", f"The {combo.type} {combo} doubles the stake: now "
                            f"{state.bid} \u00d7 {2 ** len(doublings)}.", seat))
    new = replace(state, hands=tuple(hands), trick=trick, played=(*state.played, *cards),
                  doublings=doublings, turn=(seat + 1) % players)
    if remaining:
        return replace(new, events=tuple(events))
    payments = _settle(new, landlord_won=seat == state.landlord)
    new = replace(new, phase=ROUND_OVER, turn=None, went_out=seat, payments=payments,
                  ledger=tuple(a + b for a, b in zip(state.ledger, payments)))
    side = "the landlord wins" if seat == state.landlord else "the landlord loses"
    events.append(Event("round_end", f"{{seat{seat}}} is out of cards: {side}. "
                        + payment_text(new), seat))
    return replace(new, events=tuple(events))


def _pass(state: State, seat: int) -> State:
    to_beat = state.to_beat
    if to_beat is None:
        raise IllegalMove("you lead this trick, so you cannot pass: play any combination")
    trick = (*state.trick, (seat, ()))
    events = [Event("pass", f"{{seat{seat}}} passes.", seat)]
    turn = (seat + 1) % state.players
    if _trailing_passes(trick) >= state.players - 1:
        winner, cards = to_beat
        turn = winner
        events.append(Event("trick", f"{{seat{winner}}} wins the trick with {classify(cards, state.players)} "
                            "and leads.", winner))
    return replace(state, trick=trick, turn=turn, events=tuple(events))


def resign(state: State, seat: int) -> State:
    """`seat` concedes and the series ends. During the play its side loses the round (paid as
    usual); the top of the ledger among the other seats wins."""
    if state.phase == OVER:
        raise GameOver("The series is over.")
    _check_seat(state, seat)
    new = replace(state, phase=OVER, turn=None, resigned=seat)
    events = [Event("resign", f"{{seat{seat}}} resigns.", seat)]
    if state.phase == PLAY:
        payments = _settle(state, landlord_won=seat != state.landlord)
        new = replace(new, payments=payments, went_out=None,
                      ledger=tuple(a + b for a, b in zip(state.ledger, payments)))
        events.append(Event("round_end", payment_text(new), seat))
    events.append(Event("end", "The series is over.", None))
    return replace(new, events=tuple(events))


def forfeit(state: State, seat: int) -> State:
    """`seat` gives up the round in play and the series goes on (its clock ran out, and a
    computer takes the seat): in the play its side loses the round, paid as usual; in the
    auction it passes."""
    if state.phase == OVER:
        raise GameOver("The series is over.")
    _check_seat(state, seat)
    if state.phase == AUCTION:
        return apply(state, seat, Bid(0))
    if state.phase != PLAY:
        raise IllegalMove("the round is over: there is nothing to forfeit")
    payments = _settle(state, landlord_won=seat != state.landlord)
    new = replace(state, phase=ROUND_OVER, turn=None, went_out=None, payments=payments,
                  ledger=tuple(a + b for a, b in zip(state.ledger, payments)))
    events = (Event("forfeit", f"{{seat{seat}}} forfeits the round.", seat),
              Event("round_end", payment_text(new), seat))
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
    """

    seat: int | None
    players: int
    phase: str
    round_no: int
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
    payment_text: str
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
        payment_text=payment_text(state) if ended else "",
        revealed_hands=state.hands if ended else None,
        events=state.events,
        outcome=outcome(state),
    )


__all__ = [
    "AUCTION", "MAX_SEATS", "MIN_SEATS", "NAME", "OPTIONS", "OVER", "PLAY", "ROUND_OVER",
    "Bid", "Move", "Next", "Pass", "Play", "State", "Stop", "TrickEntry", "View",
    "apply", "card_text", "current_seat", "forfeit", "full_deck", "legal_combinations",
    "legal_moves",
    "new_game", "outcome", "parse_move", "payment_text", "resign", "sort_cards", "view",
]
