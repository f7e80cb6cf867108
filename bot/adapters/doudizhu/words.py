"""Dou Dizhu in words: the engine's events, refusals, payments and outcomes, which it gives as
keys and plain data, worded here for a reader's voice, and the lines of the table and of a hand.
Plays stay in the notation players type (`33344`, `10JQKA`, `BR`); cards are said as `7♥`,
`10♠` or a joker by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import games.doudizhu as ddz
from bot.ui.present import legacy_names, mention
from bot.matches.model import Match, player_name
from games.common import Event, GameError, quoted
from i18n import Words, _, lines, listed, n_
from render.doudizhu import JOKER_NAMES, card_words, cards_words
from render.doudizhu_words import TYPE_NAMES, describe


SHORT_CHAIN = {
    ddz.SEQUENCE: _("a sequence needs at least 5 cards"),
    ddz.PAIR_SEQUENCE: _("a pair sequence needs at least 3 pairs"),
    ddz.TRIO_SEQUENCE: _("a trio sequence needs at least 2 trios"),
}
RANK_WORDS: dict[str, Words | str] = {
    "T": "10", "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace"),
    "B": JOKER_NAMES["BJ"], "R": JOKER_NAMES["RJ"],
}
# TRANSLATORS: how many cards, in "you do not hold three 7s (you have one)".
NUMBER_WORDS = (_("one"), _("two"), _("three"), _("four"), _("five"), _("six"), _("seven"),
                _("eight"))


def play_label(combo: ddz.Combination) -> Words:
    """`33344 · trio with a pair`: the notation `/doudizhu play` takes, and its kind."""
    return lines((str(combo), describe(combo.type, combo.size)), " \N{MIDDLE DOT} ")


def name(match: Match, seat: int, *, bold: bool = False) -> Words:
    """The seat's name (a computer's worded), in bold when `bold`."""
    player = player_name(match.player(seat))
    return lines(("**", player, "**"), "") if bold else player


def signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def ledger_text(match: Match, ledger: Iterable[int]) -> Words:
    """`alice +4 · bob -2 · carol -2`: names and numbers only."""
    return lines((lines((name(match, seat), signed(amount)), " ")
                  for seat, amount in enumerate(ledger)), " \N{MIDDLE DOT} ")


def higher_bids(high: int) -> Words:
    """The bids above `high`: `1, 2 or 3`."""
    return listed(range(high + 1, 4), "or")


# --------------------------------------------------------------------------- events


def event_words(match: Match, event: Event) -> Words:
    """An engine event in words, players' names in bold."""
    if event.text:  # saved before events carried values
        return event.text.format(**legacy_names(match))
    values = event.values
    player = name(match, event.seat, bold=True) if event.seat is not None else ""
    kind = event.kind
    if kind == "deal":
        named = {"dealer": name(match, values["dealer"], bold=True),
                 "holder": name(match, values["holder"], bold=True),
                 "card": card_words(values["face_up"]), "round": values["round"]}
        if values["deal"] > 1:
            return _("Round {round}, deal {deal}: {dealer} deals. The face-up card {card} went "
                     "to {holder}, who opens the auction.", deal=values["deal"], **named)
        return _("Round {round}: {dealer} deals. The face-up card {card} went to {holder}, who "
                 "opens the auction.", **named)
    if kind == "bid":
        if values["amount"]:
            return _("{player} bids {amount}.", player=player, amount=values["amount"])
        return _("{player} passes without bidding.", player=player)
    if kind == "redeal":
        return _("Everybody passed: the cards are reshuffled and dealt again.")
    if kind == "landlord":
        kitty = lines((card_words(card) for card in values["kitty"]), ", ")
        return _("{player} is the landlord for {bid}, takes the kitty ({kitty}) and leads.",
                 player=player, bid=values["bid"], kitty=kitty)
    if kind == "play":
        said = {"player": player, "play": values["play"],
                "what": describe(values["type"], values["size"]),
                "cards": cards_words(values["cards"])}
        if values["lead"]:
            return _("{player} leads {play} ({what}: {cards}).", **said)
        return _("{player} plays {play} ({what}: {cards}).", **said)
    if kind == "double":
        said = {"play": values["play"], "bid": values["bid"], "multiplier": values["multiplier"]}
        if values["type"] == ddz.ROCKET:
            return _("The rocket {play} doubles the stake: now {bid} \N{MULTIPLICATION SIGN} "
                     "{multiplier}.", **said)
        return _("The bomb {play} doubles the stake: now {bid} \N{MULTIPLICATION SIGN} "
                 "{multiplier}.", **said)
    if kind == "pass":
        return _("{player} passes.", player=player)
    if kind == "trick":
        return _("{player} wins the trick with {play} and leads.", player=player,
                 play=values["play"])
    if kind == "round_end":
        return round_end_words(match, values)
    if kind == "end":
        if values.get("deals") is not None:  # the last round of a fixed series
            return _("That was deal {deal} of {deals}: the series is over.",
                     deal=values["round"], deals=values["deals"])
        if event.seat is None:
            return _("The series is over.")
        return _("{player} stopped the series after round {round}.", player=player,
                 round=values["round"])
    if kind == "resign":
        return _("{player} resigns.", player=player)
    if kind == "forfeit":
        return _("{player} forfeits the round.", player=player)
    return ""


