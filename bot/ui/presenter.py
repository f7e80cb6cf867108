"""The seam between the code every game shares and each game's adapter: `Presenter`, what the
shared code may ask of a game's presenter (`bot.presenters[game]`), and the plain types that cross
it (the game's help, and a match's export files).

Every game's presenter extends `GamePresenter` (bot/ui/game_presenter.py), which writes most of
this once; a game's adapter (bot/adapters/<game>/presenter.py) draws its boards and words what
only it knows.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import discord

from bot.matches.model import ActionResult, Match
from games.common import GameError
from games.replay import Step
from i18n import Voice, Words


@dataclass(frozen=True)
class GameHelp:
    """What `/gamenight help` says about a game."""

    title: Words
    players: Words
    summary: Words  # the rules in short
    commands: tuple[tuple[str, Words], ...]  # (usage, what it does)


@dataclass(frozen=True)
class ExportFile:
    """One file of an export: its name and its bytes (UTF-8 text)."""

    filename: str
    data: bytes

    def to_discord(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


@dataclass(frozen=True)
class Export:
    """What a game's adapter needs to write a match's files."""

    match: Match
    steps: Sequence[Step]
    names: list[str]  # the players by seat, as the reader reads them
    voice: Voice
    over: bool  # False: still in play, so hidden tiles and cards are left out
    first: Any  # the state before the first move

    @property
    def stem(self) -> str:
        return f"gamenight-{self.match.game}-{self.match.id}"

    def file(self, extension: str, text: str) -> ExportFile:
        return ExportFile(f"{self.stem}.{extension}", text.encode())


class Presenter(Protocol):
    """How a game's matches are shown on Discord, as the shared code asks for it: the lobby
    card's rules, boards after a start or an action, private views by DM, the words of the
    engine's refusals, and the records (files, stats, result cards)."""

    game: ClassVar[str]  # the engine's NAME
    help: ClassVar[GameHelp]
    private_command: ClassVar[str]  # where a player whose DMs are closed sees their hand

    def lobby_rules(self, match: Match) -> Words | str | None:
        """The match options in words, for the lobby card (None: nothing to say)."""
        ...

    async def announce_start(self, interaction: discord.Interaction, match: Match) -> None:
        """The first board and hands of a match just started (called in its commit order)."""
        ...

    async def announce(self, result: ActionResult,
                       interaction: discord.Interaction | None = None) -> None:
        """Show a saved action: the new board, and fresh private views."""
        ...

    async def catch_up(self, match: Match) -> bool:
        """A board owed since a crash (its change saved, never posted): posted now."""
        ...

    async def show_new_deadline(self, match: Match) -> bool:
        """The board (and the DM of the seat to move) edited to show a moved deadline."""
        ...

    async def repost_board(self, interaction: discord.Interaction, match: Match) -> None:
        """`/match status`: the board as it stands, as the interaction's answer."""
        ...

    def cancel_summary(self, match: Match) -> Words | str | None:
        """What `/match cancel` adds to its notice (e.g. a series' standings)."""
        ...

    async def send_privates(self, match: Match, seats: Iterable[int]) -> None:
        """Each seat's private view in its live DM; once the match is over, the DMs close."""
        ...

    async def deliver_private(self, match: Match, seat: int) -> bool:
        """The seat's private view in its live DM; False when its DMs are closed."""
        ...

    async def show_private(self, interaction: discord.Interaction, match: Match,
                           seat: int) -> None:
        """The seat's private view as an ephemeral answer (`/match hand`)."""
        ...

    def computer_to_act(self, match: Match) -> int | None:
        """The computer seat the bot plays for now, if any."""
        ...

    def error_text(self, error: GameError) -> Words | None:
        """An engine error of this game in words; None: not one this game words."""
        ...

    def export_files(self, export: Export) -> list[ExportFile]:
        """A match as files in the game's standard format, for `/match export`."""
        ...

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """One person's highlights of this game in words, for `/gamenight stats`."""
        ...

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """A finished match's highlights in words, for its result card."""
        ...
