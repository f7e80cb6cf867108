"""A game night as the bot sees it: its row, its players and its tables, read together, with
what follows from them (the plan, the round's tables, the standings)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.nights.rounds import is_computer
from bot.nights.plan import Plan
from bot.nights.results import night_standings
from bot.nights.standings import Standing
from bot.storage.rows import NightPlayer, NightRow, NightTable

SCHEDULED, CHECKIN, RUNNING, FINISHED, CANCELLED = (
    "scheduled", "checkin", "running", "finished", "cancelled")
# a player's state in a night
SIGNED, PLAYING, DROPPING, DROPPED, WITHDRAWN, REMOVED = (
    "signed", "playing", "dropping", "dropped", "withdrawn", "removed")
GONE = (DROPPED, WITHDRAWN, REMOVED)


@dataclass(frozen=True)
class Night:
    row: NightRow
    players: tuple[NightPlayer, ...]
    tables: tuple[NightTable, ...]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def plan(self) -> Plan:
        return Plan.from_options(self.row.game, self.row.format, self.row.options)

    @property
    def is_open(self) -> bool:
        return self.row.status in (SCHEDULED, CHECKIN, RUNNING)

    def player(self, user_id: int) -> NightPlayer | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def name(self, user_id: int) -> str:
        player = self.player(user_id)
        return player.name if player is not None else str(user_id)

    @property
    def signed_up(self) -> list[NightPlayer]:
        return [p for p in self.players if p.signed_up and p.state not in GONE]

    @property
    def in_play(self) -> list[NightPlayer]:
        """Who is seated in the coming rounds (checked in, not dropped or withdrawn)."""
        return [p for p in self.players if p.state in (PLAYING, DROPPING)]

    def round_tables(self, round_: int | None = None) -> list[NightTable]:
        round_ = self.row.round if round_ is None else round_
        return [t for t in self.tables if t.round == round_]

    def table_of(self, user_id: int, round_: int | None = None) -> NightTable | None:
        return next((t for t in self.round_tables(round_) if user_id in t.players), None)

    @property
    def round_done(self) -> bool:
        return all(t.status not in ("pending", "playing") for t in self.round_tables())

    @property
    def rounds(self) -> int:
        """The rounds this night plays (fixed at its start)."""
        planned = self.row.options.get("planned_rounds")
        return int(planned) if planned else self.plan.rounds_for(len(self.signed_up))

    def standings(self) -> list[Standing]:
        ids = {p.user_id for p in self.players if p.joined_round is not None}
        ids |= {pid for t in self.tables for pid in t.players if not is_computer(pid)}
        late = {p.user_id: p.joined_round - 1 for p in self.players
                if p.joined_round and p.joined_round > 1}
        return night_standings(ids, self.tables, self.row.seed, self.plan.bye_points, late)
