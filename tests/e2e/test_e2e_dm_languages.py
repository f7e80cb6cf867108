"""Each player reads their DMs in their own language while the channel reads the server's: a
player whose Discord client is in Traditional Chinese gets their live DM and their turn
reminder in zh-TW, and the board in the channel stays in the server's English."""

from __future__ import annotations

import pytest

from bot.ui.error_replies import jump_url
from bot.ui.dms import where
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, _, voice
from tests import pseudo
from tests.e2e_helpers import FakeClock, fake_world
from tests.e2e.test_e2e_turn_clocks import MINUTE, later, timed_bot

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(pseudo.ENABLED, reason="the pseudo run gives every reader one voice"),
]


async def test_a_zh_tw_player_reads_their_dms_in_zh_tw_and_the_board_stays_english(tmp_path):
    async with fake_world("games", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        bob.locale = "zh-TW"  # their Discord client's language
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            await fake.slash(alice, channel, "scrabble new", players=2, turn_time="1h")
            await fake.slash(bob, channel, "match join")  # the bot learns bob's language
            match = await bot.service.current(channel.id)
            if match.player(match.current_seat()).user_id == alice.id:
                await fake.slash(alice, channel, "scrabble pass")  # bob is to move now
                match = await bot.service.current(channel.id)
            assert match.player(match.current_seat()).user_id == bob.id
            zh = voice("zh-TW")
            when = f"<t:{int(match.turn_due)}:R>"

            assert all(m.content.startswith(zh(where(bot, match)) + "\n")
                       for m in fake.dm_messages(bob))  # the first DM too
            dm = fake.dm_messages(bob)[-1].content
            assert dm.endswith("\n" + zh(_("⏱ Your time runs out {when}.", when=when)))
            assert zh(where(bot, match)) != ENGLISH_VOICE(where(bot, match))  # translated
            english = fake.dm_messages(alice)[-1].content  # the other player: English
            assert english.startswith(ENGLISH_VOICE(where(bot, match)) + "\n")

            board = fake.messages(channel)[-1].content  # the channel: the server's language
            assert board.endswith("\n" + ENGLISH_VOICE(_("⏱ Time runs out {when}.", when=when)))
            assert zh(_("⏱ Time runs out {when}.", when=when)) not in board

            await later(fake, clock, 30 * MINUTE)  # half time: a reminder, in bob's language
            match = await bot.service.get(match.id)
            link = jump_url(match.guild_id, match.channel_id, match.row.board_message_id)
            reminder = zh(_("⏰ It is your turn in the {game} match #{id} ({link}): your time "
                            "runs out {when}. (`/gamenight notify off` stops these.)",
                            game=title(match.game), id=str(match.id), link=link, when=when))
            assert fake.dm_messages(bob)[-1].content == reminder
            assert "⏰" in reminder and "輪到你了" in reminder
