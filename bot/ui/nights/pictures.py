"""A night as its standings picture and its export files: built from the night as stored
(the picture is drawn off the event loop)."""

from __future__ import annotations

import io

import discord

from bot.nights.exports import ExportNight, ExportTable, night_csv, tsh_file
from bot.nights.model import FINISHED, Night
from bot.nights.rounds import BYE, DONE, OUT
from bot.ui.nights.words import night_title
from bot.workers.pictures import render_off_loop
from i18n import Voice
from render.standings import StandingsLine, StandingsView, render_standings, standings_alt


def standings_view(night: Night, voice: Voice, after_round: int) -> StandingsView:
    standings = night.standings()
    played: dict[int, int] = {}
    for table in night.tables:
        if table.status == DONE:
            for player in table.players:
                played[player] = played.get(player, 0) + 1
    two = night.plan.pairs
    rows = tuple(StandingsLine(
        rank=s.rank, name=night.name(s.player), points=s.points,
        tiebreaks=(s.buchholz_cut1, s.sonneborn_berger, s.margin) if two else (s.margin,),
        played=played.get(s.player, 0)) for s in standings)
    return StandingsView(game=night.row.game, title=voice(night_title(night)),
                         round=after_round, rounds=night.rounds, rows=rows,
                         final=night.row.status == FINISHED, two_player=two)


async def standings_file(night: Night, voice: Voice, after_round: int) -> discord.File:
    view = standings_view(night, voice, after_round)
    png = await render_off_loop(render_standings, view, voice)
    return discord.File(io.BytesIO(png), filename="standings.png",
                        description=standings_alt(view, voice))


def export_night(night: Night) -> ExportNight:
    tables, byes = [], []
    for table in night.tables:
        if table.status in (BYE, OUT):
            byes.append((table.round, table.players[0]))
            continue
        result = table.result or {}
        finished = table.status == DONE and result and not result.get("unfinished")
        size = len(table.players)
        tables.append(ExportTable(
            round=table.round, number=table.number, players=table.players,
            places=tuple(result["places"]) if finished else None,
            scores=tuple(result.get("scores") or (0.0,) * size),
            margins=tuple(result.get("margins") or (0.0,) * size),
            forfeits=tuple(result.get("forfeits") or ()), note=str(result.get("note", ""))))
    names = {p.user_id: p.name for p in night.players}
    ratings = {p.user_id: p.rating for p in night.players if p.rating is not None}
    return ExportNight(night.id, night.row.game, names, ratings, tables, byes,
                       night.plan.bye_points)


def export_files(night: Night) -> list[discord.File]:
    """The night's CSV, and for a two-player Scrabble night the tsh `.t` file."""
    export = export_night(night)
    stem = f"gamenight-night-{night.id}-{night.row.game}"
    files = [discord.File(io.BytesIO(night_csv(export).encode("utf-8-sig")),
                          filename=f"{stem}.csv")]
    if night.row.game == "scrabble" and night.plan.pairs:
        files.append(discord.File(io.BytesIO(tsh_file(export).encode()), filename=f"{stem}.t"))
    return files

