"""Game nights through the real bot and the fake Discord, with a clock the test moves: the
sign-up card, check-in pings, rounds as matches in threads with one round card each, the
standings after each round and the podium at the end."""

from __future__ import annotations

import pytest

import games.reversi as reversi

from tests.e2e.night_helpers import (
    MINUTE, NAMES, card_of, finish_round, later, night_bot, night_world,
)
from tests.e2e_helpers import FakeClock

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with night_world() as world:
        yield world


async def test_a_reversi_swiss_night_with_a_no_show_and_byes(world, tmp_path):
    """Seven sign up; fay never checks in, and eve checks in but never plays: she loses her
    first game by walkover and sits out the rest, so rounds two and three have a bye."""
    fake, guild, channel, users = world
    clock = FakeClock()
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        result = await fake.slash(users["host"], channel, "gamenight night schedule",
                                  game="reversi", start="in 1h", rounds=3, turn_time="10m")
        assert "is scheduled" in result.text()
        card = card_of(fake, channel)
        for name in NAMES[1:]:
            await fake.click(users[name], card, label="I'm in")
        card = card_of(fake, channel)
        assert "**7** signed up" in card.text()  # the host and six more

        await later(fake, clock, 45 * MINUTE + 1)  # check-in opens 15 minutes before
        pinged = [u for u in users.values()
                  if any("Check-in is open" in m.text() for m in fake.dm_messages(u))]
        assert len(pinged) == 7
        for name in NAMES[:6]:  # fay never checks in
            ping = next(m for m in fake.dm_messages(users[name]) if "Check-in" in m.text())
            await fake.click(users[name], ping, label="Check in")
        await later(fake, clock, 15 * MINUTE)

        night = (await bot.nights.open_in(guild.id))[0]
        assert night.row.status == "running" and night.row.round == 1
        assert night.player(users["fay"].id).state == "withdrawn"
        threads = fake.threads(channel)
        assert len(threads) == 3  # six players, three tables
        for thread in threads:
            assert any(m.attachments for m in fake.messages(thread))  # the board is there
        round_cards = [m for m in fake.messages(channel) if "round 1 of 3" in m.text()]
        assert len(round_cards) == 1

        eve = users["eve"].id
        eves = night.table_of(eve)
        for table in night.round_tables():  # the other tables play theirs out
            if table is not eves:
                await fake.slash(by_id[table.players[1]], fake.channels[table.thread_id],
                                 "match resign")
        other = next(p for p in eves.players if p != eve)
        match = await bot.service.get(eves.match_id)
        if match.player(match.current_seat()).user_id == other:  # her opponent moves first
            square = str(reversi.legal_moves(match.state, match.current_seat())[0])
            await fake.slash(by_id[other], fake.channels[eves.thread_id], "reversi move",
                             square=square)
        await later(fake, clock, 10 * MINUTE + 1)  # eve's clock runs out: a walkover
        night = await bot.nights.require(night.id)
        assert night.table_of(eve, 1).result["forfeits"] == [eve]
        assert night.player(eve).state == "withdrawn"
        assert night.row.round == 2  # the walkover ended round 1

        byes = [t.players[0] for t in night.round_tables() if t.status == "bye"]
        assert len(byes) == 1 and eve not in {p for t in night.round_tables() for p in t.players}
        await finish_round(fake, bot, night.id, by_id)
        night = await bot.nights.require(night.id)
        byes += [t.players[0] for t in night.round_tables() if t.status == "bye"]
        assert len(byes) == 2 and len(set(byes)) == 2  # at most one bye each
        await finish_round(fake, bot, night.id, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.status == "finished"
        texts = [m.text() for m in fake.messages(channel)]
        assert any("final standings" in t and "\N{FIRST PLACE MEDAL}" in t for t in texts)
        assert sum("standings after round" in t for t in texts) == 2
        pairs = [frozenset(t.players) for t in night.tables if len(t.players) == 2]
        assert len(pairs) == 7  # 3 + 2 + 2 games (no avoidable rematch: tests/bot/nights)
        for round_ in (1, 2, 3):
            seated = [p for t in night.round_tables(round_) for p in t.players]
            assert len(seated) == len(set(seated)) == (6 if round_ == 1 else 5)
        pictures = [m for m in fake.messages(channel) if "standings" in m.text()]
        assert len(pictures) == 3
        for message in pictures:
            [picture] = message.attachments
            assert picture.filename == "standings.png" and picture.description
            assert picture.data.startswith(b"\x89PNG")
        winner = night.standings()[0]
        assert night.name(winner.player) in pictures[-1].attachments[0].description

        export = await fake.slash(users["ann"], channel, "gamenight night export")
        [(name, data)] = export.files
        assert name.endswith(".csv") and export.ephemeral
        rows = data.decode("utf-8-sig").splitlines()
        assert rows[0].startswith("night,game,round") and len(rows) == 1 + 7 * 2 + 2
