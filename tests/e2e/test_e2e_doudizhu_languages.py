"""Dou Dizhu at a table where people read different languages: the channel reads the server's
(繁體中文 here), each hand, menu and refusal its reader's (简体中文 for one player, whose
Discord client is in Chinese; English for another)."""

from __future__ import annotations

import re

import pytest

from bot.storage.rows import GuildSettings
from bot.storage.store import Store
from tests import stores
from tests import pseudo
from tests.e2e_helpers import fake_world, running_bot

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(pseudo.ENABLED, reason="every reader reads the pseudo voice")]


async def test_the_table_in_the_servers_language_and_each_hand_in_its_readers(tmp_path):
    db = tmp_path / "g.db"
    async with fake_world("doudizhu", ()) as (fake, guild, channel, _users):
        alice = fake.add_user("alice", locale="zh-CN")
        bob = fake.add_user("bob")
        carol = fake.add_user("carol", locale="zh-CN")
        for user in (alice, bob, carol):
            fake.add_member(guild, user)
        store = await Store.open(await stores.location(db))
        await store.set_guild_settings(guild.id, GuildSettings(language="zh-TW"))
        await store.close()
        async with running_bot(fake, db, guild.id) as bot:
            lobby = await fake.slash(alice, channel, "doudizhu new")
            match_id = int(re.search(r"#(\d+)", lobby.message.text()).group(1))
            await fake.click(bob, lobby.message, label="加入")
            for user in (alice, bob, carol):  # (an answer notes their client's language)
                early = await fake.slash(user, channel, "doudizhu hand")
                assert early.ephemeral
            await fake.click(carol, lobby.message, label="加入")
            match = await bot.service.get(match_id)
            state = match.state
            players = {alice.id: alice, bob.id: bob, carol.id: carol}
            opener = players[match.player(state.turn).user_id]

            table = [m for m in fake.messages(channel) if m.embeds][-1]
            assert "鬥地主 · 第 1 局" in table.text() and "發牌" in table.text()
            assert "叫分中：還沒有人叫分" in table.text() and "剩餘牌數" in table.text()

            hands = {user.name: fake.dm_messages(user)[-1] for user in (alice, bob, carol)}
            assert "你的手牌：17 张" in hands["alice"].text()
            assert "Your hand: 17 cards" in hands["bob"].text()
            assert hands["carol"].attachments[0].description.startswith("你的手牌：")
            labels = [b["label"] for b in fake.dm_messages(opener)[-1].buttons]
            if opener is bob:
                assert labels == ["Pass", "Bid 1", "Bid 2", "Bid 3"]
            else:
                assert labels == ["不叫", "叫 1 分", "叫 2 分", "叫 3 分"]

            early = await fake.slash(opener, channel, "doudizhu play", cards="3")
            said = "the auction is on" if opener is bob else "正在叫分：请叫比目前更高的"
            assert early.ephemeral and said in early.content

            crowned = await fake.slash(opener, channel, "doudizhu bid", amount="3")
            post = crowned.channel_messages[0]
            assert "叫 3 分。" in post.text() and "當地主" in post.text()
            assert "叫分 3 × 1 = 3" in post.text()
            landlord = fake.dm_messages(opener)[-1]
            if opener is not bob:
                assert "**你是地主**" in landlord.text() and "飞机" not in landlord.content
