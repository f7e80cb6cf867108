"""How a Patchwork match is shown: its table post, a purchase's preview, its highlights and its
files."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

import games.patchwork as patchwork
from bot.adapters.patchwork.words import (
    error_words, event_words, outcome_words, preview_problem, score_breakdown, to_move_words,
)
from bot.matches.model import Match, player_name
from bot.ui.game_presenter import GamePresenter
from bot.ui.highlights import average, best, number, total
from bot.ui.present import COLOUR, Reply, describe_events, mention, name_list, seat_names
from bot.ui.presenter import Export, ExportFile, GameHelp
from bot.workers.pictures import render_off_loop
from games.common import Event, GameError
from i18n import Voice, Words, _, lines, n_
from render import alt as alt_text
from render.patchwork import render_game, render_preview

log = logging.getLogger(__name__)


class PatchworkPresenter(GamePresenter):
    game = patchwork.NAME
    help = GameHelp(
        title=_("Patchwork"),
        players=_("2 players"),
        summary=_("Buy one of the three patches after the spool with buttons, sew it onto your "
                  "9x9 quilt and move your time token on by its time cost; or pass, moving in "
                  "front of your opponent and taking a button per space. The player behind "
                  "moves. Income spaces pay the buttons on your quilt; leather patches go to "
                  "whoever reaches them first; the first full 7x7 square earns 7. At the end: "
                  "buttons + bonus - 2 per empty square."),
        commands=(("/patchwork new [opponent]",
                   _("open a game here (optionally invite someone)")),
                  ("/patchwork buy patch square orientation",
                   _("buy patch 1-3 and place its top-left on a square (autocomplete helps)")),
                  ("/patchwork preview patch orientation square",
                   _("see a placement on your quilt first (only you)")),
                  ("/patchwork pass", _("move in front of your opponent for buttons")),
                  ("/patchwork place square", _("place a leather patch you have won"))),
    )

    def event_text(self, match: Match, event: Event) -> Words:
        if event.text:  # saved before events were worded here: English, as it was
            return super().event_text(match, event)
        said = event_words(event, seat_names(match))
        if said is None:  # a kind this version does not know: nothing to say
            log.warning("no words for the Patchwork event %r", event.kind)
            return ""
        return said

    def error_text(self, error: GameError) -> Words | None:
        return error_words(error)

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        state = match.state
        view = patchwork.view(state)
        names = name_list(match, voice)
        png = await render_off_loop(render_game, view, names, voice)
        embed = discord.Embed(title=voice(_("Patchwork: {player0} vs {player1}",
                                            player0=names[0], player1=names[1])),
                              description=voice(describe_events(match, events, self.event_text))
                              or None, colour=COLOUR)
        for player in view.players:
            left = view.track_end - player.position
            if player.has_bonus:
                rest = _("{left} time left · {empty} empty · 7x7 bonus", left=left,
                         empty=player.quilt.empty)
            else:
                rest = _("{left} time left · {empty} empty", left=left, empty=player.quilt.empty)
            money = n_("{n} button · income {income}", "{n} buttons · income {income}",
                       player.buttons, income=player.income)
            embed.add_field(name=names[player.seat],
                            value=voice(lines((mention(match, player.seat), money, rest))))
        embed.set_footer(text=voice(_("Match #{id} · move {move}", id=str(match.id),
                                      move=view.move_count)))
        result = view.outcome
        if result is None:
            seat = view.turn
            player = mention(match, seat)
            embed.add_field(name=voice(_("To move")), inline=False,
                            value=voice(to_move_words(view, player)))
            if view.turn_reason == patchwork.TURN_LEATHER:
                content = _("{player}, your turn: place your leather patch with "
                            "`/patchwork place`.", player=player)
            else:
                content = _("{player}, your turn: `/patchwork buy` a patch (try "
                            "`/patchwork preview`) or `/patchwork pass`.", player=player)
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            winner = result.winners[0]
            if result.reason == patchwork.RESIGNED:  # a resignation is not won on points
                content = _("**Game over.** {winner} wins: {loser} resigned.",
                            winner=mention(match, winner), loser=names[1 - winner])
            else:
                embed.add_field(name=voice(_("Final score")), inline=False,
                                value=voice(score_breakdown(match, result)))
                content = outcome_words(result, mention(match, winner))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=voice(content), embed=embed, png=png,
                     alt=alt_text.patchwork_table(view, names, voice),
                     filename=f"patchwork-{match.id}.png", mentions=mentions)

    # -- records -----------------------------------------------------------------------------

    def export_files(self, export: Export) -> list[ExportFile]:
        """A JSON record: the players, the circle of patches, every action and the result."""
        record = {"match": export.match.id, **patchwork.to_record(
            export.steps, export.names, over=export.over, first=export.first)}
        return [export.file("json", json.dumps(record, ensure_ascii=False, indent=1) + "\n")]

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """The best score, the average score and the 7x7 bonuses won."""
        highest = best(rows, "score")
        if highest is None:
            return []
        scored = [row for row in rows if "score" in row]
        return [_("Best score: {score}", score=number(highest, "score")),
                _("Average score: {average}", average=average(total(scored, "score"),
                                                             len(scored))),
                n_("{n} 7x7 bonus", "{n} 7x7 bonuses", total(rows, "bonus"))]

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """Who won the 7x7 bonus, if anyone did."""
        return [_("{player} won the 7x7 bonus (+7).", player=player_name(match.player(seat)))
                for seat, row in enumerate(highlights) if number(row, "bonus")]

    async def preview_reply(self, match: Match, seat: int, move: patchwork.Buy,
                            voice: Voice) -> Reply:
        """The preview only its player sees, in their `voice`."""
        state = match.state
        problem = preview_problem(state, seat, move)
        view = patchwork.view(state, seat)
        png = await render_off_loop(render_preview, view, seat, move.choice, move.orientation,
                                     move.square, problem is None, problem, voice,
                                     name_list(match, voice))
        if problem is not None:
            text = _("`{move}` would not work: {problem}.", move=str(move), problem=problem)
        elif patchwork.current_seat(state) == seat:
            text = _("`{move}` fits: use `/patchwork buy` to do it.", move=str(move))
        else:
            text = _("`{move}` fits — you can buy it on your turn.", move=str(move))
        alt = voice(_("Your quilt with the patch ghosted in place. {result}", result=text))
        return Reply(content=voice(text), png=png, filename="preview.png",
                     alt=alt.replace("`", ""))
