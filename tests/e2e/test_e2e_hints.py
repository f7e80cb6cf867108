"""`/match hint` through the real bot and the fake Discord: only in practice (against computers
only) or with `hints: on`, only on your turn, only to you; the hint is the hard computer's
legal move; a match with a hint given is not rated, and its lobby card says hints are on."""

from __future__ import annotations

import random
import re

import pytest

import games.reversi as reversi
from tests.e2e.test_e2e_computer import play_out
from tests.e2e_helpers import InlineExecutor, board_message, fake_world, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e


def inline(fake, db, guild, **settings):
    return running_bot(fake, db, guild.id, computer_executor=InlineExecutor(), **settings)


async def test_a_hint_in_practice_is_a_legal_move_and_unrates_the_match(tmp_path):
    async with fake_world("games", ("alice", "bob")) as (fake, guild, channel, users):
        alice = users["alice"]
        async with inline(fake, tmp_path / "g.db", guild) as bot:
            await fake.slash(alice, channel, "reversi new")
            await fake.slash(alice, channel, "match addbot", level="easy")
            match = await bot.service.current(channel.id)
            seat = match.seat_of(alice.id)
            if match.current_seat() != seat:
                early = await fake.slash(alice, channel, "match hint")
                assert early.ephemeral and "not your turn" in early.text()
                await fake.wait_idle()
                match = await bot.service.current(channel.id)
            before = len(fake.messages(channel))
            hinted = await fake.slash(alice, channel, "match hint")
            assert hinted.ephemeral, hinted.text()
            move = re.search(r"would play \*\*([a-h][1-8])\*\*", hinted.text())[1]
            assert reversi.parse_move(move) in reversi.legal_moves(match.state, seat)
            assert "will not be rated" in hinted.text()
            assert len(fake.messages(channel)) == before  # nothing public
            assert (await bot.service.current(channel.id)).row.version == match.row.version
            assert await bot.store.hinted(match.id)

            final = await play_out(fake, bot, channel, alice, random.Random(2))
            results = await bot.store.match_results(final.id)
            assert all(r.unrated is not None and not r.rated for r in results)


async def test_no_hint_between_people_unless_the_lobby_allows_it(tmp_path):
    async with fake_world("games", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with inline(fake, tmp_path / "g.db", guild) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            assert "Hints" not in lobby.message.text()
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            black = alice if mentioned_ids(board.content)[0] == alice.id else bob
            refused = await fake.slash(black, channel, "match hint")
            assert refused.ephemeral and "Hints are for practice" in refused.text()
            assert not await bot.store.hinted((await bot.service.current(channel.id)).id)
            await fake.slash(alice, channel, "match cancel")

            lobby = await fake.slash(alice, channel, "reversi new", hints="on")
            assert "/match hint" in lobby.message.text()  # the card says hints are on
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            black = alice if mentioned_ids(board.content)[0] == alice.id else bob
            hinted = await fake.slash(black, channel, "match hint")
            assert hinted.ephemeral and "would play" in hinted.text(), hinted.text()
            white = bob if black is alice else alice
            stranger = await fake.slash(white, channel, "match hint")
            assert stranger.ephemeral and "not your turn" in stranger.text()

            people = {alice.id: alice, bob.id: bob}
            for _ in range(80):  # both play on by slash command to the end
                match = await bot.service.current(channel.id)
                if match is None or match.status != "active":
                    break
                seat = match.current_seat()
                square = str(reversi.legal_moves(match.state, seat)[0])
                await fake.slash(people[match.player(seat).user_id], channel, "reversi move",
                                 square=square)
            final = await bot.service.latest(channel.id)
            assert final.status == "finished"
            results = await bot.store.match_results(final.id)
            assert {r.unrated for r in results} == {"hint"} and not any(r.rated for r in results)
            assert "not rated: a hint was given" in fake.messages(channel)[-1].text()
