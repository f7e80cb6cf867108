"""`/reversi new` and `/reversi move`, and how a Reversi board is posted."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games.reversi as reversi
from bot.commands.game import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.ui.exports import Export, ExportFile
from bot.ui.highlights import best_seat, number
from bot.ui.present import (
    COLOUR, Reply, describe_events, mention, name_list, seat_names,
)
from bot.workers.pictures import render_off_loop
from bot.matches.model import Match, player_name
from games.common import Event, GameError, quoted
from i18n import Text, Voice, Words, _, lines, n_
from render import alt as alt_text
from render.reversi import render_board

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

DISC = {reversi.BLACK: "\N{MEDIUM BLACK CIRCLE}", reversi.WHITE: "\N{MEDIUM WHITE CIRCLE}"}
COLOUR_NAME = {reversi.BLACK: _("Black"), reversi.WHITE: _("White")}


@app_commands.guild_only()
class ReversiCog(GameCog, commands.GroupCog, group_name="reversi",
                 group_description="Reversi (Othello) for two players"):
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

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    @app_commands.command(name="new", description="Open a Reversi game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat",
                           turn_time=TURN_TIME_TEXT)
    @app_commands.choices(turn_time=TURN_TIME_CHOICES)
    async def new(self, interaction: discord.Interaction,
                  opponent: discord.Member | None = None, turn_time: str | None = None) -> None:
        await self.open_lobby(interaction, invited=opponent, options=turn_option(turn_time))

    @app_commands.command(name="move", description="Place a disc on a square (a1 to h8)")
    @app_commands.describe(square="Where to place your disc, e.g. d3: column a-h, row 1-8")
    async def move(self, interaction: discord.Interaction, square: str) -> None:
        await self.act(interaction, square)

    @move.autocomplete("square")
    async def square_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or seat != match.current_seat():
            return []
        typed = current.strip().lower()
        names = [str(m) for m in reversi.legal_moves(match.state, seat)]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(typed)][:25]

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
            content = voice(self._your_move(colour, passed, player=mention(match, seat),
                                            other=player_name(match.player(1 - seat))))
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            content = voice(self._result_line(match, view))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        alt = alt_text.reversi_board(view, name_list(match, voice), voice)
        return Reply(content=content, embed=embed, png=png, alt=alt,
                     filename=f"reversi-{match.id}.png", mentions=mentions)

    @staticmethod
    def _your_move(colour: str, passed: bool, **values: object) -> Text:
        """The line that asks the seat to move (after the other seat was made to pass)."""
        if passed:
            if colour == reversi.BLACK:
                return _("{player}, {other} has no legal move, so it is your move as black: "
                         "`/reversi move`.", **values)
            return _("{player}, {other} has no legal move, so it is your move as white: "
                     "`/reversi move`.", **values)
        if colour == reversi.BLACK:
            return _("{player}, your move as black: `/reversi move`.", **values)
        return _("{player}, your move as white: `/reversi move`.", **values)

    @staticmethod
    def _result_line(match: Match, view: reversi.View) -> Text:
        result = view.outcome
        tally = {"black": view.black_count, "white": view.white_count}
        if result.draw:
            return _("**Game over.** A draw, {black}-{white} (black-white).", **tally)
        winner = mention(match, result.winners[0])
        if result.reason == reversi.RESIGNED:
            return _("**Game over.** {winner} wins: {loser} resigned.", winner=winner,
                     loser=player_name(match.player(1 - result.winners[0])))
        if result.reason == reversi.BOARD_FULL:
            return _("**Game over.** {winner} wins {black}-{white} (black-white): the board is "
                     "full.", winner=winner, **tally)
        return _("**Game over.** {winner} wins {black}-{white} (black-white): neither player "
                 "can move.", winner=winner, **tally)

    def event_text(self, match: Match, event: Event) -> Words:
        """A Reversi event in words; events saved before they had values keep their text."""
        if event.text:
            return super().event_text(match, event)
        names = seat_names(match)
        values = event.values
        if event.kind == "start":
            return _("{black} plays black and moves first; {white} plays white.",
                     black=names[f"seat{values['black']}"], white=names[f"seat{values['white']}"])
        player = names.get(f"seat{event.seat}", "")
        if event.kind == "move":
            if values["colour"] == reversi.BLACK:
                return n_("{player} (black) played {square}, flipping {n} disc.",
                          "{player} (black) played {square}, flipping {n} discs.",
                          values["flipped"], player=player, square=values["square"])
            return n_("{player} (white) played {square}, flipping {n} disc.",
                      "{player} (white) played {square}, flipping {n} discs.",
                      values["flipped"], player=player, square=values["square"])
        if event.kind == "pass":
            return _("{player} has no legal move and passes.", player=player)
        if event.kind == "resign":
            return _("{player} resigned.", player=player)
        if event.kind == "end":
            return self._end_text(names, values)
        return super().event_text(match, event)  # no kind of Reversi's: nothing to say

    @staticmethod
    def _end_text(names: dict[str, str], values: dict) -> Text:
        """The `end` event: why the game ended, the counts, and who won with which colour."""
        full = values["reason"] == reversi.BOARD_FULL
        tally = {"black": values["black"], "white": values["white"]}
        if values["winner"] is None:
            if full:
                return _("Game over, the board is full: a draw, {black}-{white} (black-white).",
                         **tally)
            return _("Game over, neither player can move: a draw, {black}-{white} "
                     "(black-white).", **tally)
        winner = names[f"seat{values['winner']}"]
        if values["colour"] == reversi.BLACK:
            if full:
                return _("Game over, the board is full: {winner} (black) wins {black}-{white} "
                         "(black-white).", winner=winner, **tally)
            return _("Game over, neither player can move: {winner} (black) wins "
                     "{black}-{white} (black-white).", winner=winner, **tally)
        if full:
            return _("Game over, the board is full: {winner} (white) wins {black}-{white} "
                     "(black-white).", winner=winner, **tally)
        return _("Game over, neither player can move: {winner} (white) wins {black}-{white} "
                 "(black-white).", winner=winner, **tally)

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

    def error_text(self, error: GameError) -> Words | None:
        """The engine's errors (`reversi.<what>`) in words."""
        values = error.values
        key = error.key
        if key == "reversi.not_a_square":
            return _("{text} is not a square: give a column a-h and a row 1-8, like d3.",
                     text=quoted(values["text"]))
        if key == "reversi.off_board":
            return _("{text} is off the board: squares run from a1 to h8.",
                     text=quoted(values["text"]))
        if key == "reversi.off_board_index":
            return _("{square} is off the board: squares run from 0 (a1) to 63 (h8).",
                     square=quoted(values["square"]))
        if key == "reversi.occupied":
            if values["colour"] == reversi.BLACK:
                return _("{square} is already taken by a black disc: play on an empty square.",
                         square=values["square"])
            return _("{square} is already taken by a white disc: play on an empty square.",
                     square=values["square"])
        if key == "reversi.no_flip":
            legal = ", ".join(values["legal"])
            if values["colour"] == reversi.BLACK:
                return _("A disc on {square} would not outflank any black disc: it must close a "
                         "straight line of black discs against one of yours. Your legal "
                         "squares: {legal}.", square=values["square"], legal=legal)
            return _("A disc on {square} would not outflank any white disc: it must close a "
                     "straight line of white discs against one of yours. Your legal squares: "
                     "{legal}.", square=values["square"], legal=legal)
        if key == "reversi.not_your_turn":
            if values.get("colour") == reversi.BLACK:
                return _("It is not your turn: you play black.")
            if values.get("colour") == reversi.WHITE:
                return _("It is not your turn: you play white.")
            return _("It is not your turn.")
        if key == "reversi.not_a_move":
            return _("{move} is not a Reversi move: name a square, like d3.",
                     move=values["move"])
        if key == "reversi.no_seat":
            return _("There is no seat {seat} in this game.", seat=values["seat"])
        if key == "reversi.over":
            return _("The game is over.")
        if key == "reversi.no_legal_move":
            return _("You have no legal move, so the game passes for you.")
        return None


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ReversiCog(bot))
