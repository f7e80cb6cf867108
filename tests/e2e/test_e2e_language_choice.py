"""Who reads which language, through the fake Discord: a person's own choice
(`/gamenight language`), else their Discord app's language, else the server's; the server's
language (`/gamenight settings language`, Manage Server only) for what the channel sees."""

from __future__ import annotations

import pytest

from bot.storage.rows import GuildSettings
from bot.ui.threads import match_line
from bot.matches.titles import title
from i18n import _, voice
from tests import pseudo
from tests.e2e_helpers import fake_world, running_bot
from tests.fakediscord import Perm

pytestmark = pytest.mark.e2e
worded = pytest.mark.skipif(pseudo.ENABLED, reason="compares real languages, not the markers")

NO_MATCHES = _("No open matches in this server. Start one with a game's `new` command "
               "(`/gamenight help` lists them).")
NOT_CREATOR = _("Only the player who opened the lobby can start the match.")


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob")) as world:
        yield world


def description(result) -> str:
    [embed] = result.embeds
    return embed["description"]


@worded
async def test_choosing_a_language_words_my_replies_in_it_everywhere(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]  # an English Discord app (en-US)
    taiwan = voice("zh-TW")
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        before = await fake.slash(alice, channel, "match list")
        assert description(before) == voice("en")(NO_MATCHES)

        chosen = await fake.slash(alice, channel, "gamenight language", language="zh-TW")
        assert chosen.ephemeral and chosen.content.startswith(taiwan(_(
            "Saved: Gamenight speaks **{language}** to you from now on, in every server.",
            language=_("繁體中文"))))
        assert await bot.store.user_languages(alice.id) == ("zh-TW", "en")

        listed = await fake.slash(alice, channel, "match list")
        assert listed.ephemeral and description(listed) == taiwan(NO_MATCHES) != voice("en")(
            NO_MATCHES)
        off = await fake.slash(alice, channel, "gamenight notify", reminders="off")
        assert off.content == taiwan(_("No more turn reminders by DM. `/gamenight notify on` "
                                       "brings them back."))
        refused = await fake.slash(alice, channel, "match resign")  # an error, in her language
        assert refused.ephemeral and refused.content == taiwan(_(
            "There is no game in this channel. Start one with a game's `new` command, like "
            "`/reversi new` (`/gamenight help` lists them)."))
        shown = await fake.slash(alice, channel, "gamenight language")
        assert taiwan(_("Gamenight speaks **{language}** to you: you chose it with "
                        "`/gamenight language`.", language=_("繁體中文"))) in shown.content

        back = await fake.slash(alice, channel, "gamenight language", language="auto")
        assert back.content.startswith(voice("en")(_(
            "Saved: Gamenight follows your Discord app again, so it speaks **{language}** to "
            "you.", language=_("English"))))
        assert await bot.store.user_languages(alice.id) == (None, "en")
        assert description(await fake.slash(alice, channel, "match list")) == voice("en")(
            NO_MATCHES)


@worded
async def test_a_chinese_discord_app_gets_chinese_without_choosing(world, tmp_path):
    fake, guild, channel, users = world
    wei = fake.add_user("wei", locale="zh-CN")
    fake.add_member(guild, wei)
    china = voice("zh-CN")
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        listed = await fake.slash(wei, channel, "match list")
        assert description(listed) == china(NO_MATCHES) != voice("zh-TW")(NO_MATCHES)
        shown = await fake.slash(wei, channel, "gamenight language")
        assert china(_("Gamenight speaks **{language}** to you: the language of your Discord "
                       "app.", language=_("简体中文"))) in shown.content
        assert await bot.store.user_languages(wei.id) == (None, "zh-CN")
        # what the channel sees stays in the server's language (English here)
        lobby = await fake.slash(wei, channel, "reversi new")
        assert not lobby.ephemeral
        assert lobby.embeds[0]["title"] == voice("en")(_("{game}: waiting for players",
                                                         game=title("reversi")))


