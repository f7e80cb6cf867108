"""A whole Patchwork game through the real bot and the fake Discord: lobby, buy with
autocomplete, preview, pass, leather placement, errors, a restart, and the final score."""

from __future__ import annotations

import random

import pytest

import games.patchwork as patchwork
from tests import pseudo
from tests.e2e_helpers import board_message as board
from tests.e2e_helpers import fake_world, fix_match_seeds, mentioned_ids, png_size, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("patchwork", ("alice", "bob", "carol")) as world:
        yield world


async def command_for(fake, channel, user, move):
    if isinstance(move, patchwork.Buy):
        return await fake.slash(user, channel, "patchwork buy", patch=move.choice,
                                square=move.square, orientation=move.orientation)
    if isinstance(move, patchwork.Place):
        return await fake.slash(user, channel, "patchwork place", square=move.square)
    return await fake.slash(user, channel, "patchwork pass")


async def play(fake, bot, channel, users, rng, *, max_moves=None):
    """Play moves chosen from the engine's legal moves until the end (or max_moves)."""
    by_id = {u.id: u for u in users}
    done = 0
    last = None
    while max_moves is None or done < max_moves:
        match = await bot.service.current(channel.id)
        if match is None:
            return last
        seat = match.current_seat()
        moves = patchwork.legal_moves(match.state, seat)
        buys = [m for m in moves if isinstance(m, patchwork.Buy)]
        move = rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves)
        user = by_id[match.player(seat).user_id]
        result = await command_for(fake, channel, user, move)
        assert not result.ephemeral, result.content
        last = board(result)
        png_size(last.attachments[0].data)
        if "Game over" not in last.content:
            after = await bot.service.current(channel.id)
            assert mentioned_ids(last.content) == [after.player(after.current_seat()).user_id]
        done += 1
    return last


async def test_a_whole_game_with_previews_errors_and_a_restart(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261123)  # patch 3 on offer costs 8: too dear at the start
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    db = tmp_path / "gamenight.db"
    rng = random.Random(3)
    async with running_bot(fake, db, guild.id) as bot:
        lobby = await fake.slash(alice, channel, "patchwork new", opponent=bob.id)
        started = await fake.click(bob, lobby.message, label="Join")
        first = board(started)
        width, _ = png_size(first.attachments[0].data)
        assert width == 600  # the phone-sized table (render/phone.py)
        assert "alice" in first.embeds[0]["title"] and "bob" in first.embeds[0]["title"]
        assert first.attachments[0].description.startswith("Patchwork table. alice: 5 buttons")
        match = await bot.service.current(channel.id)
        mover = {alice.id: alice, bob.id: bob}[match.player(match.current_seat()).user_id]
        waiter = bob if mover is alice else alice
        seat = match.current_seat()

        offer = match.state.offer
        orientations = await fake.autocomplete(mover, channel, "patchwork buy", "orientation",
                                               patch=1, orientation="")
        assert [c["value"] for c in orientations] == list(patchwork.orientations(offer[0]))
        squares = await fake.autocomplete(mover, channel, "patchwork buy", "square",
                                          patch=1, orientation="0", square="")
        expected = patchwork.legal_placements(0, offer[0], "0")
        assert [c["value"] for c in squares] == sorted(expected, key=patchwork.patches.square_index)[:25]

        buy = next(m for m in patchwork.legal_moves(match.state, seat)
                   if isinstance(m, patchwork.Buy))
        good = await fake.slash(mover, channel, "patchwork preview", patch=buy.choice,
                                orientation=buy.orientation, square=buy.square)
        assert good.ephemeral and "fits" in good.content
        png_size(good.attachments[0].data)
        bad = await fake.slash(mover, channel, "patchwork preview", patch=buy.choice,
                               orientation=buy.orientation, square="i9")
        assert bad.ephemeral and "sticks out" in bad.content
        assert "sticks out" in bad.attachments[0].description
        assert good.attachments[0].data != bad.attachments[0].data

        wrong_turn = await fake.slash(waiter, channel, "patchwork pass")
        assert wrong_turn.ephemeral and "not your turn" in wrong_turn.content
        outsider = await fake.slash(carol, channel, "patchwork pass")
        assert outsider.ephemeral and "not playing" in outsider.content
        unreadable = await fake.slash(mover, channel, "patchwork buy", patch=1, square="z1",
                                      orientation="0")
        assert unreadable.ephemeral and "not a square" in unreadable.content
        assert patchwork.PATCHES[offer[2]].cost > match.state.buttons[seat]
        poor = await fake.slash(mover, channel, "patchwork buy", patch=3, square="a1",
                                orientation="0")
        assert poor.ephemeral and "buttons, you have" in poor.content
        no_leather = await fake.slash(mover, channel, "patchwork place", square="e5")
        assert no_leather.ephemeral and "no leather patch" in no_leather.content

        await play(fake, bot, channel, [alice, bob], rng, max_moves=15)
        before = await bot.service.current(channel.id)

    async with running_bot(fake, db, guild.id) as bot:
        after = await bot.service.current(channel.id)
        assert after.state == before.state
        final = await play(fake, bot, channel, [alice, bob], rng)
    assert "Game over" in final.content
    fields = {f["name"]: f["value"] for f in final.embeds[0]["fields"]}
    assert "buttons +" in fields["Final score"] and "empty" in fields["Final score"]
    assert fake.search(fake.token) == []


