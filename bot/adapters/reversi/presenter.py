"""How a Reversi match is shown: its board post, its highlights and its files."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

import games.reversi as reversi
from bot.adapters.reversi.words import (
    COLOUR_NAME, error_words, event_words, result_line, your_move,
)
from bot.matches.model import Match, player_name
from bot.ui.game_presenter import GamePresenter
from bot.ui.highlights import best_seat, number
from bot.ui.present import COLOUR, Reply, describe_events, mention, name_list, seat_names
from bot.ui.presenter import Export, ExportFile, GameHelp
from bot.workers.pictures import render_off_loop
from games.common import Event, GameError
from i18n import Voice, Words, _, lines, n_
from render import alt as alt_text
from render.reversi import render_board

DISC = {reversi.BLACK: "\N{MEDIUM BLACK CIRCLE}", reversi.WHITE: "\N{MEDIUM WHITE CIRCLE}"}


class ReversiPresenter(GamePresenter):
    game = reversi.NAME
    help = GameHelp(
        title=_("Reversi"),
        players=_("2 players"),
        summary=_("Place a disc so that it closes a straight line (across, down or diagonal) of "
                  "your opponent's discs against one of yours; every line you close flips. "
                  "Black moves first. With no legal move you pass (the bot does it for you); "
                  "when neither player can move, the most discs wins."),
        commands=(("/reversi new [opponent]", _("open a game here (optionally invite someone)")),
                  ("/reversi move square",
                   _("place a disc, e.g. d3 (autocomplete lists yours)"))),
    )

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        events = tuple(events)
        view = reversi.view(match.state)
        png = await render_off_loop(render_board, view, voice)
        state: reversi.State = match.state
        black, white = state.black_seat, 1 - state.black_seat
        title = _("Reversi: {black} vs {white}", black=player_name(match.player(black)),
                  white=player_name(match.player(white)))
        embed = discord.Embed(
            title=voice(title),
            description=voice(describe_events(match, events, self.event_text)) or None,
            colour=COLOUR)
        for colour, seat, count in ((reversi.BLACK, black, view.black_count),
                                    (reversi.WHITE, white, view.white_count)):
            discs = voice(n_("{n} disc", "{n} discs", count))
            embed.add_field(name=f"{DISC[colour]} {voice(COLOUR_NAME[colour])}",
                            value=voice(lines((mention(match, seat), discs))))
        if view.last_move is None:
            footer = _("Match #{id}", id=str(match.id))
        else:
            footer = _("Match #{id} · last move {square}", id=str(match.id),
                       square=reversi.square_name(view.last_move))
        embed.set_footer(text=voice(footer))
        if view.outcome is None:
            seat = view.to_move
            colour = state.colour_of(seat)
            legal = n_("{player}: {n} legal square (dots on the board)",
                       "{player}: {n} legal squares (dots on the board)", len(view.legal),
                       player=lines((DISC[colour], mention(match, seat)), " "))
            embed.add_field(name=voice(_("To move")), value=voice(legal), inline=False)
            passed = any(e.kind == "pass" for e in events)
            content = voice(your_move(colour, passed, player=mention(match, seat),
                                      other=player_name(match.player(1 - seat))))
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            content = voice(result_line(match, view))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        alt = alt_text.reversi_board(view, name_list(match, voice), voice)
        return Reply(content=content, embed=embed, png=png, alt=alt,
                     filename=f"reversi-{match.id}.png", mentions=mentions)

    def event_text(self, match: Match, event: Event) -> Words:
        """A Reversi event in words; events saved before they had values keep their text, and
        a kind of event this version does not know says nothing."""
        said = None if event.text else event_words(event, seat_names(match))
        return super().event_text(match, event) if said is None else said

    def error_text(self, error: GameError) -> Words | None:
        return error_words(error)

    def export_files(self, export: Export) -> list[ExportFile]:
        """The move transcript (`f5d6c3...`) and GGF, what Othello programs read."""
        return [export.file("txt", reversi.transcript(export.steps) + "\n"),
                export.file("ggf", reversi.to_ggf(export.steps, export.names,
                                                  first=export.first))]

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """The largest win (in discs) and the move that flipped the most."""
        found: list[Words] = []
        widest = max((number(row, "margin") for row in rows), default=0)
        if widest > 0:
            found.append(n_("Largest win: by {n} disc", "Largest win: by {n} discs", widest))
        flipped = max((number(row, "best_flip") for row in rows), default=0)
        if flipped > 0:
            found.append(n_("Best move: {n} disc flipped", "Best move: {n} discs flipped",
                            flipped))
        return found

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """The margin at the end, and who flipped the most with one move."""
        found: list[Words] = []
        ahead = best_seat(highlights, "margin")
        if ahead is not None:
            found.append(n_("{player} finished {n} disc ahead.",
                            "{player} finished {n} discs ahead.",
                            number(highlights[ahead], "margin"),
                            player=player_name(match.player(ahead))))
        flipper = best_seat(highlights, "best_flip")
        if flipper is not None:
            found.append(n_("Best move: {player} flipped {n} disc at once.",
                            "Best move: {player} flipped {n} discs at once.",
                            number(highlights[flipper], "best_flip"),
                            player=player_name(match.player(flipper))))
        return found
