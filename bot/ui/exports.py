"""`/match export id`: a match as a file in its game's standard format, for the asker only.

Scrabble: GCG; Reversi: a move transcript and GGF; Patchwork: a JSON record; Dou Dizhu: a
round log in the reader's language. The files come from the match's move log replayed step
by step (games/replay.py); a match still in play shows only what every player has seen.
A match of another server, or in a channel the person cannot see, is answered as if it did
not exist.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord

from bot.matches.errors import LobbyError
from bot.matches.model import Match, player_name
from bot.matches.service import MatchService
from bot.ui.presenter import Export, ExportFile, Presenter
from bot.ui.threads import visible_to
from bot.matches.titles import title
from games.replay import Step, first_state
from i18n import Text, Voice, _

if TYPE_CHECKING:
    from bot.ui.language import Languages


async def find_match(service: MatchService, interaction: discord.Interaction,
                     match_id: int) -> Match:
    """The match the person may export, or a friendly refusal (said privately)."""
    match = await visible_match(service, interaction, match_id)
    if match.status == "lobby":
        raise LobbyError(_("Match #{id} is still a lobby: there is nothing to export until it "
                           "starts.", id=str(match_id)))
    return match


async def visible_match(service: MatchService, interaction: discord.Interaction,
                        match_id: int) -> Match:
    """Match `match_id`, if it is this server's and in a channel the person can see; any other
    number is answered alike, as if there were no such match."""
    match = await service.get(match_id)
    if (match is None or match.guild_id != interaction.guild_id
            or not visible_to(interaction, match)):
        raise LobbyError(_("There is no match #{id} in this server that you can see. The "
                           "number is on the match's board and in `/match list`.",
                           id=str(match_id)))
    return match


def export_files(presenters: Mapping[str, Presenter], match: Match, steps: Sequence[Step],
                 voice: Voice) -> list[ExportFile]:
    """The files of `match` (names worded by `voice`), from its replayed steps: each game's
    adapter writes its own format (`Presenter.export_files`)."""
    first = steps[0].before if steps else first_state(
        match.engine, len(match.seats), match.row.seed, match.engine_options)
    export = Export(match, steps, seat_names(match, voice), voice,
                    over=match.status != "active", first=first)
    return presenters[match.game].export_files(export)


def seat_names(match: Match, voice: Voice) -> list[str]:
    """The players' names by seat, as the reader reads them (computers in their words)."""
    return [voice(player_name(seat)) for seat in sorted(match.seats, key=lambda s: s.seat)]


def export_line(match: Match, *, over: bool) -> Text:
    """The one line that comes with the files."""
    if over:
        return _("The {game} match #{id}, move by move.", game=title(match.game),
                 id=str(match.id))
    return _("The {game} match #{id} so far; it is still in play, so hidden tiles and cards "
             "are left out.", game=title(match.game), id=str(match.id))


async def send_export(service: MatchService, presenters: Mapping[str, Presenter],
                      languages: Languages, interaction: discord.Interaction,
                      match_id: int) -> None:
    """Answer `/match export` with the match's files, seen by the asker only."""
    match = await find_match(service, interaction, match_id)
    steps = await service.steps(match)
    if not steps and match.status != "active":
        raise LobbyError(_("Match #{id} ended before anyone moved: there is nothing to "
                           "export.", id=str(match_id)))
    voice = await languages.reader(interaction)
    files = export_files(presenters, match, steps, voice)
    line = voice(export_line(match, over=match.status != "active"))
    await interaction.response.send_message(
        line, files=[file.to_discord() for file in files], ephemeral=True)
