"""`/scrabble ...`: lobbies with the game's options, plays, exchanges, passes, challenges, the
private rack (by DM and `/scrabble rack`) and the bag, and how a Scrabble board is posted.

Racks are private: the public board post is drawn from the public view (no rack at all), and a
player's rack is only ever sent to that player (by DM, or ephemerally).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games.scrabble as scrabble
from bot.commands.game import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.ui.exports import Export, ExportFile
from bot.ui.highlights import average, best, best_seat, number, total
from bot.ui.present import (
    COLOUR, Reply, describe_events, legacy_names, mention, seat_names,
)
from bot.workers.pictures import render_off_loop
from bot.matches.errors import LobbyError, NotSeated
from bot.matches.model import ActionResult, Match, player_name
from games.common import Event, GameError, quoted
from games.scrabble import LEXICON_ENV
from i18n import ENGLISH_VOICE, Joined, Text, Voice, Words, _, lines, listed, n_
from render import alt as alt_text
from render.scrabble import render_board, render_rack

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = 4
LEVELS = ("beginner", "intermediate", "expert")
MAX_FINISH = 1000  # points: higher than any real game reaches
LEVEL_NAMES: dict[str, Text] = {
    # TRANSLATORS: the finish-line levels of Scrabble (the rules' table of target scores).
    "beginner": _("beginner"),
    "intermediate": _("intermediate"),
    "expert": _("expert"),
}
DIRECTIONS: dict[str, Text] = {"across": _("across"), "down": _("down")}
# TRANSLATORS: the player to move, first in the list of those who may challenge a play
# ("You, alice or bob may challenge carol's play ...").
YOU = _("You")
# TRANSLATORS: between the rules of a game listed in one sentence ("This game: 9-tile racks;
# first to 200 points wins.").
RULES_SEPARATOR = _("; ")


def turn_hint(view: scrabble.View) -> Text:
    """The commands the player to move may use now."""
    if view.pending is not None and view.pending.final:
        return _("`/scrabble challenge` the play that ends the game, or `/scrabble pass` to "
                 "accept it")
    if view.bag >= scrabble.EXCHANGE_MIN_BAG:
        return _("`/scrabble play`, `/scrabble exchange` or `/scrabble pass`")
    return _("`/scrabble play` or `/scrabble pass` (too few tiles in the bag to exchange)")


def parse_finish(text: str | None) -> str | int | None:
    """The `finish` option: none, a level (resolved for the table size at start) or a score."""
    value = (text or "").strip().lower()
    if value in ("", "none", "off"):
        return None
    if value in LEVELS:
        return value
    if is_target(value):
        return int(value)
    raise LobbyError(_("`finish` is none, beginner, intermediate, expert, or a target score "
                       "from 1 to {most} such as 150: the first player to reach it wins.",
                       most=str(MAX_FINISH)))


def is_target(text: str) -> bool:
    """A finish-line score a player may choose: 1 to MAX_FINISH, in ASCII digits."""
    return text.isascii() and text.isdigit() and len(text) <= 4 and 0 < int(text) <= MAX_FINISH


def read_play(word: str, square: str, direction: str) -> scrabble.Play:
    """The play from the command's options, each read on its own, so that an error quotes
    the option as typed (`H 8`, `T I`) instead of the play they would spell together."""
    row, col = scrabble.parse_square(square)
    return scrabble.Play(row, col, direction, word.strip())


def spaced(tiles: str) -> str:
    """Tiles as the rack text shows them: `A E I ?`."""
    return " ".join(tiles)


def tally(tiles: str) -> str:
    counts = Counter(tiles)
    return " ".join(f"{t}×{n}" if n > 1 else t for t, n in sorted(
        counts.items(), key=lambda item: (item[0] == "?", item[0])))


def separated(parts: Iterable[Words], sep: Words) -> Joined:
    """`parts` one after the other with the worded `sep` between them."""
    out: list[Words] = []
    for part in parts:
        if out:
            out.append(sep)
        out.append(part)
    return lines(out, "")


def racks_text(tiles: int) -> Text:
    return _("{tiles}-tile racks", tiles=tiles)


def first_to(points: int) -> Text:
    return n_("first to {n} point", "first to {n} points", points)


def tile_name(tile: str) -> Words:
    """A tile as an error names it: its letter, or "blank"."""
    return _("blank") if tile == "?" else tile


def scored_words(words: Iterable[Iterable[Any]], bingo: bool) -> Words:
    """`QUIZ 22, ZA 11` (and the bingo): the words a play formed, with their scores."""
    listed_words = lines((f"{word} {score}" for word, score in words), ", ")
    return _("{words} + 50 bingo", words=listed_words) if bingo else listed_words


def reason_text(reason: str, details: dict[str, Any], names: dict[str, Words]) -> Words:
    """Why the game ended, as a sentence (`names`: the players' names by `seatN`)."""
    player = names.get(f"seat{details.get('seat')}", "")
    if reason == "out":
        return _("{player} went out with the bag empty.", player=player)
    if reason == "passes":
        return _("Every player passed twice in a row.")
    if reason == "blocked":
        return _("No more plays are possible.")
    if reason == "finish":
        target = details.get("target") or 0
        return n_("{player} reached {n} point.", "{player} reached {n} points.", target,
                  player=player)
    if reason == "resigned":
        return _("{player} resigned.", player=player)
    # an outcome saved before reasons became keys: English, as it was
    text = reason.format(**{key: ENGLISH_VOICE(name) for key, name in names.items()})
    return f"{text[:1].upper()}{text[1:]}."


def game_over(reason: Words, result: Words) -> Text:
    """The last word on a game: why it ended and who won, each a sentence."""
    # TRANSLATORS: {reason} and {result} are sentences: why the game ended ("Every player
    # passed twice in a row."), then who won ("alice wins with 310.").
    return _("**Game over.** {reason} {result}", reason=reason, result=result)


def winners_text(winners: list[str], score: int, tiebreak: bool) -> Text:
    """Who won, with what score (`winners`: names or mentions)."""
    if len(winners) > 1:
        return _("{players} share the win with {score}.", players=listed(winners), score=score)
    if tiebreak:
        return _("{player} wins with {score} on the tie-break (the higher score before the "
                 "rack adjustments).", player=winners[0], score=score)
    return _("{player} wins with {score}.", player=winners[0], score=score)


@app_commands.guild_only()
class ScrabbleCog(GameCog, commands.GroupCog, group_name="scrabble",
                  group_description="Scrabble for 2 to 4 players"):
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

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    async def cog_load(self) -> None:
        lexicon = getattr(self.bot.settings, "lexicon", None)
        if lexicon is not None:
            # The engine reads its word list from the environment; a value from .env is not there.
            os.environ[LEXICON_ENV] = str(lexicon)
        await asyncio.to_thread(scrabble.default_lexicon)  # read once, off the event loop

    # -- commands ----------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Scrabble lobby in this channel")
    @app_commands.describe(
        players="Seats at the table (default 4); the creator can press Start with 2 or more",
        challenge="double: plays may be challenged (default); void: words are checked at once",
        tiles="Tiles on a rack: 7 (default) or 9",
        finish="Finish line: none (default), beginner, intermediate, expert or a target score",
        turn_time=TURN_TIME_TEXT,
    )
    @app_commands.choices(
        players=[app_commands.Choice(name=f"{n} players", value=n) for n in (2, 3, 4)],
        challenge=[
            app_commands.Choice(name="double: a play may be challenged; a wrong challenge "
                                     "costs a turn", value="double"),
            app_commands.Choice(name="void: every word is checked as it is played",
                                value="void"),
        ],
        tiles=[app_commands.Choice(name="7 tiles", value=7),
               app_commands.Choice(name="9 tiles (bingo for 7, 8 or 9 tiles)", value=9)],
        turn_time=TURN_TIME_CHOICES,
    )
    async def new(self, interaction: discord.Interaction, players: int = DEFAULT_PLAYERS,
                  challenge: str = "double", tiles: int = 7, finish: str | None = None,
                  turn_time: str | None = None) -> None:
        options: dict[str, Any] = {"players": players, "challenge": challenge, "tiles": tiles,
                                   **turn_option(turn_time)}
        target = parse_finish(finish)
        if target is not None:
            options["finish"] = target
        await self.open_lobby(interaction, options=options)

    @new.autocomplete("finish")
    async def finish_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        players = getattr(interaction.namespace, "players", None) or DEFAULT_PLAYERS
        targets = scrabble.FINISH_TARGETS.get(players, scrabble.FINISH_TARGETS[DEFAULT_PLAYERS])
        voice = await self.bot.languages.reader(interaction)
        typed = current.strip().lower()
        choices = []
        if is_target(typed):
            target = int(typed)
            choices.append(app_commands.Choice(
                name=voice(n_("first to {n} point wins", "first to {n} points wins", target)),
                value=str(target)))
        choices.append(app_commands.Choice(name=voice(_("none: play until the tiles run out")),
                                           value="none"))
        choices += [app_commands.Choice(
            name=voice(n_("{level}: first to {n} point wins ({players} players)",
                          "{level}: first to {n} points wins ({players} players)",
                          targets[level], level=LEVEL_NAMES[level], players=players)),
            value=level) for level in LEVELS]
        if typed and not typed.isdigit():
            choices = [c for c in choices if c.value.startswith(typed)]
        return choices[:25]

    @app_commands.command(name="play", description="Lay a word on the board")
    @app_commands.describe(
        word="The whole word as it will read, letters on the board included; lower case for "
             "a blank (QUIz)",
        square="The square of the word's first letter, e.g. H8 (column A-O, row 1-15)",
        direction="Which way the word reads",
    )
    @app_commands.choices(direction=[app_commands.Choice(name="across", value="across"),
                                     app_commands.Choice(name="down", value="down")])
    async def play(self, interaction: discord.Interaction, word: str, square: str,
                   direction: str) -> None:
        # Read it as a play here, so a bad square or word gets the play's own message.
        await self.act_read_here(interaction, lambda: read_play(word, square, direction))

    @app_commands.command(name="exchange", description="Swap tiles from your rack with the bag")
    @app_commands.describe(tiles="The tiles to put back, e.g. QVV? (? is a blank)")
    async def exchange(self, interaction: discord.Interaction, tiles: str) -> None:
        await self.act_read_here(interaction,
                                 lambda: scrabble.Exchange.parse(f"exchange {tiles}"))

    @app_commands.command(name="pass", description="Pass your turn (or accept a play that "
                                                   "ends the game)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")

    @app_commands.command(name="challenge",
                          description="Challenge the last play before the next player acts")
    async def challenge(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "challenge")

    @app_commands.command(name="rack", description="See your rack (only you)")
    async def rack(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated(_("You are not playing in this match, so you have no rack. "
                              "`/scrabble bag` shows the tiles not on the board."))
        await self.show_private(interaction, match, seat)

    @app_commands.command(name="bag", description="Tiles left in the bag and the tiles you "
                                                  "cannot see (only you)")
    async def bag(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        if match.status == "lobby":
            raise LobbyError(_("The match has not started yet: the bag is still full (100 "
                               "tiles)."))
        seat = match.seat_of(interaction.user.id)
        view = scrabble.view(match.state, seat)
        tiles = tally(view.unseen) or _("none")
        unseen = (_("Unseen tiles ({count}: the bag and the other racks): {tiles}",
                    count=len(view.unseen), tiles=tiles) if seat is not None else
                  _("Unseen tiles ({count}: the bag and the racks): {tiles}",
                    count=len(view.unseen), tiles=tiles))
        text = lines((n_("**{n}** tile left in the bag.", "**{n}** tiles left in the bag.",
                         view.bag), unseen))
        voice = await self.bot.languages.reader(interaction)
        await interaction.response.send_message(voice(text), ephemeral=True)

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
        moves = await self.service.store.moves(match.id)
        actions = [(move.seat, move.action) for move in moves]
        missed = await asyncio.get_running_loop().run_in_executor(
            self.bot.computers.executor(), scrabble.analyse, len(match.seats), match.row.seed,
            match.engine_options, actions)
        return self.missed_lines(match, missed)

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
        seats = GameCog.private_changes(self, result)
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
                                    player=player_name(match.player(seat)), score=view.scores[seat]))
                    continue
                tiles = n_("{n} tile", "{n} tiles", view.rack_sizes[seat])
                values = dict(player=mention(match, seat), score=view.scores[seat], tiles=tiles)
                line = (_("{player} **{score}** · {tiles} · loses the next turn", **values)
                        if view.lost_turns[seat] else _("{player} **{score}** · {tiles}", **values))
                scores.append(lines((marker, line), ""))
            embed.add_field(name=voice(_("Scores")), value=voice(lines(scores)))
        else:
            embed.add_field(name=voice(_("Final scores")),
                            value=voice(self._final_lines(match, view)))
        embed.add_field(name=voice(_("Bag")),
                        value=voice(n_("{n} tile left", "{n} tiles left", view.bag)))
        if view.last_play is not None and not any(e.kind == "play" for e in shown):
            embed.add_field(name=voice(_("Last play")), inline=False,
                            value=voice(self._play_line(match, view.last_play)))
        rules = [racks_text(view.rack_size),
                 _("double challenge") if view.challenge == "double"
                 else _("words checked as played"),
                 first_to(view.finish) if view.finish else _("played to the end")]
        embed.set_footer(text=voice(lines((_("Match #{id}", id=str(match.id)), *rules), " · ")))

        if view.outcome is None:
            content = voice(self._turn_line(match, view))
            mentions: tuple[int, ...] = tuple(
                i for i in (match.player(view.turn).user_id,) if i is not None)
        else:
            content = voice(self._result_line(match, view))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=content, embed=embed, png=png,
                     alt=alt_text.scrabble_board(view, voice),
                     filename=f"scrabble-{match.id}.png", mentions=mentions)

    @staticmethod
    def _play_line(match: Match, play: scrabble.PlayRecord) -> Text:
        return _("{player}: `{move}` for **{score}** ({words})",
                 player=player_name(match.player(play.seat)), move=play.move, score=play.score,
                 words=scored_words(play.words, play.bingo))

    @staticmethod
    def _turn_line(match: Match, view: scrabble.View) -> Words:
        turn = view.turn
        pending = view.pending
        name = match.player
        if pending is None:
            return _("{player}, your turn: {hint}.", player=mention(match, turn),
                     hint=turn_hint(view))
        owner = player_name(name(pending.seat))
        others = [player_name(name(s)) for s in view.order
                  if s not in (pending.seat, turn, *view.resigned)]
        if pending.final:
            if others:
                return _("{player}: {owner}'s play ends the game if it stands. Challenge it with "
                         "`/scrabble challenge`, or accept it with `/scrabble pass`. {others} "
                         "may challenge it too.", player=mention(match, turn), owner=owner,
                         others=listed(others))
            return _("{player}: {owner}'s play ends the game if it stands. Challenge it with "
                     "`/scrabble challenge`, or accept it with `/scrabble pass`.",
                     player=mention(match, turn), owner=owner)
        if others:
            # TRANSLATORS: {players} lists "You" (the player to move) and the others who may
            # challenge: "You, alice or bob".
            challenge = _("{players} may challenge {owner}'s play with `/scrabble challenge` "
                          "until you act.", players=listed((YOU, *others), "or"), owner=owner)
        else:
            challenge = _("You may challenge {owner}'s play with `/scrabble challenge` until "
                          "you act.", owner=owner)
        return lines((_("{player}, your turn: {hint}.", player=mention(match, turn),
                        hint=turn_hint(view)), challenge))

    @staticmethod
    def _final_lines(match: Match, view: scrabble.View) -> Words:
        result = view.outcome
        details = result.details
        before = details.get("before", list(result.scores))
        adjust = details.get("adjustments", [0] * len(result.scores))
        racks = details.get("racks", [""] * len(result.scores))
        out: list[Words] = []
        ranked = sorted(range(len(result.scores)),  # those who resigned last
                        key=lambda s: (s in view.resigned, -result.scores[s], s))
        for seat in ranked:
            name = player_name(match.player(seat))
            final = result.scores[seat]
            if seat in view.resigned:
                out.append(_("~~{player}~~: {score} (resigned)", player=name, score=final))
            elif adjust[seat] < 0:
                out.append(_("{player}: {before} − {minus} (left with {rack}) = **{score}**",
                             player=name, before=before[seat], minus=-adjust[seat],
                             rack=racks[seat], score=final))
            elif adjust[seat] > 0:
                out.append(_("{player}: {before} + {plus} (went out: the others' leftover "
                             "tiles) = **{score}**", player=name, before=before[seat],
                             plus=adjust[seat], score=final))
            else:
                out.append(_("{player}: **{score}**", player=name, score=final))
        return lines(out)

    @staticmethod
    def _result_line(match: Match, view: scrabble.View) -> Words:
        result = view.outcome
        reason = reason_text(result.reason, result.details, seat_names(match))
        winners = [mention(match, s) for s in result.winners]
        top = result.scores[result.winners[0]]
        return game_over(reason, winners_text(winners, top, bool(result.details.get("tiebreak"))))

    # -- the engine's words ------------------------------------------------------------------

    def event_text(self, match: Match, event: Event) -> Words:
        """An engine event in words; the names of the players in bold."""
        names = seat_names(match)
        if event.text:  # saved before events carried values: English, as it was
            return event.text.format(**legacy_names(match))
        values = event.values
        player = names.get(f"seat{event.seat}", "")

        def name(seat: int) -> str:
            return names.get(f"seat{seat}", "")

        kind = event.kind
        if kind == "opening_draw":
            draws = listed(_("{player} drew a blank", player=name(s)) if tile == "?" else
                           _("{player} drew {tile}", player=name(s), tile=tile)
                           for s, tile in values["draws"])
            if values.get("tied"):
                return _("Draw for first turn: {draws}. {tied} tie and draw again.",
                         draws=draws, tied=listed(name(s) for s in values["tied"]))
            return _("Draw for first turn: {draws}.", draws=draws)
        if kind == "order":
            return _("{player} goes first. Turn order: {order}.", player=player,
                     order=listed(name(s) for s in values["order"]))
        if kind == "options":
            rules: list[Words] = []
            if values["rack_size"] != 7:
                rules.append(racks_text(values["rack_size"]))
            if values["finish"] is not None:
                rules.append(n_("first to {n} point wins", "first to {n} points wins",
                                values["finish"]))
            if values["challenge"] == "void":
                rules.append(_("words are checked as they are played"))
            return _("This game: {rules}.", rules=separated(rules, RULES_SEPARATOR))
        if kind == "play":
            play = dict(player=player, square=values["square"], word=values["word"],
                        score=values["score"], words=scored_words(values["words"],
                                                                  values["bingo"]))
            if values["direction"] == scrabble.DOWN:
                return _("{player} played {square} down {word} for {score} ({words}).", **play)
            return _("{player} played {square} across {word} for {score} ({words}).", **play)
        if kind == "final_play":
            if values["ends"] == "finish":
                return n_("{player} reached {n} point.", "{player} reached {n} points.",
                          values["target"], player=player)
            return _("{player} went out.", player=player)
        if kind == "accept":
            return _("{player} accepts the play.", player=player)
        if kind == "exchange":
            return n_("{player} exchanged {n} tile.", "{player} exchanged {n} tiles.",
                      values["tiles"], player=player)
        if kind == "pass":
            return _("{player} passed.", player=player)
        if kind == "challenge":
            return _("{player} challenges {owner}'s play.", player=player,
                     owner=name(values["player"]))
        if kind == "withdrawn":
            words = values["words"]
            return n_("{words} is not in the dictionary: {player} takes the tiles back, scores "
                      "nothing and loses the turn.",
                      "{words} are not in the dictionary: {player} takes the tiles back, scores "
                      "nothing and loses the turn.", len(words), words=listed(words),
                      player=player)
        if kind == "challenge_failed":
            if values["later"]:
                return _("Every word stands: {player} loses their next turn.", player=player)
            return _("Every word stands.")
        if kind == "lost_turn":
            return _("{player} loses this turn.", player=player)
        if kind == "resign":
            if values["goes_on"]:
                return n_("{player} resigned: their {n} tile went back into the bag, and the "
                          "others play on.",
                          "{player} resigned: their {n} tiles went back into the bag, and the "
                          "others play on.", values["tiles"], player=player)
            return _("{player} resigned.", player=player)
        if kind == "play_goes_on":
            return n_("The bag is no longer empty: {player} draws {n} and the game goes on.",
                      "The bag is no longer empty: {player} draws {n} and the game goes on.",
                      values["drew"], player=player)
        if kind == "end":
            winners = [name(s) for s in values["winners"]]
            top = values["final"][values["winners"][0]]
            details = {"seat": values["player"], "target": values["target"]}
            return game_over(reason_text(values["reason"], details, names),
                             winners_text(winners, top, values["tiebreak"]))
        log.warning("no words for the Scrabble event %r", kind)  # unknown: nothing to say
        return ""

    def error_text(self, error: GameError) -> Words | None:
        """A Scrabble engine error in words (None: not one of Scrabble's)."""
        key, values = error.key, error.values
        if not isinstance(key, str) or not key.startswith("scrabble."):
            return None
        what = key.removeprefix("scrabble.")
        if what == "not_your_turn":  # said before whose turn it is: whole sentences
            if values.get("can_challenge"):
                return _("It is not your turn (you may challenge the last play).")
            return _("It is not your turn.")
        if what == "unknown_words":
            words = values["words"]
            return n_("{words} is not in the dictionary", "{words} are not in the dictionary",
                      len(words), words=listed(words))
        if what == "runs_off":
            if values["direction"] == scrabble.DOWN:
                return _("{word} does not fit: down from {square} it would run past row 15",
                         word=values["word"], square=values["square"])
            return _("{word} does not fit: across from {square} it would run past column O",
                     word=values["word"], square=values["square"])
        if what == "runs_on":
            return _("the word runs on into {square} ({tile}): write the whole word as it will "
                     "read, e.g. {start} {direction} {whole}", square=values["square"],
                     tile=values["tile"], start=values["start"],
                     direction=DIRECTIONS[values["direction"]], whole=values["whole"])
        if what == "no_tile":
            if values["tile"] != "?":
                return _("you have no {tile}", tile=values["tile"])
            if values.get("exchange"):
                return _("you have no blank")
            return _("you have no blank (a lower-case letter in the word means a blank)")
        if what == "too_few":
            shared = dict(have=values["have"], tile=tile_name(values["tile"]),
                          need=values["need"])
            if values.get("exchange"):
                return _("you have only {have} {tile}, you named {need}", **shared)
            return _("you have only {have} {tile}, the play needs {need}", **shared)
        if what == "exchange_too_many":
            return n_("the bag holds {n} tile: you can exchange at most {n}",
                      "the bag holds {n} tiles: you can exchange at most {n}", values["bag"])
        message = ERRORS.get(what)
        if message is None:
            return None
        worded: dict[str, object] = {}
        for name, value in values.items():
            if isinstance(value, list):
                value = lines(value, ", ")
            elif (what, name) in TYPED:
                value = quoted(value)
            worded[name] = value
        return Text(message.msgid, worded)