async def test_leather_patch_placement_through_the_channel(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "patchwork new")
        await fake.click(bob, lobby.message, label="Join")
        by_id = {alice.id: alice, bob.id: bob}
        placed = False
        for _ in range(60):  # passing moves tokens fast: someone reaches a leather space
            match = await bot.service.current(channel.id)
            seat = match.current_seat()
            user = by_id[match.player(seat).user_id]
            if match.state.pending_seat is not None:
                choices = await fake.autocomplete(user, channel, "patchwork place", "square",
                                                  square="")
                assert choices and choices[0]["value"] == "a1"
                result = await fake.slash(user, channel, "patchwork place", square="e5")
                assert "leather" in board(result).embeds[0]["description"]
                placed = True
                break
            result = await fake.slash(user, channel, "patchwork pass")
            assert not result.ephemeral, result.content
        assert placed
        quilt = (await bot.service.current(channel.id)).state.quilt_mask(seat)
        assert quilt >> patchwork.patches.square_index("e5") & 1


async def _start(fake, bot, channel, alice, bob):
    """A started game; returns (mover, waiter) as fake users."""
    lobby = await fake.slash(alice, channel, "patchwork new", opponent=bob.id)
    started = await fake.click(bob, lobby.message, label="Join")
    match = await bot.service.current(channel.id)
    mover = {alice.id: alice, bob.id: bob}[match.player(match.current_seat()).user_id]
    return started, mover, (bob if mover is alice else alice)


async def _pass_until_leather(fake, bot, channel, users):
    """Pass until someone must place a leather patch; returns (match, placer, other)."""
    by_id = {u.id: u for u in users}
    for _ in range(60):
        match = await bot.service.current(channel.id)
        seat = match.current_seat()
        if match.state.pending_seat is not None:
            placer = by_id[match.player(seat).user_id]
            return match, placer, by_id[match.player(1 - seat).user_id]
        result = await fake.slash(by_id[match.player(seat).user_id], channel, "patchwork pass")
        assert not result.ephemeral, result.content
    raise AssertionError("nobody reached a leather space")


async def test_first_turn_says_the_start_player_was_drawn(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261123)
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        started, mover, waiter = await _start(fake, bot, channel, users["alice"], users["bob"])
        first = board(started)
        fields = {f["name"]: f["value"] for f in first.embeds[0]["fields"]}
        assert "drawn to start" in fields["To move"]
        assert "arrived last" not in fields["To move"]
        assert "drawn to start" in first.attachments[0].description
        wrong_turn = await fake.slash(waiter, channel, "patchwork pass")
        assert wrong_turn.ephemeral and "drawn to start" in wrong_turn.content
        after = board(await fake.slash(mover, channel, "patchwork pass"))
        fields = {f["name"]: f["value"] for f in after.embeds[0]["fields"]}
        assert "drawn to start" not in fields["To move"]


