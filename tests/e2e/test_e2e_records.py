"""Records through the fake Discord: the result card, leaderboard, stats, history and
forgetting a person."""

from __future__ import annotations

import pytest

from tests.e2e_helpers import board_message, fake_world, png_size, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("records", ("alice", "bob", "carol")) as world:
        yield world


async def reversi_game(fake, channel, first, second, loser):
    lobby = await fake.slash(first, channel, "reversi new")
    await fake.click(second, lobby.message, label="Join")
    return board_message(await fake.slash(loser, channel, "match resign"))


async def test_records_of_two_games_and_a_computer_game(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        final = await reversi_game(fake, channel, alice, bob, loser=bob)
        card = final.text()
        assert "Records" in card and "Ratings:" in card
        alice_row = await bot.store.rating(guild.id, "reversi", "all", alice.id)
        assert f"alice {alice_row.display:,} (+{alice_row.display - 1000})" in card
        await reversi_game(fake, channel, alice, bob, loser=alice)

        board = await fake.slash(carol, channel, "gamenight leaderboard", game="reversi")
        assert board.ephemeral
        text = board.text()
        rows, total = await bot.store.leaderboard(guild.id, "reversi", "all")
        assert total == 2 and text.index(rows[0].name) < text.index(rows[1].name)
        assert f"**1.** {rows[0].name}: **{rows[0].display:,}**" in text
        assert "1 win" in text and "2 games" in text and "leaderboard" in text

        stats = await fake.slash(carol, channel, "gamenight stats", player=alice)
        assert stats.ephemeral
        shown = stats.all_messages[-1]
        assert "Played 2 (2 rated), won 1." in shown.text() and "Rating: **" in shown.text()
        assert shown.attachments and png_size(shown.attachments[0].data) == (600, 300)
        mine = await fake.slash(carol, channel, "gamenight stats")
        assert "No finished games in this server yet." in mine.text()

        lobby = await fake.slash(alice, channel, "reversi new")
        await fake.select(alice, lobby.message, lobby.message.selects[0]["custom_id"], ["easy"])
        computer = board_message(await fake.slash(alice, channel, "match resign"))
        assert "not rated: a computer played" in computer.text()

        history = await fake.slash(bob, channel, "match history")
        lines = [line for line in history.text().splitlines() if line.startswith("`#")]
        assert [line.split("`")[1] for line in lines] == ["#3", "#2", "#1"]
        assert "not rated" in lines[0] and "bob won" in lines[1] and "alice won" in lines[2]
        assert f"/channels/{guild.id}/{channel.id}/" in lines[1]
        of_bob = await fake.slash(alice, channel, "match history", player=bob)
        assert len([line for line in of_bob.text().splitlines() if line.startswith("`#")]) == 2


async def test_forget_me_asks_first_and_leaves_a_former_player(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await reversi_game(fake, channel, alice, bob, loser=bob)
        asked = await fake.slash(bob, channel, "gamenight forget-me")
        assert asked.ephemeral and "cannot be undone" in asked.content
        other = await fake.click(carol, asked.message, label="Forget me")
        assert other.ephemeral and "Only the person who asked" in other.content
        kept = await fake.click(bob, asked.message, label="Keep my records")
        assert "Nothing was deleted" in kept.message.content
        assert await bot.store.rating(guild.id, "reversi", "all", bob.id) is not None

        asked = await fake.slash(bob, channel, "gamenight forget-me")
        done = await fake.click(bob, asked.message, label="Forget me")
        assert "Done" in done.message.content and done.message.buttons == []
        assert await bot.store.rating(guild.id, "reversi", "all", bob.id) is None
        history = await fake.slash(alice, channel, "match history")
        assert "a former player" in history.text() and "bob" not in history.text()
        board = await fake.slash(alice, channel, "gamenight leaderboard", game="reversi",
                                 period="all")
        assert "alice" in board.text() and "bob" not in board.text()


async def test_forget_me_waits_for_open_matches(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "reversi new")
        await fake.click(bob, lobby.message, label="Join")
        asked = await fake.slash(bob, channel, "gamenight forget-me")
        refused = await fake.click(bob, asked.message, label="Forget me")
        assert refused.ephemeral and "open match (#1)" in refused.content
        match = await bot.service.current(channel.id)
        assert match.player(1).name in ("alice", "bob") and match.seat_of(bob.id) is not None


async def test_the_leaderboard_and_history_have_pages(tmp_path):
    from bot.matches.model import Player
    from tests.bot.matches.test_records import play

    names = [f"p{i:02}" for i in range(24)]
    async with fake_world("records", names) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            people = [Player(users[name].id, name) for name in names]
            for i in range(12):  # twelve games, each between two new players
                pair = people[2 * i: 2 * i + 2]
                await play(bot.service, "reversi", pair, channel=channel.id, seed=i,
                           guild=guild.id)
            asker = users["p00"]
            first = await fake.slash(asker, channel, "gamenight leaderboard", game="reversi")
            assert "Page 1 of 3" in first.text()
            assert [b["label"] for b in first.buttons] == ["◀ Higher", "Lower ▶"]
            assert first.buttons[0].get("disabled")
            places = [line.split("**")[1] for line in first.text().splitlines()
                      if line.startswith("**")]
            assert places == [f"{n}." for n in range(1, 11)]
            second = await fake.click(asker, first.message, label="Lower ▶")
            assert second.response_type == 7 and "Page 2 of 3" in second.message.text()
            assert "**11.**" in second.message.text()
            back = await fake.click(asker, second.message, label="◀ Higher")
            assert "**1.**" in back.message.text()

            history = await fake.slash(asker, channel, "match history")
            assert history.text().count("`#") == 10
            older = await fake.click(asker, history.message, label="Older ▶")
            ids = [line.split("`")[1] for line in older.message.text().splitlines()
                   if line.startswith("`#")]
            assert ids == ["#2", "#1"]
            assert [b.get("disabled", False) for b in older.message.buttons] == [False, True]


async def test_a_private_channels_matches_are_listed_only_to_who_can_see_it(tmp_path):
    from tests.fakediscord import Perm

    async with fake_world("secret", ("alice", "bob", "carol")) as (fake, guild, channel, users):
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        guild.everyone.permissions &= ~Perm.VIEW_CHANNEL  # members see only with a role
        seeing = fake.add_role(guild, "players", Perm.EVERYONE_DEFAULT)
        for member in (alice, bob):
            guild.member(member).roles.append(seeing)
        async with running_bot(fake, tmp_path / "g.db", guild.id):
            await reversi_game(fake, channel, alice, bob, loser=bob)
            seen = await fake.slash(alice, channel, "match history")
            assert "`#1`" in seen.text()
            unseen = await fake.slash(carol, channel, "match history")
            assert "`#1`" not in unseen.text() and "No finished matches yet." in unseen.text()
