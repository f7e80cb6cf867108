"""`/scrabble ...`: lobbies with the game's options, plays, exchanges, passes, challenges, the
private rack (by DM and `/scrabble rack`) and the bag, and how a Scrabble board is posted.

Racks are private: the public board post is drawn from the public view (no rack at all), and a
player's rack is only ever sent to that player (by DM, or ephemerally).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games.scrabble as scrabble
from bot.cogs.base import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.present import COLOUR, Reply, describe_events, mention, render_in_thread, seat_names
from bot.service import ActionResult, LobbyError, Match, NotSeated
from games.common import Event, counted, join_and
from games.scrabble import LEXICON_ENV
from render import alt as alt_text
from render.scrabble import render_board, render_rack
from i18n import Voice

if TYPE_CHECKING:
    from bot.client import GamenightBot

DEFAULT_PLAYERS = 4
LEVELS = ("beginner", "intermediate", "expert")
MAX_FINISH = 1000  # points: higher than any real game reaches


def turn_hint(view: scrabble.View) -> str:
    """The commands the player to move may use now."""
    if view.pending is not None and view.pending.final:
        return ("`/scrabble challenge` the play that ends the game, or `/scrabble pass` to "
                "accept it")
    if view.bag >= scrabble.EXCHANGE_MIN_BAG:
        return "`/scrabble play`, `/scrabble exchange` or `/scrabble pass`"
    return "`/scrabble play` or `/scrabble pass` (too few tiles in the bag to exchange)"


def parse_finish(text: str | None) -> str | int | None:
    """The `finish` option: none, a level (resolved for the table size at start) or a score."""
    value = (text or "").strip().lower()
    if value in ("", "none", "off"):
        return None
    if value in LEVELS:
        return value
    if is_target(value):
        return int(value)
    raise LobbyError("`finish` is none, beginner, intermediate, expert, or a target score from "
                     f"1 to {MAX_FINISH} such as 150: the first player to reach it wins.")


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


@app_commands.guild_only()
class ScrabbleCog(GameCog, commands.GroupCog, group_name="scrabble",
                  group_description="Scrabble for 2 to 4 players"):
    game = scrabble.NAME
    has_private = True
    private_command = "/scrabble rack"
    private_thing = "rack"
    help = GameHelp(
        title="Scrabble",
        players="2-4 players",
        summary=("Make words on a 15x15 board with the tiles on your rack; premium squares "
                 "multiply letters and words, all seven tiles at once earn 50. Your rack comes "
                 "by DM. A play stands unless someone challenges it before the next player "
                 "acts. Plays are written `H8 across QUIZ`, lower case for a blank."),
        commands=(
            ("/scrabble new [players] [challenge] [tiles] [finish]",
             "open a lobby (2-4 seats, double or void challenge, 7 or 9 tiles, finish line)"),
            ("/scrabble play word square direction", "e.g. word QUIz, square H8, across"),
            ("/scrabble exchange tiles", "swap tiles with the bag (? is a blank)"),
            ("/scrabble pass", "pass, or accept a play that ends the game"),
            ("/scrabble challenge", "dispute the last play before the next player acts"),
            ("/scrabble rack", "your rack, shown only to you"),
            ("/scrabble bag", "tiles left in the bag and the tiles you cannot see"),
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
        typed = current.strip().lower()
        choices = []
        if is_target(typed):
            target = counted(int(typed), "point")
            choices.append(app_commands.Choice(name=f"first to {target} wins",
                                               value=str(int(typed))))
        choices.append(app_commands.Choice(name="none: play until the tiles run out",
                                           value="none"))
        choices += [app_commands.Choice(
            name=f"{level}: first to {targets[level]} points wins ({players} players)",
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
            raise NotSeated("You are not playing in this match, so you have no rack. "
                            "`/scrabble bag` shows the tiles not on the board.")
        await self.show_private(interaction, match, seat)

    @app_commands.command(name="bag", description="Tiles left in the bag and the tiles you "
                                                  "cannot see (only you)")
    async def bag(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        if match.status == "lobby":
            raise LobbyError("The match has not started yet: the bag is still full (100 tiles).")
        seat = match.seat_of(interaction.user.id)
        view = scrabble.view(match.state, seat)
        whose = "the bag and the other racks" if seat is not None else "the bag and the racks"
        text = (f"**{view.bag}** tile{'s' if view.bag != 1 else ''} left in the bag.\n"
                f"Unseen tiles ({len(view.unseen)}: {whose}): {tally(view.unseen) or 'none'}")
        await interaction.response.send_message(text, ephemeral=True)

    def lobby_rules(self, match: Match) -> str:
        options = match.row.options
        finish = options.get("finish")
        if finish in LEVELS:
            targets = scrabble.FINISH_TARGETS.get(match.table_size, {})
            table = "at a full table" if match.status == "lobby" else f"for {match.table_size}"
            finish_text = f"finish line: {finish} ({targets.get(finish, '?')} points {table})"
        elif finish:
            finish_text = f"finish line: first to {counted(finish, 'point')}"
        else:
            finish_text = "played until the tiles run out"
        challenge = ("double challenge" if options.get("challenge", "double") == "double"
                     else "void: words checked as they are played")
        return f"{options.get('tiles', 7)}-tile racks · {challenge} · {finish_text}"

    def cancel_summary(self, match: Match) -> str:
        if match.state is None:
            return ""
        scores = ", ".join(f"{s.name} {match.state.scores[s.seat]}" for s in match.seats)
        return f"Scores when it stopped: {scores}."

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
        png = await render_in_thread(render_rack, rack) if rack else None
        if seat in view.resigned:
            content = "You resigned from this game: your tiles went back into the bag."
            description = None
        elif rack:
            content = f"Your Scrabble rack: **{spaced(rack)}**"
            description = " · ".join(f"{t} {scrabble.VALUES[t]}" for t in rack)
            if "?" in rack:
                description += ("\n`?` is a blank (0 points): write the letter it stands for in "
                                "lower case, e.g. `QUIz`.")
        else:
            content = "Your Scrabble rack is empty."
            description = None
        embed = discord.Embed(title=f"Your rack · Scrabble match #{match.id}",
                              description=description, colour=COLOUR)
        embed.add_field(name="Your score", value=str(view.scores[seat]))
        if seat in view.resigned:  # their DM is not updated again: nothing that goes stale
            return Reply(content=content, embed=embed)
        embed.add_field(name="Bag", value=counted(view.bag, "tile"))
        if view.outcome is None:
            if view.turn == seat:
                embed.add_field(name="To move", value=f"You: {turn_hint(view)}", inline=False)
            else:
                embed.add_field(name="To move", value=match.player(view.turn).name,
                                inline=False)
        return Reply(content=content, embed=embed, png=png, filename=f"rack-{match.id}.png",
                     alt=alt_text.scrabble_rack(rack) if rack else None)

    # -- the public board --------------------------------------------------------------------

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        view = scrabble.view(match.state)
        png = await render_in_thread(render_board, view)
        shown = [e for e in events if e.kind != "end"]  # the end is itemised below
        description = voice(describe_events(match, shown, self.event_text))
        embed = discord.Embed(
            title="Scrabble: " + " · ".join(s.name for s in match.seats),
            description=description or None, colour=COLOUR)

        if view.outcome is None:
            lines = []
            for seat in view.order:
                marker = "\N{BLACK RIGHT-POINTING TRIANGLE} " if seat == view.turn else ""
                if seat in view.resigned:
                    lines.append(f"~~{match.player(seat).name}~~ {view.scores[seat]} · resigned")
                    continue
                lost = " · loses the next turn" if view.lost_turns[seat] else ""
                lines.append(f"{marker}{mention(match, seat)} **{view.scores[seat]}** · "
                             f"{counted(view.rack_sizes[seat], 'tile')}{lost}")
            embed.add_field(name="Scores", value="\n".join(lines))
        else:
            embed.add_field(name="Final scores", value=self._final_lines(match, view))
        embed.add_field(name="Bag", value=f"{counted(view.bag, 'tile')} left")
        if view.last_play is not None and not any(e.kind == "play" for e in shown):
            embed.add_field(name="Last play", inline=False,
                            value=self._play_line(match, view.last_play))
        rules = [f"{view.rack_size}-tile racks",
                 "double challenge" if view.challenge == "double" else "words checked as played",
                 f"first to {counted(view.finish, 'point')}" if view.finish
                 else "played to the end"]
        embed.set_footer(text=f"Match #{match.id} · " + " · ".join(rules))

        if view.outcome is None:
            content = self._turn_line(match, view)
            mentions: tuple[int, ...] = tuple(
                i for i in (match.player(view.turn).user_id,) if i is not None)
        else:
            content = "**Game over.** " + self._result_line(match, view)
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=content, embed=embed, png=png, alt=alt_text.scrabble_board(view),
                     filename=f"scrabble-{match.id}.png", mentions=mentions)

    @staticmethod
    def _play_line(match: Match, play: scrabble.PlayRecord) -> str:
        words = ", ".join(f"{word} {score}" for word, score in play.words)
        bingo = " + 50 bingo" if play.bingo else ""
        return (f"{match.player(play.seat).name}: `{play.move}` for **{play.score}** "
                f"({words}{bingo})")

    @staticmethod
    def _turn_line(match: Match, view: scrabble.View) -> str:
        turn = view.turn
        pending = view.pending
        name = match.player
        if pending is not None and pending.final:
            others = [name(s).name for s in view.order
                      if s not in (pending.seat, turn, *view.resigned)]
            text = (f"{mention(match, turn)}: {name(pending.seat).name}'s play ends the game if "
                    "it stands. Challenge it with `/scrabble challenge`, or accept it with "
                    "`/scrabble pass`.")
            if others:
                text += f" {join_and(others)} may challenge it too."
            return text
        text = f"{mention(match, turn)}, your turn: {turn_hint(view)}."
        if pending is not None:
            others = [name(s).name for s in view.order
                      if s not in (pending.seat, turn, *view.resigned)]
            text += (f"\n{join_and(['You', *others], 'or')} may challenge "
                     f"{name(pending.seat).name}'s play with `/scrabble challenge` until you "
                     "act.")
        return text

    @staticmethod
    def _final_lines(match: Match, view: scrabble.View) -> str:
        result = view.outcome
        details = result.details
        before = details.get("before", list(result.scores))
        adjust = details.get("adjustments", [0] * len(result.scores))
        racks = details.get("racks", [""] * len(result.scores))
        lines = []
        ranked = sorted(range(len(result.scores)),  # those who resigned last
                        key=lambda s: (s in view.resigned, -result.scores[s], s))
        for seat in ranked:
            name = match.player(seat).name
            final = result.scores[seat]
            if seat in view.resigned:
                lines.append(f"~~{name}~~: {final} (resigned)")
            elif adjust[seat] < 0:
                lines.append(f"{name}: {before[seat]} − {-adjust[seat]} (left with "
                             f"{racks[seat]}) = **{final}**")
            elif adjust[seat] > 0:
                lines.append(f"{name}: {before[seat]} + {adjust[seat]} (went out: the others' "
                             f"leftover tiles) = **{final}**")
            else:
                lines.append(f"{name}: **{final}**")
        return "\n".join(lines)

    @staticmethod
    def _result_line(match: Match, view: scrabble.View) -> str:
        result = view.outcome
        reason = result.reason.format(**seat_names(match))
        winners = [mention(match, s) for s in result.winners]
        top = result.scores[result.winners[0]]
        how = reason[0].upper() + reason[1:]
        if len(winners) > 1:
            return f"{how}. {join_and(winners)} share the win with {top}."
        tiebreak = (" on the tie-break (the higher score before the rack adjustments)"
                    if result.details.get("tiebreak") else "")
        return f"{how}. {winners[0]} wins with {top}{tiebreak}."


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ScrabbleCog(bot))