def round_end_words(match: Match, paid: Mapping[str, Any]) -> Words:
    """Who went out and what the round paid; after a resignation or forfeit, the payment."""
    payment = payment_words(match, paid)
    out = paid["went_out"]
    if out is None:
        return payment
    player = name(match, out, bold=True)
    if out == paid["landlord"]:
        return _("{player} is out of cards: the landlord wins. {payment}", player=player,
                 payment=payment)
    return _("{player} is out of cards: the landlord loses. {payment}", player=player,
             payment=payment)


def payment_words(match: Match, paid: Mapping[str, Any], *, bold: bool = True) -> Words:
    """How a round's payment came about (`ddz.payment`), the doublings listed."""
    steps = [(_("\N{MULTIPLICATION SIGN} 2 (rocket {play})", play=step["play"])
              if step["type"] == ddz.ROCKET
              else _("\N{MULTIPLICATION SIGN} 2 (bomb {play})", play=step["play"]))
             for step in paid["doublings"]]
    if steps:
        formula = _("bid {bid} {doublings} = {unit}", bid=paid["bid"],
                    doublings=lines(steps, " "), unit=paid["unit"])
    else:
        formula = _("bid {bid}, no doubling", bid=paid["bid"])
    said = {"formula": formula, "unit": paid["unit"], "total": paid["total"],
            "landlord": name(match, paid["landlord"], bold=bold)}
    out = paid["went_out"]
    if paid["won"]:
        if out == paid["landlord"]:
            return _("{formula}: the landlord {landlord} went out first and collects {unit} "
                     "from each other player (+{total}).", **said)
        said.pop("landlord")
        return _("{formula}: the other side resigned and collects {unit} from each other "
                 "player (+{total}).", **said)
    if out is None:
        return _("{formula}: the landlord resigned, so the landlord {landlord} pays {unit} to "
                 "each other player (-{total}).", **said)
    return _("{formula}: {player} went out first, so the landlord {landlord} pays {unit} to "
             "each other player (-{total}).", player=name(match, out, bold=bold), **said)


# --------------------------------------------------------------------------- the end


def reason_words(match: Match, outcome: Any) -> Words:
    """Why the series ended."""
    if outcome.reason == "resigned":
        return _("{player} resigned", player=name(match, outcome.details["resigned"]))
    if outcome.reason == "stopped":
        return _("the players stopped the series")
    if outcome.reason == "deals":
        return _("its last deal is played")
    return outcome.reason.format(**legacy_names(match, bold=False))  # saved before the keys


def standings_words(match: Match, ledger: tuple[int, ...],
                    winners: Iterable[int] | None = None, *, draw: bool = False) -> Words:
    """Who won the series, from the ledger."""
    if winners is None:
        best = max(ledger)
        winners = [seat for seat, amount in enumerate(ledger) if amount == best]
        draw = len(winners) == len(ledger)
    winners = list(winners)
    if draw or not winners:
        return _("The ledger is level: nobody wins the series.")
    amount = ledger[winners[0]]  # 0 when a player resigned before anything was paid
    if len(winners) == 1:
        player = name(match, winners[0], bold=True)
        if amount:
            return _("{player} wins the series with {amount}.", player=player,
                     amount=signed(amount))
        return _("{player} wins the series.", player=player)
    players = listed(name(match, seat, bold=True) for seat in winners)
    if amount:
        return _("{players} share the series win with {amount}.", players=players,
                 amount=signed(amount))
    return _("{players} share the series win.", players=players)