async def test_preview_off_turn_checks_cost_and_says_when_it_could_be_bought(
        world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261123)  # patch 1 costs 2, patch 3 costs 8 (5 buttons each)
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        _, mover, waiter = await _start(fake, bot, channel, users["alice"], users["bob"])
        cheap = await fake.slash(waiter, channel, "patchwork preview", patch=1,
                                 orientation="0", square="a1")
        assert cheap.ephemeral and "you can buy it on your turn" in cheap.content
        assert "use `/patchwork buy`" not in cheap.content
        dear = await fake.slash(waiter, channel, "patchwork preview", patch=3,
                                orientation="0", square="a1")
        assert dear.ephemeral and "would not work" in dear.content
        assert "costs 8 buttons, you have 5" in dear.content
        overlap = await fake.slash(waiter, channel, "patchwork preview", patch=1,
                                   orientation="0", square="i9")
        assert "sticks out" in overlap.content
        mine = await fake.slash(mover, channel, "patchwork preview", patch=1,
                                orientation="0", square="a1")
        assert "use `/patchwork buy`" in mine.content


async def test_orientation_autocomplete_reads_short_forms(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261123)  # patch 1 has all 8 orientations, patch 2 has 2
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        _, mover, _ = await _start(fake, bot, channel, users["alice"], users["bob"])

        async def typed(text, patch=1):
            found = await fake.autocomplete(mover, channel, "patchwork buy", "orientation",
                                            patch=patch, orientation=text)
            return [c["value"] for c in found]

        assert await typed("") == list(patchwork.ORIENTATIONS)
        assert await typed("90m") == ["90 mirrored"]
        assert await typed("90 m") == ["90 mirrored"]
        assert await typed("mirr") == [o for o in patchwork.ORIENTATIONS if "mirrored" in o]
        assert await typed("270") == ["270", "270 mirrored"]
        assert await typed("180", patch=2) == ["0"]  # the same shape as 180 turned
        assert await typed("45") == []
        preview = await fake.autocomplete(mover, channel, "patchwork preview", "orientation",
                                          patch=1, orientation="0M")
        assert [c["value"] for c in preview] == ["0 mirrored"]


