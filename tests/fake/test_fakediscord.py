"""Tests of the fake Discord server, driven with a tiny discord.py bot (not the project's bot)."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import BotError, FakeDiscord, Perm, run_bot


def tiny_png(width: int = 2, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tiny:join:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"tiny:join:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.clicks.append((self.game, interaction.user.id))
        await interaction.response.send_message(f"{interaction.user.name} joined game {self.game}", ephemeral=True)


class CounterView(discord.ui.View):
    def __init__(self, n: int = 0) -> None:
        super().__init__(timeout=180)
        self.n = n

    @discord.ui.button(label="+1", custom_id="tiny:counter")
    async def plus(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.n += 1
        await interaction.response.edit_message(content=f"count {self.n}", view=self)

    @discord.ui.select(custom_id="tiny:pick", options=[discord.SelectOption(label=x, value=x) for x in "abc"], max_values=2)
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message("picked " + ",".join(select.values), ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your game"):
    name = discord.ui.TextInput(label="Name", custom_id="tiny:modal:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"game named {self.name.value}")


def make_bot(guild_id: int, intents: discord.Intents | None = None) -> commands.AutoShardedBot:
    bot = commands.AutoShardedBot(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
    bot.clicks = []
    bot.dm_results = []
    bot.seen = []

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            bot.seen.append(message.content)
            if message.content == "ping":
                await asyncio.sleep(0.02)
                await message.channel.send("pong")

    @app_commands.command(name="name", description="Name a game")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())
    guild = discord.Object(guild_id)

    game = app_commands.Group(name="game", description="Tabletop games")
    reversi = app_commands.Group(name="reversi", description="Reversi", parent=game)

    @reversi.command(name="move", description="Play a move")
    async def move(interaction: discord.Interaction, square: str, opponent: discord.Member | None = None) -> None:
        kind = type(opponent).__name__ if opponent else "nobody"
        who = opponent.display_name if opponent else "nobody"
        await interaction.response.send_message(f"played {square} vs {who} ({kind})", ephemeral=True)

    @move.autocomplete("square")
    async def square_ac(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=s.upper(), value=s) for s in ("d3", "c4", "f5", "e6") if s.startswith(current)]

    @app_commands.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction, embed: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=embed)
        if not embed:
            await asyncio.sleep(0.05)  # "rendering"
            await interaction.followup.send("the board", file=discord.File(io.BytesIO(tiny_png()), "board.png"))
            return
        png = await asyncio.to_thread(tiny_png, 3, 4)  # rendering in a thread
        e = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.edit_original_response(embed=e, attachments=[discord.File(io.BytesIO(png), "board.png")])
        msg = await interaction.channel.send("public board", file=discord.File(io.BytesIO(png), "a.png"))
        await msg.edit(content="public board v2", attachments=[discord.File(io.BytesIO(tiny_png(5, 5)), "b.png")])

    @app_commands.command(name="lobby", description="Open a lobby")
    async def lobby(interaction: discord.Interaction, game_id: int = 7) -> None:
        await interaction.response.send_message("opening", ephemeral=True)
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(game_id))
        await interaction.channel.send(f"Game {game_id}: press Join", view=view)

    @app_commands.command(name="counter", description="A counter")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=CounterView())

    @app_commands.command(name="poke", description="DM someone")
    async def poke(interaction: discord.Interaction, user: discord.Member) -> None:
        try:
            await user.send(f"poked by {interaction.user.name}", file=discord.File(io.BytesIO(tiny_png()), "p.png"))
        except discord.Forbidden as e:
            bot.dm_results.append(e.code)
            await interaction.response.send_message(f"cannot DM (code {e.code})", ephemeral=True)
        else:
            bot.dm_results.append("ok")
            await interaction.response.send_message("poked", ephemeral=True)

    @app_commands.command(name="emojis", description="Uses a route the fake does not know")
    async def emojis(interaction: discord.Interaction) -> None:
        await interaction.guild.fetch_emojis()
        await interaction.response.send_message("never")

    @app_commands.command(name="purge", description="Moderators only")
    @app_commands.default_permissions(manage_messages=True)
    async def purge(interaction: discord.Interaction) -> None:
        ok = interaction.permissions.manage_messages
        await interaction.response.send_message("purged" if ok else "no permission", ephemeral=True)

    for cmd in (game, board, lobby, counter, poke, emojis, purge, name):
        bot.tree.add_command(cmd, guild=guild)

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook
    return bot


class World:
    pass


@pytest.fixture
async def world():
    fake = FakeDiscord()
    await fake.start()
    w = World()
    w.fake = fake
    w.guild = fake.add_guild("Game Night Club")
    w.chan = fake.add_channel(w.guild, "games")
    w.alice = fake.add_user("alice")
    w.bob = fake.add_user("bob", dms_open=False)
    w.mod = fake.add_user("mod")
    fake.add_member(w.guild, w.alice)
    fake.add_member(w.guild, w.bob, nick="Bobby")
    fake.add_member(w.guild, w.mod, permissions=Perm.MANAGE_MESSAGES)
    try:
        yield w
    finally:
        await fake.stop()


async def test_connects_and_syncs_commands(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake) as bot:
        assert bot.user.id == fake.bot_user.id
        assert bot.get_guild(world.guild.id).get_channel(world.chan.id).name == "games"
        assert bot.shard_count == 1
    app = fake.application_id
    assert ("PUT", f"/applications/{app}/guilds/{world.guild.id}/commands") in fake.requests
    assert ("GET", "/gateway/bot") in fake.requests
    cmds = {c["name"]: c for c in fake.commands(world.guild)}
    assert set(cmds) == {"game", "board", "lobby", "counter", "poke", "emojis", "purge", "name"}
    group = cmds["game"]["options"][0]
    assert (group["name"], group["type"]) == ("reversi", 2)
    move = group["options"][0]
    assert (move["name"], move["type"]) == ("move", 1)
    opts = {o["name"]: o for o in move["options"]}
    assert opts["square"]["type"] == 3 and opts["square"]["autocomplete"] and opts["square"]["required"]
    assert opts["opponent"]["type"] == 6 and not opts["opponent"].get("required")
    assert fake.unknown_routes == []
    assert fake.search(fake.token) == []


async def test_json_content_type_has_no_charset(world):
    fake = world.fake
    async with aiohttp.ClientSession() as s:
        async with s.get(f"{fake.api_base}/users/@me", headers={"Authorization": f"Bot {fake.token}"}) as r:
            assert r.status == 200
            assert r.headers["Content-Type"] == "application/json"
        async with s.get(f"{fake.api_base}/users/@me") as r:
            assert r.status == 401
        async with s.get(f"{fake.api_base}/no/such/route", headers={"Authorization": f"Bot {fake.token}"}) as r:
            assert r.status == 404 and (await r.json())["code"] == 0
    assert fake.unknown_routes == [("GET", "/no/such/route")]


async def test_ephemeral_reply_with_user_option_and_autocomplete(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        res = await fake.slash(world.alice, world.chan, "game reversi move", square="d3", opponent=world.bob)
        assert res.response_type == 4
        assert res.ephemeral
        assert res.content == "played d3 vs Bobby (Member)"
        assert fake.messages(world.chan) == []  # ephemeral: not visible in the channel
        assert fake.visible_messages(world.chan, world.alice) == [res.message]

        res = await fake.slash(world.alice, world.chan, "game reversi move", square="c4")
        assert res.content == "played c4 vs nobody (nobody)"

        choices = await fake.autocomplete(world.alice, world.chan, "game reversi move", "square", square="")
        assert [c["value"] for c in choices] == ["d3", "c4", "f5", "e6"]
        choices = await fake.autocomplete(world.alice, world.chan, "game reversi move", "square", square="f")
        assert choices == [{"name": "F5", "value": "f5"}]

        with pytest.raises(TypeError):
            await fake.slash(world.alice, world.chan, "game reversi move")  # required option missing
        with pytest.raises(LookupError):
            await fake.slash(world.alice, world.chan, "game chess move", square="e4")


async def test_defer_then_followup_with_png(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        res = await fake.slash(world.alice, world.chan, "board")
    assert res.response_type == 5
    assert not res.ephemeral
    assert not res.message.loading
    assert res.content == "the board"
    (name, data), = res.files
    assert name == "board.png" and data.startswith(b"\x89PNG\r\n\x1a\n")
    assert res.attachments[0].image_size == (2, 2)
    assert res.followups == [res.message]
    assert fake.messages(world.chan) == [res.message]
    # the attachment is downloadable from its URL
    async with aiohttp.ClientSession() as s:
        async with s.get(res.attachments[0].url) as r:
            assert await r.read() == data


async def test_persistent_button_survives_restart(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake) as bot:
        res = await fake.slash(world.alice, world.chan, "lobby", game_id=42)
        assert res.ephemeral and res.content == "opening"
        (msg,) = res.channel_messages
        assert msg.content == "Game 42: press Join"
        assert [b["custom_id"] for b in msg.buttons] == ["tiny:join:42"]
        click = await fake.click(world.alice, msg, "tiny:join:42")
        assert click.content == "alice joined game 42" and click.ephemeral
        assert bot.clicks == [(42, world.alice.id)]

    # a brand-new bot instance on the same fake: same world, same message, same commands
    async with run_bot(make_bot(world.guild.id), fake) as bot2:
        click = await fake.click(world.bob, msg, label="Join")
        assert click.content == "bob joined game 42"
        assert bot2.clicks == [(42, world.bob.id)]
    assert fake.messages(world.chan) == [msg]


async def test_component_edit_and_select(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        res = await fake.slash(world.alice, world.chan, "counter")
        msg = res.message
        assert msg.content == "count 0" and not msg.ephemeral
        for i in range(1, 4):
            r = await fake.click(world.alice, msg, label="+1")
            assert r.response_type == 7 and r.message is msg
        assert msg.content == "count 3"
        r = await fake.select(world.alice, msg, "tiny:pick", ["a", "c"])
        assert r.content == "picked a,c"
        with pytest.raises(ValueError):
            await fake.select(world.alice, msg, "tiny:pick", ["zzz"])


async def test_dms_open_and_closed(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake) as bot:
        res = await fake.slash(world.mod, world.chan, "poke", user=world.alice)
        assert res.content == "poked"
        (dm,) = fake.dm_messages(world.alice)
        assert dm.content == "poked by mod" and dm.files[0][1].startswith(b"\x89PNG")
        assert res.dms == [dm]

        res = await fake.slash(world.mod, world.chan, "poke", user=world.bob)
        assert res.content == "cannot DM (code 50007)"
        assert fake.dm_messages(world.bob) == []
        assert bot.dm_results == ["ok", 50007]


async def test_permissions_and_errors_are_loud(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        assert (await fake.slash(world.mod, world.chan, "purge")).content == "purged"
        assert (await fake.slash(world.alice, world.chan, "purge")).content == "no permission"
        with pytest.raises(BotError, match="UNKNOWN ROUTE GET /guilds/"):
            await fake.slash(world.alice, world.chan, "emojis")
        with fake.expect_errors():
            res = await fake.slash(world.alice, world.chan, "emojis")
        assert res.response_type is None and res.errors


async def test_modal_round_trip(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        res = await fake.slash(world.alice, world.chan, "name")
        assert res.response_type == 9 and res.modal["title"] == "Name your game"
        sub = await fake.submit_modal(world.alice, res, {"tiny:modal:name": "Friday Reversi"})
        assert sub.content == "game named Friday Reversi"


async def test_user_messages_resume_and_unattached_bot(world):
    fake = world.fake
    intents = discord.Intents.default()
    intents.members = True  # makes discord.py chunk the guild (gateway op 8)
    intents.message_content = True
    async with run_bot(make_bot(world.guild.id, intents), fake) as bot:
        assert {m.name for m in bot.get_guild(world.guild.id).members} >= {"alice", "bob", "mod"}
        await fake.send(world.alice, world.chan, "ping")
        assert bot.seen == ["ping"]
        assert [m.content for m in fake.messages(world.chan)] == ["ping", "pong"]

        await fake.disconnect_bot()  # discord.py RESUMEs; events are replayed, not lost
        res = await fake.slash(world.alice, world.chan, "game reversi move", square="e6")
        assert res.content.startswith("played e6")
        assert sum(1 for r in fake.requests if r == ("WS", "/gateway")) == 2

        fake.detach(bot)  # fall back to the heartbeat barrier (no access to the bot's ws)
        res = await fake.slash(world.alice, world.chan, "game reversi move", square="f5")
        assert res.content.startswith("played f5")


async def test_concurrent_interactions(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        a, b = await asyncio.gather(
            fake.slash(world.alice, world.chan, "board"),
            fake.slash(world.mod, world.chan, "game reversi move", square="d3"),
        )
        assert a.files[0][1].startswith(b"\x89PNG") and b.content.startswith("played d3")


async def test_edit_original_with_embed_image_and_message_edit(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        res = await fake.slash(world.alice, world.chan, "board", embed=True)
    assert res.response_type == 5 and res.ephemeral and not res.message.loading
    (e,) = res.embeds
    att = res.message.attachment("board.png")
    assert e["title"] == "Board" and e["image"]["url"] == att.url and att.image_size == (3, 4)
    (public,) = fake.messages(world.chan)
    assert public.content == "public board v2" and [a.filename for a in public.attachments] == ["b.png"]
    assert public.attachments[0].image_size == (5, 5)
    assert res.edited[-1] is public and res.channel_messages == [public]


async def test_the_bot_overwrite_governs_channel_posts_not_interaction_answers(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake) as bot:
        seen: list[discord.Permissions] = []

        async def keep(interaction: discord.Interaction) -> None:
            seen.append(interaction.app_permissions)

        bot.add_listener(keep, "on_interaction")
        fake.set_bot_overwrite(world.chan, deny=Perm.SEND_MESSAGES)
        await fake.wait_idle()
        cached = bot.get_channel(world.chan.id)
        assert not cached.permissions_for(cached.guild.me).send_messages  # CHANNEL_UPDATE
        answer = await fake.slash(world.alice, world.chan, "counter")
        assert answer.content == "count 0" and not answer.ephemeral
        assert not seen[-1].send_messages and seen[-1].attach_files
        with fake.expect_errors():
            lobby = await fake.slash(world.alice, world.chan, "lobby")
        assert lobby.channel_messages == [] and "50013" in "\n".join(lobby.errors)
        assert [r.status for r in fake.request_log if r.path.endswith("/messages")][-1] == 403
        other = fake.add_channel(world.guild, "other")
        await fake.slash(world.alice, other, "lobby")  # other channels keep the bot's role
        assert "press Join" in fake.messages(other)[-1].content


async def test_slash_nowait_returns_before_the_answer_and_notes_it(world):
    fake = world.fake
    async with run_bot(make_bot(world.guild.id), fake):
        it = await fake.slash_nowait(world.alice, world.chan, "board")
        assert it.answered_at is None or it.response_type is not None
        await asyncio.wait_for(it.answered.wait(), 10)
        await fake.wait_idle()
    assert it.response_type == 5 and it.answered_at is not None
    assert it.original.content == "the board"
