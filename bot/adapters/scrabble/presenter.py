"""How a Scrabble match is shown: the public board (drawn from the public view, with no rack at
all), each player's rack (only ever sent to that player, by DM or ephemerally), the lobby's
rules, the highlights and missed plays of a finished game, and its GCG file."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import discord

import games.scrabble as scrabble
from bot.adapters.scrabble.words import (
    LEVEL_NAMES, LEVELS, error_words, event_words, final_lines, first_to, play_line, racks_text,
    result_line, spaced, turn_hint, turn_line,
)
from bot.matches.model import ActionResult, Match, player_name
from bot.storage.rows import MoveRow
from bot.ui.game_presenter import GamePresenter
from bot.ui.highlights import average, best, best_seat, number, total
from bot.ui.present import COLOUR, Reply, describe_events, mention
from bot.ui.presenter import Export, ExportFile, GameHelp
from bot.workers.pictures import render_off_loop
from games.common import Event, GameError
from i18n import Voice, Words, _, lines, listed, n_
from render import alt as alt_text
from render.scrabble import render_board, render_rack


class MoveStore(Protocol):
    """The slice of the store the late card lines read: the match's move log."""

    async def moves(self, match_id: int) -> list[MoveRow]: ...


class ScrabblePresenter(GamePresenter):
    game = scrabble.NAME
    has_private = True
    private_command = "/scrabble rack"
    private_thing = "rack"
    help = GameHelp(
        title=_("Scrabble"),
        players=_("2-4 players"),
        summary=_("Make words on a 15x15 board with the tiles on your rack; premium squares "
                  "multiply letters and words, all seven tiles at once earn 50. Your rack "
                  "comes by DM. A play stands unless someone challenges it before the next "
                  "player acts. Plays are written `H8 across QUIZ`, lower case for a blank."),
        commands=(
            ("/scrabble new [players] [challenge] [tiles] [finish]",
             _("open a lobby (2-4 seats, double or void challenge, 7 or 9 tiles, finish "
               "line)")),
            ("/scrabble play word square direction", _("e.g. word QUIz, square H8, across")),
            ("/scrabble exchange tiles", _("swap tiles with the bag (? is a blank)")),
            ("/scrabble pass", _("pass, or accept a play that ends the game")),
            ("/scrabble challenge", _("dispute the last play before the next player acts")),
            ("/scrabble rack", _("your rack, shown only to you")),
            ("/scrabble bag", _("tiles left in the bag and the tiles you cannot see")),
        ),
    )

    def lobby_rules(self, match: Match) -> Words:
        """The match options, for the lobby card (in the channel's voice, by the caller)."""
        options = match.row.options
        finish = options.get("finish")
        finish_text: Words
        if finish in LEVELS:
            target = scrabble.FINISH_TARGETS.get(match.table_size, {}).get(finish)
            level = LEVEL_NAMES[finish]
            if target is None:
                finish_text = _("finish line: {level}", level=level)
            elif match.status == "lobby":
                finish_text = _("finish line: {level} ({target} points at a full table)",
                                level=level, target=target)
            else:
                finish_text = _("finish line: {level} ({target} points for {players})",
                                level=level, target=target, players=match.table_size)
        elif finish:
            finish_text = n_("finish line: first to {n} point", "finish line: first to {n} points",
                             finish)
        else:
            finish_text = _("played until the tiles run out")
        challenge = (_("double challenge") if options.get("challenge", "double") == "double"
                     else _("void: words checked as they are played"))
        return lines((racks_text(options.get("tiles", 7)), challenge, finish_text), " · ")

    def cancel_summary(self, match: Match) -> Words | None:
        if match.state is None:
            return None
        scores = lines((lines((player_name(s), str(match.state.scores[s.seat])), " ")
                        for s in match.seats), ", ")
        return _("Scores when it stopped: {scores}.", scores=scores)

    # -- records -----------------------------------------------------------------------------

    def export_files(self, export: Export) -> list[ExportFile]:
        """GCG, the format Scrabble programs (Quackle, woogles) read."""
        text = scrabble.to_gcg(export.steps, export.names, over=export.over,
                               title=f"Gamenight Scrabble match {export.match.id}",
                               first=export.first)
        return [export.file("gcg", text)]

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """The best play, the highest game, the bingos and the average score per turn."""
        found: list[Words] = []
        top = best(rows, "best_play")
        if top is not None and number(top, "best_play") > 0:
            found.append(_("Best play: **{word}** for {score}", word=top.get("best_play_word"),
                           score=number(top, "best_play")))
        highest = best(rows, "score")
        if highest is not None:
            found.append(_("Highest game: {score}", score=number(highest, "score")))
        bingos = total(rows, "bingos")
        found.append(n_("{n} bingo", "{n} bingos", bingos))
        turns = total(rows, "turns")
        if turns:
            found.append(_("Average score per turn: {average}",
                           average=average(total(rows, "points"), turns)))
        return found

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """The best play of the game and who made it; who played bingos."""
        found: list[Words] = []
        seat = best_seat(highlights, "best_play")
        if seat is not None:
            mine = highlights[seat]
            found.append(_("Best play: **{word}** for {score}, by {player}",
                           word=mine.get("best_play_word"), score=number(mine, "best_play"),
                           player=player_name(match.player(seat))))
        bingos = [_("{player} ({n})", player=player_name(match.player(seat)), n=count)
                  for seat, row in enumerate(highlights) if (count := number(row, "bingos"))]
        if bingos:
            found.append(_("Bingos: {players}", players=listed(bingos)))
        return found

    async def late_card_lines(self, match: Match) -> list[Words]:
        """For each person, the best play they missed by the most points, found by the move
        generator in the computers' process pool (a full game takes a fraction of a second)."""
        moves = await self.move_log.moves(match.id)
        actions = [(move.seat, move.action) for move in moves]
        missed = await asyncio.get_running_loop().run_in_executor(
            self.bot.computers.executor(), scrabble.analyse, len(match.seats), match.row.seed,
            match.engine_options, actions)
        return self.missed_lines(match, missed)

    @property
    def move_log(self) -> MoveStore:
        return self.bot.store

    @staticmethod
    def missed_lines(match: Match, missed: Sequence[dict[str, Any] | None]) -> list[Words]:
        """The people's missed plays (`games.scrabble.analysis.missed_plays`) in words."""
        return [_("{player} missed **{word}** for {best} (scored {played} that turn)",
                  player=player_name(match.player(seat)), word=found["word"],
                  best=found["best"], played=found["played"])
                for seat, found in enumerate(missed)
                if found is not None and match.player(seat).kind == "user"]

    # -- private views -----------------------------------------------------------------------

    def private_changes(self, result: ActionResult) -> list[int]:
        """A resigned player's DM says so once, when they resign, and is left alone after."""
        seats = GamePresenter.private_changes(self, result)
        resigned = result.match.state.resigned if seats else ()
        return [seat for seat in seats
                if seat not in resigned or (result.action == "resign" and seat == result.seat)]

    def computer_to_act(self, match: Match) -> int | None:
        """The computer to move, unless another computer challenges the open play first: at a
        table of three or four, any player but the one who made it may challenge."""
        to_move = match.computer_to_act()
        state = match.state
        if match.status != "active" or state is None or state.pending is None:
            return to_move
        order = [to_move] if to_move is not None else []
        order += [p.seat for p in match.seats if p.kind == "computer" and p.seat != to_move]
        for seat in order:
            if scrabble.will_challenge(state, seat, match.player(seat).level or "normal"):
                return seat
        return to_move

    def must_act(self, match: Match, seat: int) -> bool:
        view = scrabble.view(match.state, seat)
        return view.outcome is None and view.turn == seat and seat not in view.resigned

    async def private_reply(self, match: Match, seat: int, voice: Voice) -> Reply:
        view = scrabble.view(match.state, seat)
        rack = view.rack or ""
        png = await render_off_loop(render_rack, rack, voice) if rack else None
        description: Words | None = None
        if seat in view.resigned:
            content = _("You resigned from this game: your tiles went back into the bag.")
        elif rack:
            content = _("Your Scrabble rack: **{tiles}**", tiles=spaced(rack))
            description = " · ".join(f"{t} {scrabble.VALUES[t]}" for t in rack)
            if "?" in rack:
                description = lines((description, _(
                    "`?` is a blank (0 points): write the letter it stands for in lower case, "
                    "e.g. `QUIz`.")))
        else:
            content = _("Your Scrabble rack is empty.")
        embed = discord.Embed(title=voice(_("Your rack · Scrabble match #{id}", id=str(match.id))),
                              description=voice(description) or None, colour=COLOUR)
        embed.add_field(name=voice(_("Your score")), value=voice(view.scores[seat]))
        if seat in view.resigned:  # their DM is not updated again: nothing that goes stale
            return Reply(content=voice(content), embed=embed)
        embed.add_field(name=voice(_("Bag")), value=voice(n_("{n} tile", "{n} tiles", view.bag)))
        if view.outcome is None:
            if view.turn == seat:
                embed.add_field(name=voice(_("To move")),
                                value=voice(_("You: {hint}", hint=turn_hint(view))),
                                inline=False)
            else:
                embed.add_field(name=voice(_("To move")),
                                value=voice(player_name(match.player(view.turn))),
                                inline=False)
        return Reply(content=voice(content), embed=embed, png=png,
                     filename=f"rack-{match.id}.png",
                     alt=alt_text.scrabble_rack(rack, voice) if rack else None)

    # -- the public board --------------------------------------------------------------------

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        view = scrabble.view(match.state)
        png = await render_off_loop(render_board, view, voice)
        shown = [e for e in events if e.kind != "end"]  # the end is itemised below
        description = voice(describe_events(match, shown, self.event_text))
        embed = discord.Embed(
            title=voice(_("Scrabble: {players}",
                          players=lines((player_name(s) for s in match.seats), " · "))),
            description=description or None, colour=COLOUR)

        if view.outcome is None:
            scores: list[Words] = []
            for seat in view.order:
                marker = "\N{BLACK RIGHT-POINTING TRIANGLE} " if seat == view.turn else ""
                if seat in view.resigned:
                    scores.append(_("~~{player}~~ {score} · resigned",
                                    player=player_name(match.player(seat)),
                                    score=view.scores[seat]))
                    continue
                tiles = n_("{n} tile", "{n} tiles", view.rack_sizes[seat])
                values = dict(player=mention(match, seat), score=view.scores[seat], tiles=tiles)
                line = (_("{player} **{score}** · {tiles} · loses the next turn", **values)
                        if view.lost_turns[seat] else _("{player} **{score}** · {tiles}", **values))
                scores.append(lines((marker, line), ""))
            embed.add_field(name=voice(_("Scores")), value=voice(lines(scores)))
        else:
            embed.add_field(name=voice(_("Final scores")),
                            value=voice(final_lines(match, view)))
        embed.add_field(name=voice(_("Bag")),
                        value=voice(n_("{n} tile left", "{n} tiles left", view.bag)))
        if view.last_play is not None and not any(e.kind == "play" for e in shown):
            embed.add_field(name=voice(_("Last play")), inline=False,
                            value=voice(play_line(match, view.last_play)))
        rules = [racks_text(view.rack_size),
                 _("double challenge") if view.challenge == "double"
                 else _("words checked as played"),
                 first_to(view.finish) if view.finish else _("played to the end")]
        embed.set_footer(text=voice(lines((_("Match #{id}", id=str(match.id)), *rules), " · ")))

        if view.outcome is None:
            content = voice(turn_line(match, view))
            mentions: tuple[int, ...] = tuple(
                i for i in (match.player(view.turn).user_id,) if i is not None)
        else:
            content = voice(result_line(match, view))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=content, embed=embed, png=png,
                     alt=alt_text.scrabble_board(view, voice),
                     filename=f"scrabble-{match.id}.png", mentions=mentions)

    # -- the engine's words ------------------------------------------------------------------

    def event_text(self, match: Match, event: Event) -> Words:
        """An engine event in words; the names of the players in bold."""
        return event_words(match, event)

    def error_text(self, error: GameError) -> Words | None:
        return error_words(error)
