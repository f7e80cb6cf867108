"""A match as its pages show it, from the public view only: the players, the score, whose
turn, the clock, the moves in words, and for a replay the table after any move. Worked out
from the seed and the move log (games/replay.py), in a thread: the event loop stays free."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.matches.model import Match, player_name
from bot.matches.ratings import ALL_TIME, START, display
from bot.matches.records import unrated_reason
from bot.matches.titles import title
from bot.storage.rows import MoveRow
from bot.web import words
from games.replay import Step, steps as replay_steps
from i18n import Words, _, listed, n_
from render.doudizhu import cards_words
from render.doudizhu_words import describe
from render.replay_words import action_words, scores_line


@dataclass(frozen=True)
class SeatShown:
    name: Words
    note: Words | None
    score: int | None
    rating: int | None
    to_act: bool


@dataclass(frozen=True)
class Ply:
    """One action: what it did, short (the picture's caption) and in full (the move list),
    and (Scrabble) the scores after it."""

    number: int
    said: Words
    scores: Words | None
    line: Words


@dataclass(frozen=True)
class Shown:
    """A match at its latest version (`plies` every action so far, `views` the public view
    after each, `views[0]` the first; empty for a lobby)."""

    match: Match
    names: tuple[Words, ...]
    ratings: tuple[int | None, ...]
    plies: tuple[Ply, ...]
    views: tuple[Any, ...]
    steps: tuple[Step, ...]

    @property
    def version(self) -> int:
        return int(self.match.row.version)

    @property
    def game(self) -> str:
        return str(self.match.game)

    def heading(self) -> Words:
        return _("{game}: {players}", game=title(self.game), players=listed(self.names))

    def seats(self, ply: int | None = None) -> list[SeatShown]:
        """Each seat after `ply` actions (None: now)."""
        view = self.view(ply)
        turn = None if view is None or not self.live(ply) else self.match.current_seat()
        return [SeatShown(name, note(self.game, view, seat), score(self.game, view, seat),
                          self.ratings[seat], seat == turn)
                for seat, name in enumerate(self.names)]

    def live(self, ply: int | None) -> bool:
        return ply is None and self.match.status == "active"

    def view(self, ply: int | None = None) -> Any | None:
        if not self.views:
            return None
        return self.views[-1 if ply is None else ply]

    def status_line(self) -> Words:
        match = self.match
        if match.status == "cancelled":
            return words.CANCELLED
        if match.status == "lobby" or match.state is None:
            return words.NO_GAME
        outcome = match.outcome()
        if outcome is not None:
            if not outcome.winners or outcome.draw:
                return words.DRAWN
            return _("Won by {players}.",
                     players=listed([self.names[seat] for seat in outcome.winners]))
        seat = match.current_seat()
        if seat is None:
            return ""
        return _("{player} to act.", player=self.names[seat])

    def caption(self, ply: int | None = None) -> Words:
        """What the last action up to `ply` did, above the picture."""
        index = len(self.plies) if ply is None else ply
        return words.START_CAPTION if index == 0 else self.plies[index - 1].said

    def hands(self, ply: int) -> list[tuple[Words, Words]]:
        """Dou Dizhu, a finished match only: each seat's cards after `ply` actions."""
        if self.game != "doudizhu" or self.match.status != "finished" or ply == 0:
            return []
        state = self.steps[ply - 1].after
        return [(self.names[seat], cards_words(self.match.engine.view(state, seat).hand))
                for seat in range(len(self.names))]


def note(game: str, view: Any, seat: int) -> Words | None:
    if view is None:
        return None
    if game == "reversi":
        return words.BLACK if seat == view.black_seat else words.WHITE
    if game == "doudizhu":
        left = n_("{n} card left", "{n} cards left", view.hand_counts[seat])
        return left if seat != view.landlord else _("{what}, {more}", what=words.LANDLORD,
                                                     more=left)
    return None


def score(game: str, view: Any, seat: int) -> int | None:
    if view is None:
        return None
    if game == "reversi":
        return int(view.black_count if seat == view.black_seat else view.white_count)
    if game == "scrabble":
        return int(view.scores[seat])
    if game == "patchwork":
        return int(view.players[seat].score)
    return int(view.ledger[seat])


def read_back(match: Match, moves: Sequence[MoveRow],
              names: Sequence[Words]) -> tuple[tuple[Ply, ...], tuple[Any, ...], tuple[Step, ...]]:
    """Every action in words and the public view before the first and after each (run in a
    thread: it replays the whole log)."""
    if match.state is None:
        return (), (), ()
    engine = match.engine
    found = tuple(replay_steps(engine, len(match.seats), match.row.seed, match.engine_options,
                               ((m.seat, m.action) for m in moves)))
    views = [engine.view(found[0].before, None)] if found else [engine.view(match.state, None)]
    plies = []
    for step in found:
        view = engine.view(step.after, None)
        views.append(view)
        scores = None
        if match.game == "scrabble":
            scores = scores_line(names, view.scores)
        said = action_words(match.game, step, view, names)
        line = doudizhu_line(step, names) if match.game == "doudizhu" else None
        plies.append(Ply(step.ply, said, scores, said if line is None else line))
    return tuple(plies), tuple(views), found


def doudizhu_line(step: Step, names: Sequence[Words]) -> Words | None:
    """A Dou Dizhu bid, pass or play as the channel says it, the cards by name (a screen
    reader says `red joker`, not `R`); None for the other actions (their caption says it)."""
    events = {event.kind: event.values for event in step.after.events}
    player = names[step.seat] if step.seat is not None and step.seat < len(names) else ""
    if "play" in events:
        play = events["play"]
        said = {"player": player, "play": play["play"],
                "what": describe(play["type"], play["size"]), "cards": cards_words(play["cards"])}
        if play["lead"]:
            return _("{player} leads {play} ({what}: {cards}).", **said)
        return _("{player} plays {play} ({what}: {cards}).", **said)
    if "pass" in events:
        return _("{player} passes.", player=player)
    if "bid" in events:
        if events["bid"]["amount"]:
            return _("{player} bids {amount}.", player=player, amount=events["bid"]["amount"])
        return _("{player} passes without bidding.", player=player)
    return None


async def show(store: Any, match: Match) -> Shown:
    """`match` as its pages show it."""
    moves = await store.moves(match.id)
    names = tuple(player_name(seat) for seat in match.seats)
    plies, views, found = await asyncio.to_thread(read_back, match, moves, names)
    ratings: tuple[int | None, ...] = tuple(None for _seat in match.seats)
    if match.guild_id is not None and unrated_reason(match, moves) is None:
        skills = await store.skills(match.guild_id, match.game, ALL_TIME)
        ratings = tuple(None if seat.user_id is None
                        else display(skills.get(seat.user_id, START)) for seat in match.seats)
    return Shown(match, names, ratings, plies, views, found)