# --------------------------------------------------------------------------- the table and the hand

DOT = " \N{MIDDLE DOT} "


def table_title(view: ddz.View) -> Words:
    """`Dou Dizhu · round 2`, or `deal 2 of 4` in a series of a fixed number of rounds (a
    game night's table, whose rounds are the night's)."""
    if view.deals is None:
        return _("Dou Dizhu \N{MIDDLE DOT} round {round}", round=view.round_no)
    return _("Dou Dizhu \N{MIDDLE DOT} deal {deal} of {deals}", deal=view.round_no,
             deals=view.deals)


def hand_footer(match: Match, view: ddz.View) -> Words:
    """Under a private hand: the match and the round (the deal of how many, in a fixed
    series)."""
    if view.deals is None:
        return _("Dou Dizhu match #{id} \N{MIDDLE DOT} round {round}", id=str(match.id),
                 round=view.round_no)
    return _("Dou Dizhu match #{id} \N{MIDDLE DOT} deal {deal} of {deals}",
             id=str(match.id), deal=view.round_no, deals=view.deals)


def private_prompt(match: Match, view: ddz.View, seat: int) -> Words:
    """The line above a player's hand: whose turn it is and what they may do."""
    if view.phase == ddz.ROUND_OVER and view.deals is not None:
        return _("Deal {deal} of {deals} is over: the hands and the payment are in the "
                 "channel. Deal the next one when you are ready.", deal=view.round_no,
                 deals=view.deals)
    if view.phase == ddz.ROUND_OVER:
        return _("Round {round} is over: the hands and the payment are in the channel. Deal "
                 "the next round, or stop the series?", round=view.round_no)
    if view.turn != seat:
        return _("Waiting for **{player}**.", player=name(match, view.turn))
    if view.phase == ddz.AUCTION:
        return _("**Your turn to bid:** pass or bid {higher}.", higher=higher_bids(view.bid))
    if view.to_beat is not None:
        return _("**Your turn:** beat **{play}** from {player}, or pass.",
                 play=view.to_beat.text, player=name(match, view.to_beat.seat))
    return _("**Your turn to lead:** play any combination.")


def round_over_line(view: ddz.View) -> Words:
    """What the channel may do once a round is over: deal the next, or stop an open series."""
    if view.deals is not None:
        return _("**Deal {deal} of {deals} is over.** `/doudizhu next` deals the next one.",
                 deal=view.round_no, deals=view.deals)
    return _("**Round {round} is over.** `/doudizhu next` deals round {next}; `/doudizhu stop` "
             "ends the series.", round=view.round_no, next=view.round_no + 1)


def so_far(match: Match, view: ddz.View) -> tuple[Words, Words] | None:
    """The auction or the trick so far: the live table is edited as it goes on."""
    if view.phase == ddz.AUCTION and view.bids:
        bids = [lines((name(match, seat), str(amount)), " ") if amount
                else _("{player} no bid", player=name(match, seat))
                for seat, amount in view.bids]
        return _("Bids"), lines(bids, DOT)
    if view.phase == ddz.PLAY and view.trick:
        plays = [lines((name(match, entry.seat), entry.text), " ") if entry.cards
                 else _("{player} pass", player=name(match, entry.seat))
                 for entry in view.trick]
        return _("This trick"), lines(plays, DOT)
    return None


def table_note(view: ddz.View, shown: ddz.TrickEntry, player: str) -> Words:
    """The play on the table, by whom, and whether it is the one to beat."""
    if view.to_beat == shown:
        return _("**{play}** by {player} (to beat)", play=shown.text, player=player)
    if view.phase == ddz.PLAY:
        return _("**{play}** by {player} (won the trick)", play=shown.text, player=player)
    return _("**{play}** by {player}", play=shown.text, player=player)


def stake_text(view: ddz.View) -> Words:
    """The auction's high bid, or the stake: bid × multiplier (and what doubled it)."""
    if view.landlord is None:
        if view.bid:
            return _("auction: high bid {bid}", bid=view.bid)
        return _("auction: no bid yet")
    said = {"bid": view.bid, "multiplier": view.multiplier, "stake": view.stake}
    if view.doublings:
        return _("bid {bid} \N{MULTIPLICATION SIGN} {multiplier} = {stake} (doubled by "
                 "{doublings})", doublings=listed(view.doublings), **said)
    return _("bid {bid} \N{MULTIPLICATION SIGN} {multiplier} = {stake}", **said)


