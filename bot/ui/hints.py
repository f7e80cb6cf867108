"""`/match hint`: the move the hard computer would make in your place, only to you, in a practice
game (you against computers only) or a lobby opened with `hints: on`. Worked out in the
computers' workers from your seat's view; the hint is recorded, and a match in which one was
given is not rated (its result card says so)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.matches.errors import LobbyError
from bot.matches.service import MatchService
from bot.workers.computer_moves import decision_seed
from bot.workers.reviews import hint_move
from games.review import Judged
from i18n import Words, _, n_

if TYPE_CHECKING:
    from bot.ui.computer_players import ComputerPlayers
    from bot.ui.language import Languages


class HintStore(Protocol):
    """The slice of the store a hint writes: that it was given."""

    async def record_hint(self, match_id: int, version: int, seat: int, move: str) -> None: ...


class HintHost(Protocol):
    @property
    def service(self) -> MatchService: ...
    @property
    def store(self) -> HintStore: ...
    @property
    def languages(self) -> Languages: ...
    @property
    def computers(self) -> ComputerPlayers: ...


async def send_hint(bot: HintHost, interaction: discord.Interaction) -> None:
    match, seat = await bot.service.seated(interaction.channel_id or 0, interaction.user.id)
    if match.status != "active" or match.state is None:
        raise LobbyError(_("Hints are for a match being played; this one has not started."))
    if not match.hints_allowed:
        raise LobbyError(_("Hints are for practice: a match against computers only, or one "
                           "whose lobby was opened with `hints: on`."))
    if match.current_seat() != seat:
        raise LobbyError(_("It is not your turn: ask for a hint when it is."))
    voice = await bot.languages.reader(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    version = int(match.row.version)
    move, found = await asyncio.get_running_loop().run_in_executor(
        bot.computers.executor(), hint_move, match.game, match.state.to_dict(), seat,
        decision_seed(int(match.row.seed), version, seat))
    await bot.store.record_hint(match.id, version, seat, move)
    said: list[Any] = [_("The computer (hard) would play **{move}**.", move=move)]
    if found is not None:
        said.append(value_words(Judged.from_dict(found)))
    said.append(_("A hint was given, so this match will not be rated."))
    await interaction.followup.send(" ".join(voice(line) for line in said), ephemeral=True)


def value_words(judged: Judged) -> Words:
    """What the move is worth, as the coach reckons it."""
    chance = round(100 * judged.win_played)
    value = judged.played_value
    if judged.unit == "discs":
        n = round(value)
        return n_("With best play from there, your final margin is {n} disc (winning chance "
                  "{chance}%).", "With best play from there, your final margin is {n} discs "
                  "(winning chance {chance}%).", abs(n), n=f"{n:+d}", chance=chance)
    if judged.unit == "equity":
        return _("It is worth {n} points of equity (winning chance {chance}%).",
                 n=f"{value:.1f}", chance=chance)
    if judged.unit == "points":
        return _("Expected final score difference: {n} (winning chance {chance}%).",
                 n=f"{value:+.1f}", chance=chance)
    return _("Your side's winning chance after it: {chance}%.", chance=chance)
