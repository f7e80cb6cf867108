"""Dou Dizhu's highlights in words: a player's series for `/gamenight stats`, and the result
card of a finished series (from `games.doudizhu.records.highlights`). A spring (春天) is a
round the landlord won before any peasant played a card, or the peasants won after the landlord
played only their first lead (反春)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.ui.highlights import number, total
from bot.matches.model import Match, player_name
from i18n import Words, _, listed, n_


def stats_words(rows: Sequence[dict[str, Any]]) -> list[Words]:
    """Rounds, the landlord's record, wins as a peasant, bombs, springs, the biggest round."""
    rounds = total(rows, "rounds")
    if not rounds:
        return []
    found: list[Words] = [
        n_("{n} round played", "{n} rounds played", rounds),
        n_("Landlord in {n} round, won {won}", "Landlord in {n} rounds, won {won}",
           total(rows, "landlord_rounds"), won=total(rows, "landlord_wins")),
        n_("{n} round won as a peasant", "{n} rounds won as a peasant",
           total(rows, "peasant_wins")),
        n_("{n} bomb or rocket played", "{n} bombs or rockets played", total(rows, "bombs")),
        n_("{n} spring", "{n} springs", total(rows, "springs")),
    ]
    biggest = max((number(row, "best_round") for row in rows), default=0)
    if biggest > 0:
        found.append(_("Biggest win in one round: {n}", n=biggest))
    return found


def card_words(match: Match, highlights: Sequence[dict[str, Any]]) -> list[Words]:
    """The series' landlords and their record, then who played bombs and who won springs."""
    def name(seat: int) -> Words:
        return player_name(match.player(seat))

    landlords = [n_("{player} won {won} of {n} round", "{player} won {won} of {n} rounds",
                    number(row, "landlord_rounds"), player=name(seat),
                    won=number(row, "landlord_wins"))
                 for seat, row in enumerate(highlights) if number(row, "landlord_rounds")]
    bombs, springs = (
        [_("{player} ({n})", player=name(seat), n=number(row, key))
         for seat, row in enumerate(highlights) if number(row, key)]
        for key in ("bombs", "springs"))
    found: list[Words] = []
    if landlords:
        found.append(_("As landlord: {players}", players=listed(landlords)))
    if bombs:
        found.append(_("Bombs and rockets: {players}", players=listed(bombs)))
    if springs:
        found.append(_("Springs: {players}", players=listed(springs)))
    return found