@worded
async def test_a_gujarati_server_words_its_lobby_card_while_my_errors_stay_mine(world, tmp_path):
    fake, guild, channel, users = world
    admin = fake.add_user("owner")
    fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
    mei = fake.add_user("mei", locale="zh-TW")
    fake.add_member(guild, mei)
    gujarati, taiwan = voice("gu"), voice("zh-TW")
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        saved = await fake.slash(admin, channel, "gamenight settings", language="gu")
        assert saved.ephemeral and voice("en")(_(
            "Boards, lobby cards and announcements are in **{language}**.",
            language=_("ગુજરાતી"))) in saved.content
        assert (await bot.store.guild_settings(guild.id)).language == "gu"

        lobby = await fake.slash(users["alice"], channel, "reversi new")
        card = lobby.embeds[0]
        assert card["title"] == gujarati(_("{game}: waiting for players",
                                           game=title("reversi")))
        assert card["title"] != voice("en")(_("{game}: waiting for players",
                                              game=title("reversi")))
        match = await bot.service.current(channel.id)
        assert card["footer"]["text"] == gujarati(_("Match #{id}", id=str(match.id)))
        assert [b["label"] for b in lobby.buttons] == [gujarati(_("Join")), gujarati(_("Cancel"))]
        [menu] = lobby.message.selects
        assert menu["placeholder"] == gujarati(_("Add a computer player..."))

        refused = await fake.slash(mei, channel, "match start")  # only she sees it: hers
        assert refused.ephemeral and refused.content == taiwan(NOT_CREATOR)
        joined = await fake.click(mei, lobby.message, label=gujarati(_("Join")))
        assert not joined.errors
        board = await fake.slash(users["alice"], channel, "match status")
        assert not board.ephemeral
        listed = await fake.slash(mei, channel, "match list")
        assert listed.embeds[0]["title"] == taiwan(_("Open matches ({n})", n=1))
        started = await bot.service.current(channel.id)
        assert description(listed) == taiwan(match_line(started)) != voice("en")(
            match_line(started))


@worded
async def test_only_manage_server_may_change_the_server_language(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    admin = fake.add_user("owner", locale="zh-TW")
    fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        shown = await fake.slash(alice, channel, "gamenight settings")
        assert voice("en")(_("Boards, lobby cards and announcements follow the server's "
                             "Discord language: **{language}**.",
                             language=_("English"))) in shown.content
        refused = await fake.slash(alice, channel, "gamenight settings", language="zh-CN")
        assert refused.ephemeral and refused.content == voice("en")(_(
            "Only members with Manage Server can change these settings."))
        assert await bot.store.guild_settings(guild.id) == GuildSettings()

        saved = await fake.slash(admin, channel, "gamenight settings", language="zh-CN")
        assert saved.content.startswith(voice("zh-TW")(_("Saved.")))  # the admin's own
        assert (await bot.store.guild_settings(guild.id)).language == "zh-CN"
        lobby = await fake.slash(alice, channel, "reversi new")
        assert lobby.embeds[0]["title"] == voice("zh-CN")(_("{game}: waiting for players",
                                                            game=title("reversi")))
        await fake.slash(alice, channel, "match cancel")

        await fake.slash(admin, channel, "gamenight settings", language="auto")
        assert (await bot.store.guild_settings(guild.id)).language is None
        lobby = await fake.slash(alice, channel, "reversi new")
        assert lobby.embeds[0]["title"] == voice("en")(_("{game}: waiting for players",
                                                         game=title("reversi")))


async def test_help_settings_and_language_answer_in_every_language(world, tmp_path):
    """Every language's help fits Discord's limits (the fake checks each request), and in the
    pseudo-locale run nothing of these replies bypasses the catalogs."""
    fake, guild, channel, users = world
    admin = fake.add_user("owner")
    fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        for lang in ("en", "zh-TW", "zh-CN", "gu"):
            await fake.slash(admin, channel, "gamenight language", language=lang)
            shown = await fake.slash(admin, channel, "gamenight help")
            assert shown.ephemeral and shown.embeds and not shown.errors
            assert "/gamenight language" in "".join(
                field["value"] for message in (shown, *shown.followups)
                for embed in message.embeds for field in embed.get("fields", []))
            settings = await fake.slash(admin, channel, "gamenight settings", language=lang)
            assert settings.ephemeral and "/gamenight language" not in settings.content
        mine = await fake.slash(admin, channel, "gamenight language")
        assert mine.ephemeral and "/gamenight settings language" in mine.content
