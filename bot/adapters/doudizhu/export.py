"""A Dou Dizhu match as a readable round log, for `/match export`: per round the deal, the
auction, the landlord and the kitty, every play and pass, the payment and the ledger, worded
in the reader's language with the words the table uses (`words.event_words`).

Every player's dealt hand is shown only for rounds that are over (paid, or the series ended):
the hands of a round still in play stay hidden, as they are at the table. A deal thrown in
after an all-pass auction is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.adapters.doudizhu.words import event_words, ledger_text, name
from bot.matches.titles import title
from games.replay import Step
from i18n import Voice, Words, _, lines
from render.doudizhu import cards_words

INDENT = "  "


@dataclass
class _Round:
    number: int
    lines: list[Words] = field(default_factory=list)
    dealt: tuple[tuple[str, ...], ...] = ()
    deal_line: int = 0  # where the hands go: after the last deal's line
    paid: bool = False
    ledger: tuple[int, ...] | None = None


def _rounds(first: Any, steps: Sequence[Step], match: Any) -> list[_Round]:
    """The match's events grouped by round, with each round's dealt hands."""
    rounds: list[_Round] = []
    states = [(first, first.events)] + [(step.after, step.after.events) for step in steps]
    for state, events in states:
        for event in events:
            if event.kind == "deal":
                number = event.values["round"]
                if not rounds or rounds[-1].number != number:
                    rounds.append(_Round(number))
                current = rounds[-1]
                current.lines.append(event_words(match, event))
                current.dealt = state.hands
                current.deal_line = len(current.lines)
                continue
            if not rounds:
                continue
            current = rounds[-1]
            current.lines.append(event_words(match, event))
            if event.kind == "round_end":
                current.paid = True
                current.ledger = state.ledger
    return rounds


def round_log(match: Any, steps: Sequence[Step], voice: Voice, *, over: bool,
              first: Any = None) -> str:
    """The log of `match` (its seats name the players) from its steps, worded by `voice`.
    `over`: the match has ended, so every round is over. `first`: the state the match started
    from, needed only when there are no steps."""
    start = steps[0].before if steps else first
    players = [name(match, seat) for seat in range(start.players)]
    heading = _("{game} match #{id}: {players}", game=title("doudizhu"), id=str(match.id),
                players=lines(players, ", "))
    out: list[str] = [voice(heading)]
    for round_ in _rounds(start, steps, match):
        out += ["", voice(_("Round {round}", round=round_.number))]
        said = [voice(words) for words in round_.lines]
        if round_.paid or over:
            hands = [INDENT + voice(_("{player}: {cards}", player=players[seat],
                                      cards=cards_words(hand)))
                     for seat, hand in enumerate(round_.dealt)]
            said[round_.deal_line:round_.deal_line] = [voice(_("Hands as dealt:")), *hands]
        else:
            said.append(voice(_("The round is still in play: its hands stay hidden.")))
        out += said
        if round_.ledger is not None:
            out.append(voice(_("Ledger: {ledger}", ledger=ledger_text(match, round_.ledger))))
    return "\n".join(line.replace("**", "") for line in out) + "\n"
