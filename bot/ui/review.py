"""`/match review [id]` and the Review button under a finished match's board: the coach's review
(bot/matches/reviews.py), only to the one who asks. Each player's accuracy, then one player's
costliest turns (the asker's, if they played; a menu picks another): for each, the position
before it with the move played and the better move marked, what the difference was worth in
the game's own terms, and the reason where the judge gave one.

After the match the pictures show the mover's own rack or hand as it was, as the exports do.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.matches.errors import LobbyError
from bot.matches.model import Match
from bot.matches.reviews import MatchReview, has_reviewer
from bot.matches.service import MatchService
from bot.matches.titles import title
from bot.storage.rows import MoveRow
from bot.ui.exports import seat_names, visible_match
from bot.ui.persistent import PersistentItem
from bot.workers.pictures import render_aside
from games.replay import steps as replay_steps
from games.review import HALF_LIFE, Judged
from i18n import ENGLISH_VOICE, Voice, Words, _, lines, listed, n_
from render.review import reason_words, review_alt, review_png

if TYPE_CHECKING:
    from bot.matches.reviews import Reviews
    from bot.ui.language import Languages

SHOWN = 3  # costly turns shown per player


class ReviewStore(Protocol):
    """The slice of the store a review reads: the move log, and the asker's last match."""

    async def moves(self, match_id: int) -> list[MoveRow]: ...
    async def last_finished(self, channel_id: int, user_id: int) -> int | None: ...


class ReviewHost(Protocol):
    @property
    def service(self) -> MatchService: ...
    @property
    def store(self) -> ReviewStore: ...
    @property
    def languages(self) -> Languages: ...
    @property
    def reviews(self) -> Reviews: ...


# -- asking --------------------------------------------------------------------------------------

async def reviewed_match(bot: ReviewHost, interaction: discord.Interaction,
                         match_id: int | None) -> Match:
    """The match to review: `match_id`, or the asker's last finished match in this channel;
    refused in words when it cannot be reviewed."""
    if match_id is None:
        match_id = await bot.store.last_finished(interaction.channel_id or 0, interaction.user.id)
        if match_id is None:
            raise LobbyError(_("You have no finished match in this channel to review. Give a "
                               "match's number: `/match review id:`."))
    match = await visible_match(bot.service, interaction, match_id)
    if match.status != "finished":
        raise LobbyError(_("Match #{id} is not over yet: its review opens when it ends.",
                           id=str(match.id)))
    if not has_reviewer(match.game):
        raise LobbyError(_("{game} matches have no review yet.", game=title(match.game)))
    return match


async def send_review(bot: ReviewHost, interaction: discord.Interaction, match_id: int | None,
                      seat: int | None = None, *, editing: bool = False) -> None:
    """Answer with the review, only to the asker; `editing`: the review's own menu chose
    another player, and the review it is on is edited (a board's Review button answers anew)."""
    match = await reviewed_match(bot, interaction, match_id)
    voice = await bot.languages.reader(interaction)
    if editing:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    review = await bot.reviews.of(match)
    if seat is None:
        seat = match.seat_of(interaction.user.id)
    shown = seat if seat is not None and 0 <= seat < len(match.seats) else 0
    content, files = await review_message(bot, match, review, shown, voice)
    view = seat_menu(match, review, shown, voice)
    if editing:
        await interaction.edit_original_response(content=content, attachments=files, view=view)
    else:
        await interaction.followup.send(content, files=files, ephemeral=True,
                                        **({"view": view} if view is not None else {}))


# -- the answer ----------------------------------------------------------------------------------

async def review_message(bot: ReviewHost, match: Match, review: MatchReview, seat: int,
                         voice: Voice) -> tuple[str, list[discord.File]]:
    """The review's text and the pictures of `seat`'s costliest turns."""
    names = seat_names(match, voice)
    said: list[Words | str] = [
        _("**Review of {game} match #{id}**: {players}", game=title(match.game),
          id=str(match.id), players=listed(names)),
        _("Accuracy: {list}", list=lines([accuracy_words(name, review.accuracy(s))
                                          for s, name in enumerate(names)], " \N{MIDDLE DOT} ")),
    ]
    worst = review.costliest(seat, SHOWN)
    files: list[discord.File] = []
    if not worst:
        said.append(_("**{player}** gave nothing away: every move was the best the coach saw, "
                      "or as good.", player=names[seat]))
    else:
        said.append(_("**{player}**'s costliest turns:", player=names[seat]))
        views = await before_views(bot, match, [turn.ply for turn in worst])
        for number, turn in enumerate(worst, 1):
            said.append(turn_words(match, turn, number))
            files.append(await turn_picture(match, turn, views[turn.ply], names, voice))
    said.append(_("Accuracy is 100 for the best play; each {points} points of winning chance "
                  "a move gives away halve that move's.", points=int(HALF_LIFE)))
    return voice(lines(said))[:2000], files


