"""`/scrabble ...`: lobbies with the game's options, plays, exchanges, passes, challenges, the
private rack (`/scrabble rack`) and the bag."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games.scrabble as scrabble
from bot.adapters.scrabble.words import LEVEL_NAMES, LEVELS, tally
from bot.commands.game import GameCommands, NewLobby, new_command
from bot.matches.errors import LobbyError, NotSeated
from games.scrabble import LEXICON_ENV
from i18n import _, lines, n_

DEFAULT_PLAYERS = 4
MAX_FINISH = 1000  # points: higher than any real game reaches


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


@app_commands.guild_only()
class ScrabbleCommands(GameCommands, commands.GroupCog, group_name="scrabble",
                       group_description="Scrabble for 2 to 4 players"):
    async def cog_load(self) -> None:
        lexicon = getattr(self.bot.settings, "lexicon", None)
        if lexicon is not None:
            # The engine reads its word list from the environment; a value from .env is not there.
            os.environ[LEXICON_ENV] = str(lexicon)
        await asyncio.to_thread(scrabble.default_lexicon)  # read once, off the event loop

    @new_command("Open a Scrabble lobby in this channel")
    @app_commands.describe(
        players="Seats at the table (default 4); the creator can press Start with 2 or more",
        challenge="double: plays may be challenged (default); void: words are checked at once",
        tiles="Tiles on a rack: 7 (default) or 9",
        finish="Finish line: none (default), beginner, intermediate, expert or a target score",
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
    )
    def new(self, players: int = DEFAULT_PLAYERS, challenge: str = "double", tiles: int = 7,
            finish: str | None = None) -> NewLobby:
        options: dict[str, Any] = {"players": players, "challenge": challenge, "tiles": tiles}
        target = parse_finish(finish)  # refused here when it cannot be read
        if target is not None:
            options["finish"] = target
        return NewLobby(options)

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
        await self.presenter.show_private(interaction, match, seat)

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
