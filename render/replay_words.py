"""The lines a replay's frames are captioned with: what each logged action did, said short
(one line of a phone-sized picture), and how the game stands after it.

Worded from the action and the events it caused (`step.after.events`), never from anything a
seat alone could see. Sentences the bot already says elsewhere keep the same catalog entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.replay import Step
from i18n import Words, _, lines, n_

DOT = " \N{MIDDLE DOT} "
Events = dict[str, dict[str, Any]]  # the values of the events of one action, by kind


def move_line(game: str, step: Step, view: Any, total: int, names: Sequence[str]) -> Words:
    """`12/60: Alice played d3.`"""
    # TRANSLATORS: the caption of one frame of a replay (an animated picture of a whole
    # match): the move's number, how many there are, and what it did. One short line.
    return _("{n}/{total}: {action}", n=step.ply, total=total,
             action=action_words(game, step, view, names))


def action_words(game: str, step: Step, view: Any, names: Sequence[str]) -> Words:
    """What the action of `step` did, with who took it; `view` is the public view after it."""
    player = names[step.seat] if step.seat is not None and step.seat < len(names) else ""
    events = {event.kind: event.values for event in step.after.events}
    if step.action == "resign":
        return _("{player} resigned.", player=player)
    if step.action == "forfeit":
        return _("{player} forfeits the round.", player=player)
    return _ACTIONS[game](step, view, events, player, names)


def _reversi(step: Step, view: Any, events: Events, player: str,
             names: Sequence[str]) -> Words:
    return _("{player} played {square}.", player=player, square=step.action)


def _scrabble(step: Step, view: Any, events: Events, player: str,
              names: Sequence[str]) -> Words:
    if "play" in events:
        play = events["play"]
        return _("{player} played {word} at {square} for {score}.", player=player,
                 word=play["word"], square=play["square"], score=play["score"])
    if "exchange" in events:
        tiles = events["exchange"]["tiles"]
        return n_("{player} exchanged {n} tile.", "{player} exchanged {n} tiles.", tiles,
                  player=player)
    if "challenge" in events:
        owner = events["challenge"]["player"]
        return _("{player} challenges {owner}'s play.", player=player,
                 owner=names[owner] if owner is not None else "")
    return _("{player} passed.", player=player)


def _doudizhu(step: Step, view: Any, events: Events, player: str,
              names: Sequence[str]) -> Words:
    action = step.action.strip().lower()
    if action.startswith("bid"):
        amount = events.get("bid", {}).get("amount", 0)
        if not amount:
            return _("{player} no bid", player=player)
        return _("{player} bid {amount}.", player=player, amount=amount)
    if action == "pass":
        return _("{player} pass", player=player)
    if action == "next":
        return _("{player} dealt round {round}.", player=player,
                 round=events.get("deal", {}).get("round", ""))
    if action == "stop":
        return _("{player} ended the series.", player=player)
    played = view.trick[-1] if view.trick else None
    cards = played.text if played is not None and played.seat == step.seat else step.action
    return _("{player} played {cards}.", player=player, cards=cards)


def _patchwork(step: Step, view: Any, events: Events, player: str,
               names: Sequence[str]) -> Words:
    if "buy" in events:
        buy = events["buy"]
        return _("{player} placed a {size}-square patch on {square}.",
                 player=player, size=buy["size"], square=str(buy["square"]))
    if "place" in events:
        return _("{player} placed a leather patch on {square}.", player=player,
                 square=str(events["place"]["square"]))
    moved = events.get("pass", {}).get("moved", 0)
    # TRANSLATORS: a Patchwork replay's caption: the player passed, moving their time token
    # ahead (and taking as many buttons). One short line.
    return n_("{player} passed: {n} space ahead.", "{player} passed: {n} spaces ahead.", moved,
              player=player)


_ACTIONS = {"reversi": _reversi, "scrabble": _scrabble, "doudizhu": _doudizhu,
            "patchwork": _patchwork}


def scores_line(names: Sequence[str], scores: Sequence[int], extra: Words | None = None) -> Words:
    """`Alice 120 · Bob 98`, then `extra`."""
    parts: list[object] = [lines((name, score), " ") for name, score in zip(names, scores)]
    if extra is not None:
        parts.append(extra)
    return lines(parts, DOT)


def stake_words(view: Any) -> Words:
    """Dou Dizhu's stake as the live table says it."""
    if view.landlord is None:
        if view.bid:
            return _("auction: high bid {bid}", bid=view.bid)
        return _("auction: no bid yet")
    return _("bid {bid} \N{MULTIPLICATION SIGN} {multiplier} = {stake}", bid=view.bid,
             multiplier=view.multiplier, stake=view.stake)