def accuracy_words(name: str, value: int | None) -> Words:
    return _("{player} {accuracy}", player=name,
             accuracy="\N{EM DASH}" if value is None else str(value))


def turn_words(match: Match, turn: Judged, number: int) -> Words:
    """`1. Move 14: played c4; better e6, worth 6 discs. A corner given away.`"""
    said = _("{number}. Move {move}: played **{played}**; better **{best}**, worth {worth}.",
             number=number, move=turn.ply + 1, played=turn.played, best=turn.best,
             worth=worth_words(turn))
    reason = reason_words(match.game, turn.reason, turn.reason_values)
    return said if reason is None else lines((said, reason), " ")


def worth_words(turn: Judged) -> Words:
    """The difference between the better move and the one played, in the game's terms."""
    gap = turn.best_value - turn.played_value
    if turn.unit == "discs":
        n = round(gap)
        return n_("{n} disc at the end", "{n} discs at the end", n, n=n)
    if turn.unit == "equity":
        return _("{n} points of equity", n=f"{gap:.1f}")
    if turn.unit == "points":
        return _("{n} points at the end", n=f"{gap:.1f}")
    return _("{n} points of winning chance", n=round(100 * gap))


async def before_views(bot: ReviewHost, match: Match, plies: Sequence[int]) -> dict[int, Any]:
    """Each wanted ply's state before it, seen by its mover (the match is over)."""
    moves = await bot.store.moves(match.id)
    wanted = set(plies)

    def read() -> dict[int, Any]:
        return {step.ply: match.engine.view(step.before, step.seat)
                for step in replay_steps(match.engine, len(match.seats), int(match.row.seed),
                                         match.engine_options,
                                         [(move.seat, move.action) for move in moves])
                if step.ply in wanted}
    return await asyncio.to_thread(read)


async def turn_picture(match: Match, turn: Judged, view: Any, names: list[str],
                       voice: Voice) -> discord.File:
    png = await render_aside(review_png, match.game, view, turn.seat, turn.played, turn.best,
                             voice, names)
    alt = review_alt(match.game, view, turn.seat, turn.played, turn.best, voice, names)
    return discord.File(io.BytesIO(png), filename=f"review-{match.id}-{turn.ply + 1}.png",
                        description=alt[:1024])


def seat_menu(match: Match, review: MatchReview, shown: int,
              voice: Voice) -> discord.ui.View | None:
    """A menu of the players, to see another's turns (none for a table of one)."""
    if len(match.seats) < 2:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewSeatMenu(match, review, shown, voice))
    return view


# -- controls ------------------------------------------------------------------------------------

def with_review_button(view: discord.ui.View, match: Match, voice: Voice) -> discord.ui.View:
    """`view` with the Review button, for a finished match of a game that has a coach."""
    if match.status == "finished" and has_reviewer(match.game):
        try:
            view.add_item(ReviewButton(match.id, voice))
        except ValueError:  # no room left: /match review still answers
            pass
    return view


class ReviewButton(PersistentItem[discord.ui.Button], template=r"gn:review:(?P<match_id>[0-9]+)"):
    """Under a finished match's board: its review, for whoever asks."""

    def __init__(self, match_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(label=voice(_("Review")),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"gn:review:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> ReviewButton:
        return cls(int(match["match_id"]))

    async def use(self, interaction: discord.Interaction) -> None:
        await send_review(interaction.client, interaction, self.match_id)  # type: ignore[arg-type]


class ReviewSeatMenu(PersistentItem[discord.ui.Select],
                     template=r"gn:review-seat:(?P<match_id>[0-9]+)"):
    """In a review: whose costly turns it shows."""

    def __init__(self, match: Match | int, review: MatchReview | None = None, shown: int = 0,
                 voice: Voice = ENGLISH_VOICE) -> None:
        match_id = match if isinstance(match, int) else match.id
        options = []
        if isinstance(match, Match) and review is not None:
            for seat, name in enumerate(seat_names(match, voice)):
                value = review.accuracy(seat)
                options.append(discord.SelectOption(
                    label=name[:100], value=str(seat), default=seat == shown,
                    description=None if value is None else voice(
                        _("Accuracy {accuracy}", accuracy=value))[:100]))
        super().__init__(discord.ui.Select(
            custom_id=f"gn:review-seat:{match_id}", options=options or [
                discord.SelectOption(label="-", value="0")],
            placeholder=voice(_("Whose turns"))[:150]))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any, /) -> ReviewSeatMenu:
        menu = cls(int(match["match_id"]))
        return menu

    async def use(self, interaction: discord.Interaction) -> None:
        chosen = self.item.values[0] if self.item.values else "0"
        seat = int(chosen) if chosen.isdigit() else 0
        await send_review(interaction.client, interaction, self.match_id,  # type: ignore[arg-type]
                          seat, editing=True)