def turn_line(match: Match, view: ddz.View, dms_closed: bool) -> Words:
    """Whose turn, and how to act: the player's buttons are in their DM, or in
    `/doudizhu hand` for a player whose DMs are closed."""
    who = mention(match, view.turn)
    if view.phase == ddz.AUCTION:
        choices = listed([_("pass"), *(f"`{amount}`" for amount in range(view.bid + 1, 4))],
                         "or")
        if dms_closed:
            return _("{player}, your bid: `/doudizhu bid` {choices} (or the buttons in "
                     "`/doudizhu hand`).", player=who, choices=choices)
        return _("{player}, your bid: `/doudizhu bid` {choices} (or the buttons in your "
                 "DM).", player=who, choices=choices)
    if view.to_beat is not None:
        if dms_closed:
            return _("{player}, beat **{play}** or pass: `/doudizhu play`, `/doudizhu pass`, "
                     "or the menu in `/doudizhu hand`.", player=who, play=view.to_beat.text)
        return _("{player}, beat **{play}** or pass: `/doudizhu play`, `/doudizhu pass`, or "
                 "the menu in your DM.", player=who, play=view.to_beat.text)
    if dms_closed:
        return _("{player}, you lead: `/doudizhu play` or the menu in `/doudizhu hand`.",
                 player=who)
    return _("{player}, you lead: `/doudizhu play` or the menu in your DM.", player=who)


# --------------------------------------------------------------------------- refusals


def error_words(error: GameError) -> Words | None:
    """A Dou Dizhu engine error in words; None for a key this game does not know."""
    key, values = error.key, error.values
    if not isinstance(key, str) or not key.startswith("doudizhu."):
        return None
    what = key.partition(".")[2]
    worded = _REFUSALS.get(what)
    return worded(values) if worded is not None else None


def _bad_ranks(values: Mapping[str, Any]) -> Words:
    if not values["bad"]:
        return _("no cards were given: write ranks like `33344`, `10JQKA` or `BR` (3-9, 10 (or "
                 "T or 0), J, Q, K, A, 2, B for the black joker, R for the red).")
    return n_("{bad} is not a rank: write ranks like `33344`, `10JQKA` or `BR` (3-9, 10 (or T "
              "or 0), J, Q, K, A, 2, B for the black joker, R for the red).",
              "{bad} are not ranks: write ranks like `33344`, `10JQKA` or `BR` (3-9, 10 (or T "
              "or 0), J, Q, K, A, 2, B for the black joker, R for the red).",
              values["count"], bad=quoted(values["bad"]))


def _number(count: int) -> Words | int:
    """`3` -> `three`; past eight, the digits."""
    return NUMBER_WORDS[count - 1] if 1 <= count <= len(NUMBER_WORDS) else count


def _not_held(values: Mapping[str, Any]) -> Words:
    rank, count, have = values["rank"], values["count"], values["have"]
    word = RANK_WORDS.get(rank, rank)
    if count == 1:
        if rank in "A8":
            return _("you do not hold an {rank}", rank=word)
        return _("you do not hold a {rank}", rank=word)
    if have:
        return _("you do not hold {count} {rank}s (you have {have})", count=_number(count),
                 rank=word, have=_number(have))
    return _("you do not hold {count} {rank}s", count=_number(count), rank=word)


def _jokers_not_a_pair(values: Mapping[str, Any]) -> Words:
    if values["players"] == 4:
        return _("a black and a red joker are not a pair and cannot both be extra cards: "
                 "together they only make the rocket (BBRR with 4 players), played on its own")
    return _("a black and a red joker are not a pair and cannot both be extra cards: together "
             "they only make the rocket (BR), played on its own")