# The values of engine errors that are what a player typed: quoted as typed (`H 8`).
TYPED = {("unknown_option", "option"), ("bad_direction", "direction"),
         ("letters_only", "word"), ("unexchangeable", "tiles"), ("not_a_move", "text"),
         ("bad_square", "square")}
# The engine errors worded without more ado: their messages, filled in with their values.
ERRORS: dict[str, Text] = {
    "unknown_option": _("Scrabble has no option {option}: use {options}"),
    "tiles_option": _("the tiles option is 7 or 9"),
    "finish_option": _("finish is a positive target score (a whole number), or beginner, "
                       "intermediate or expert"),
    "finish_too_high": _("the finish target can be at most {most} points"),
    "challenge_option": _("the challenge option is double or void"),
    "over": _("The game is over."),
    "no_seat": _("There is no seat {seat} in this game."),
    "resigned": _("You resigned from this game."),
    "resigned_already": _("You resigned from this game already."),
    "answer_final_play": _("the last play ends the game if it stands: challenge it, or pass to "
                           "accept it"),
    "not_an_action": _("{action} is not a Scrabble action"),
    "exchange_bag_low": _("you can exchange only while the bag holds at least {need} tiles; it "
                          "holds {bag}"),
    "challenges_off": _("challenges are off in this game: every word is checked when it is "
                        "played"),
    "nothing_to_challenge": _("there is no play to challenge: a play can be challenged only "
                              "until the next player acts"),
    "own_play": _("you cannot challenge your own play"),
    "bad_direction": _("{direction} is not a direction: write across or down"),
    "off_board": _("the first square must be on the board, A1 to O15"),
    "short_word": _("write the whole word as it will read on the board: at least two letters"),
    "letters_only": _("{word} must be letters A-Z only (lower case for a blank)"),
    "play_form": _("write a play as square, direction and the whole word, e.g. H8 across QUIZ "
                   "(lower case for a blank)"),
    "exchange_what": _("say which tiles to exchange, e.g. exchange QV? (? is a blank)"),
    "exchange_form": _("write an exchange as: exchange ABC? (? is a blank)"),
    "pass_form": _("write a pass as: pass"),
    "challenge_form": _("write a challenge as: challenge"),
    "unexchangeable": _("{tiles} cannot be exchanged: name tiles A-Z only, ? for a blank"),
    "not_a_move": _("{text} is not a move: write a play like H8 across QUIZ (lower case for a "
                    "blank), exchange ABC? , pass, or challenge"),
    "bad_square": _("{square} is not a square: write the column A-O then the row 1-15, e.g. H8"),
    "taken": _("{square} is already taken by {tile}"),
    "already_on_board": _("{word} is already on the board: a play must place at least one "
                          "tile"),
    "centre": _("the first word must cover the centre square H8"),
    "not_touching": _("the word does not touch any tile on the board"),
}


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ScrabbleCog(bot))