async def test_leather_phase_autocompletes_and_messages_name_the_commands(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        _, mover, waiter = await _start(fake, bot, channel, users["alice"], users["bob"])
        for user in (mover, waiter):  # nobody has leather to place yet
            assert await fake.autocomplete(user, channel, "patchwork place", "square",
                                           square="") == []
        no_leather = await fake.slash(mover, channel, "patchwork place", square="e5")
        assert no_leather.ephemeral and "`/patchwork buy`" in no_leather.content

        match, placer, other = await _pass_until_leather(
            fake, bot, channel, [users["alice"], users["bob"]])
        assert await fake.autocomplete(other, channel, "patchwork place", "square",
                                       square="") == []
        assert await fake.autocomplete(placer, channel, "patchwork place", "square", square="")
        for command in ("patchwork buy", "patchwork preview"):
            for focused in ("square", "orientation"):
                found = await fake.autocomplete(placer, channel, command, focused, patch=1,
                                                orientation="", square="")
                assert found == [], (command, focused)
        preview = await fake.slash(placer, channel, "patchwork preview", patch=1,
                                   orientation="0", square="a1")
        assert "place your leather patch first" in preview.content
        assert "/patchwork place" in preview.content
        buy = await fake.slash(placer, channel, "patchwork buy", patch=1, orientation="0",
                               square="a1")
        assert buy.ephemeral and "`/patchwork place" in buy.content
        assert "write 'place" not in buy.content
        passed = await fake.slash(placer, channel, "patchwork pass")
        assert passed.ephemeral and "`/patchwork place" in passed.content
        assert (await bot.service.current(channel.id)).state == match.state


def test_preview_tells_a_player_on_the_final_space_they_have_no_turns_left():
    from dataclasses import replace

    from bot.adapters.patchwork.words import preview_problem
    from i18n import ENGLISH_VOICE, voice

    state = replace(patchwork.new_game(2, seed=3), positions=(20, 10))  # seat 1 to move
    choice = next(n for n, patch_id in enumerate(state.offer, start=1)
                  if patchwork.patch(patch_id).cost <= state.buttons[0])
    move = patchwork.Buy(choice, "0", "a1")
    assert preview_problem(state, 0, move) is None  # off-turn: fits, affordable
    finished = replace(state, positions=(53, 10), finished=(0,))
    assert ENGLISH_VOICE(preview_problem(finished, 0, move)) == (
        "your time token is on the final space: you have no turns left to buy with")
    assert voice("zh-TW")(preview_problem(finished, 0, move)) != ENGLISH_VOICE(
        preview_problem(finished, 0, move))


@pytest.mark.skipif(pseudo.ENABLED,
                    reason="the pseudo-locale run gives every reader the pseudo voice")
async def test_the_table_in_the_servers_language_and_previews_in_the_players(
        world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261123)  # patch 3 on offer costs 8: too dear at the start
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    bob.locale = "zh-CN"  # bob's Discord client is in simplified Chinese
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        bot.languages.server_changed(guild.id, "zh-TW")  # the server reads traditional Chinese
        lobby = await fake.slash(alice, channel, "patchwork new", opponent=bob.id)
        first = board(await fake.click(bob, lobby.message, label="加入"))
        embed = first.embeds[0]
        assert embed["title"] == "拼布對決：alice 對 bob"
        assert "抽籤決定由" in embed["description"]
        names = [f["name"] for f in embed["fields"]]
        assert names == ["alice", "bob", "輪到"]
        assert embed["fields"][0]["value"].endswith("\n5 顆鈕扣 · 收入 0\n剩餘時間 53 · 81 個空格")
        assert "抽籤決定先開始" in embed["fields"][2]["value"]
        assert embed["footer"]["text"] == "對局 #1 · 第 0 步"
        assert "輪到你：用 `/patchwork buy` 購買布塊" in first.content
        assert first.attachments[0].description.startswith("拼布對決的桌面。 alice：5 顆鈕扣")
        match = await bot.service.current(channel.id)
        mover = {alice.id: alice, bob.id: bob}[match.player(match.current_seat()).user_id]
        waiter = bob if mover is alice else alice
        preview = await fake.slash(bob, channel, "patchwork preview", patch=3, orientation="0",
                                   square="a1")
        assert preview.ephemeral and "行不通：那块布块要 8 颗纽扣，你只有 5 颗。" in preview.content
        assert preview.attachments[0].description.startswith("你的拼布板")
        orientations = await fake.autocomplete(bob, channel, "patchwork buy", "orientation",
                                               patch=1, orientation="镜")
        assert orientations and all(c["name"].endswith(" 镜像") for c in orientations)
        assert all(c["value"].endswith(" mirrored") for c in orientations)
        poor = await fake.slash(mover, channel, "patchwork buy", patch=3, square="a1",
                                orientation="0")
        said = "那块布块要 8 颗纽扣，你只有 5 颗" if mover is bob else "that patch costs 8 buttons"
        assert poor.ephemeral and poor.content.startswith(said)
        passed = board(await fake.slash(mover, channel, "patchwork pass"))
        said = f"**{mover.name}** 選擇跳過，前進 1 格並拿到 1 顆鈕扣。"
        assert said in passed.embeds[0]["description"]
        assert passed.embeds[0]["fields"][2]["value"] == f"<@{waiter.id}>：時間標記落後。"