_REFUSALS: dict[str, Callable[[Mapping[str, Any]], Words]] = {
    "bad_bid": lambda v: _("{text} is not a bid: write `bid 1`, `bid 2`, `bid 3` or `bid pass`.",
                           text=quoted(v["text"])),
    "bad_ranks": _bad_ranks,
    "series_over": lambda v: _("The series is over."),
    "not_a_move": lambda v: _("{move} is not a Dou Dizhu move: bid, play cards like `33344`, "
                              "pass, next or stop", move=v["move"]),
    "round_over": lambda v: _("the round is over: send `next` to deal the next round or `stop` "
                              "to end the series"),
    "between_rounds_only": lambda v: _("you can only say `{move}` once the round is over",
                                       move=v["move"]),
    "fixed_deals": lambda v: n_(
        "this series is {n} deal long and ends by itself after it: it cannot be stopped",
        "this series is {n} deals long and ends by itself after the last: it cannot be "
        "stopped", v["deals"]),
    "unknown_option": lambda v: _("Dou Dizhu has no option {option}: use {options}",
                                  option=quoted(v["option"]), options=listed(v["options"])),
    "deals_option": lambda v: _("the deals option is a number of deals from 1 to {most}",
                                most=v["most"]),
    # (the bot adds whose turn it is: "It is alice's turn.")
    "not_your_turn": lambda v: (_("It is not your turn to bid.") if v["phase"] == ddz.AUCTION
                                else _("It is not your turn to play.")),
    "auction_on": lambda v: _("the auction is on: bid 1, 2 or 3 higher than the current bid, "
                              "or pass"),
    "auction_over": lambda v: _("the auction is over: play cards or pass"),
    "bad_amount": lambda v: _("bids are 1, 2 or 3 (or pass)"),
    "bid_higher": lambda v: _("you must bid more than {high}: bid {higher}, or pass",
                              high=v["high"], higher=listed(v["higher"], "or")),
    "not_held": _not_held,
    "lead_no_pass": lambda v: _("you lead this trick, so you cannot pass: play any combination"),
    "nothing_to_forfeit": lambda v: _("the round is over: there is nothing to forfeit"),
    # why cards are not a combination (games.doudizhu.combinations.explain_invalid)
    "no_cards_played": lambda v: _("you must play at least one card"),
    "three_players_only": lambda v: _("a {type} is not allowed with 4 players",
                                      type=TYPE_NAMES[v["type"]]),
    "joker_colours": lambda v: _("with 4 players two jokers are a pair only when they have the "
                                 "same colour (BB or RR); the rocket is all four jokers, BBRR"),
    "both_jokers": lambda v: _("the two jokers may not both be used in one combination"),
    "jokers_not_a_pair": _jokers_not_a_pair,
    "not_consecutive": lambda v: _("{cards} is not a {type}: the ranks must be consecutive",
                                   cards=v["cards"], type=TYPE_NAMES[v["type"]]),
    "chain_with_twos": lambda v: _("a {type} cannot contain 2s or jokers",
                                   type=TYPE_NAMES[v["type"]]),
    "chain_too_short": lambda v: SHORT_CHAIN[v["type"]],
    "twos_in_trio_sequence": lambda v: _("2s cannot be part of a trio sequence"),
    "kicker_shares_rank": lambda v: (
        _("the extra cards may not share a rank with the four") if v["type"] == ddz.QUADPLEX
        else _("the extra cards may not share a rank with the trios")),
    "kickers_differ": lambda v: _("the extra cards must all have different ranks"),
    "trios_not_consecutive": lambda v: _("the trios of a trio sequence must be of consecutive "
                                         "ranks"),
    "not_a_combination": lambda v: _("{cards} is not a combination: see the 13 combinations in "
                                     "the rules", cards=v["cards"]),
    # why a play does not beat the play before (explain_not_beating)
    "rocket_unbeaten": lambda v: _("nothing beats the rocket: you must pass"),
    "smaller_bomb": lambda v: _("{play} does not beat {to_beat}: a bomb with more cards beats "
                                "one with fewer", play=v["play"], to_beat=v["to_beat"]),
    "does_not_beat": lambda v: _("{play} does not beat {to_beat}", play=v["play"],
                                 to_beat=v["to_beat"]),
    "beat_the_bomb_4": lambda v: _("only a bomb with more cards, a higher bomb of {size} cards "
                                   "or the rocket beats the bomb {to_beat}", size=v["size"],
                                   to_beat=v["to_beat"]),
    "beat_the_bomb": lambda v: _("only a higher bomb or the rocket beats the bomb {to_beat}",
                                 to_beat=v["to_beat"]),
    "answer_in_kind": lambda v: _("you must answer a {what} (or play a bomb or the rocket)",
                                  what=describe(v["type"], v["size"])),
}
