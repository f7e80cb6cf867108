"""`/match export id` through the real bot and the fake Discord: the files of a finished
match and of one in play (with nothing hidden in them), and the refusals: no such match, a
lobby, another server's match, a channel the person cannot see."""

from __future__ import annotations

import json
import re

import pytest

import games.doudizhu as ddz
import games.reversi as reversi
import games.scrabble as scrabble
from tests.e2e_helpers import InlineExecutor, fake_world, running_bot
from tests.fakediscord import Perm
from tests.games.scrabble.gcg_reader import read_gcg

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        yield world


def inline(fake, db, guild):
    """The bot with its commands in every server (`guild` None) or in one."""
    return running_bot(fake, db, guild and guild.id, computer_executor=InlineExecutor())


async def export(fake, user, channel, match_id: int):
    result = await fake.slash(user, channel, "match export", id=match_id)
    assert result.ephemeral, result.text()  # only the asker sees it, file and refusal alike
    return result


def files(result) -> dict[str, str]:
    return {a.filename: a.data.decode() for a in result.attachments}


async def test_reversi_in_play_then_finished_and_the_refusals(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with inline(fake, tmp_path / "g.db", None) as bot:  # commands in every server
        await fake.slash(alice, channel, "reversi new")
        await fake.slash(alice, channel, "match addbot", level="easy")
        match = await bot.service.current(channel.id)
        for _ in range(3):
            match = await bot.service.current(channel.id)
            seat = match.seat_of(alice.id)
            square = str(reversi.legal_moves(match.state, seat)[0])
            await fake.slash(alice, channel, "reversi move", square=square)

        running = await export(fake, bob, channel, match.id)
        assert "still in play" in running.content
        got = files(running)
        assert set(got) == {f"gamenight-reversi-{match.id}.txt",
                            f"gamenight-reversi-{match.id}.ggf"}
        moves = [m.action for m in await bot.service.store.moves(match.id)]
        assert got[f"gamenight-reversi-{match.id}.txt"].strip() == "".join(moves)
        ggf = got[f"gamenight-reversi-{match.id}.ggf"]
        assert ggf.startswith("(;GM[Othello]") and "RE[" not in ggf
        assert "PB[alice]" in ggf or "PW[alice]" in ggf

        await fake.slash(alice, channel, "match resign")
        finished = await export(fake, carol, channel, match.id)
        assert "move by move" in finished.content
        ggf = files(finished)[f"gamenight-reversi-{match.id}.ggf"]
        assert re.search(r"RE\[[+-]64\.000:r\]", ggf)

        missing = await export(fake, alice, channel, match.id + 50)
        assert f"There is no match #{match.id + 50} in this server" in missing.content
        assert not missing.attachments

        lounge = fake.add_channel(guild, "lounge")
        await fake.slash(bob, lounge, "scrabble new", players=2)
        lobby = await bot.service.current(lounge.id)
        waiting = await export(fake, carol, channel, lobby.id)
        assert "still a lobby" in waiting.content and not waiting.attachments

        other = fake.add_guild("Elsewhere")
        there = fake.add_channel(other, "games")
        dave = fake.add_user("dave")
        fake.add_member(other, dave)
        fake.add_member(other, alice)
        for person in (dave, alice):  # the match is in another server: as if it did not exist
            refused = await export(fake, person, there, match.id)
            assert f"There is no match #{match.id} in this server" in refused.content


async def test_a_scrabble_game_exports_as_gcg_and_hides_the_racks_while_in_play(world,
                                                                                 tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "scrabble new", players=2)
        await fake.slash(alice, channel, "match addbot", level="easy")
        for _ in range(4):
            match = await bot.service.current(channel.id)
            seat = match.seat_of(alice.id)
            plays = scrabble.scored_plays(match.state, seat, one_blank_choice=True)
            if plays and not (match.state.pending and match.state.pending.final):
                play = plays[0][1]
                await fake.slash(alice, channel, "scrabble play", word=play.word,
                                 square=play.square, direction=play.direction)
            else:
                await fake.slash(alice, channel, "scrabble pass")
        match = await bot.service.current(channel.id)
        name = f"gamenight-scrabble-{match.id}.gcg"

        running = files(await export(fake, bob, channel, match.id))
        game = read_gcg(running[name])
        assert game.nicks[0] == "alice" and len(game.nicks) == 2
        for event in game.events:  # what everyone saw: the tiles laid, nothing of a rack
            assert event.kind in ("play", "pass", "exchange", "withdrawn")
            if event.kind == "play":
                assert sorted(event.rack) == sorted(event.tiles)
            elif event.kind != "withdrawn":
                assert event.rack is None
        assert [game.totals[n] for n in game.nicks] == list(match.state.scores)

        await fake.slash(alice, channel, "match resign")
        final = await bot.service.latest(channel.id)
        game = read_gcg(files(await export(fake, alice, channel, match.id))[name])
        assert [game.totals[n] for n in game.nicks] == list(final.state.result.scores)
        plays = [e for e in game.events if e.kind == "play"]
        assert plays and all(len(e.rack) >= len(e.tiles) for e in plays)
        steps = await bot.service.steps(final)
        assert [e.change for e in plays] == [
            ev.values["score"] for s in steps for ev in s.after.events if ev.kind == "play"]


async def test_dou_dizhu_shows_the_hands_of_a_round_only_once_it_is_over(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "doudizhu new", players=3)
        await fake.slash(alice, channel, "match addbot", level="easy")
        await fake.slash(alice, channel, "match addbot", level="easy")
        match = await bot.service.current(channel.id)
        name = f"gamenight-doudizhu-{match.id}.txt"

        running = await export(fake, bob, channel, match.id)
        log = files(running)[name]
        assert "Round 1" in log and "Hands as dealt:" not in log
        assert "The round is still in play: its hands stay hidden." in log
        for hand in match.state.hands:  # nobody's cards, the asker's own included
            assert " ".join(ddz.card_text(card) for card in hand[:3]) not in log

        await fake.slash(alice, channel, "match resign")
        finished = files(await export(fake, alice, channel, match.id))[name]
        assert finished.count("Hands as dealt:") == 1 and "alice resigns." in finished


async def test_patchwork_exports_its_record(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "patchwork new")
        await fake.slash(alice, channel, "match addbot", level="easy")
        match = await bot.service.current(channel.id)
        if match.current_seat() == match.seat_of(alice.id):
            await fake.slash(alice, channel, "patchwork pass")
        await fake.slash(alice, channel, "match resign")
        result = await export(fake, alice, channel, match.id)
        record = json.loads(files(result)[f"gamenight-patchwork-{match.id}.json"])
        assert record["match"] == match.id and record["over"] is True
        assert [p["name"] for p in record["players"]][match.seat_of(alice.id)] == "alice"
        assert record["result"]["reason"] == "resigned" and record["moves"][-1]["action"] == \
            "resign"


async def test_a_match_in_a_channel_you_cannot_see_is_not_there(tmp_path):
    async with fake_world("secret", ("alice", "carol")) as (fake, guild, channel, users):
        alice, carol = users["alice"], users["carol"]
        guild.everyone.permissions &= ~Perm.VIEW_CHANNEL  # members see only with a role
        seeing = fake.add_role(guild, "players", Perm.EVERYONE_DEFAULT)
        guild.member(alice).roles.append(seeing)
        async with inline(fake, tmp_path / "g.db", guild) as bot:
            await fake.slash(alice, channel, "reversi new")
            await fake.slash(alice, channel, "match addbot", level="easy")
            match = await bot.service.current(channel.id)
            hidden = await export(fake, carol, channel, match.id)
            assert f"There is no match #{match.id} in this server" in hidden.content
            assert not hidden.attachments
            seen = await export(fake, alice, channel, match.id)
            assert len(seen.attachments) == 2
