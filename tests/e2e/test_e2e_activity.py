"""The Discord Activity served by the real bot against the fake Discord: the board's Open board
button answers with LAUNCH_ACTIVITY; the SDK's code is exchanged for a token at the fake's
/oauth2/token and the user learnt from /users/@me and the activity instance; moves from the
Activity go through the slash commands' path, refused in words where the command refuses."""

from __future__ import annotations

import aiohttp

import games.reversi as reversi
from tests.e2e_helpers import (InlineExecutor, board_message, fake_world, mentioned_ids,
                                running_bot)


class Activity:
    """The Activity's calls, as its page makes them, for one user."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base + "/activity/"
        self.session: str | None = None

    async def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Authorization": f"Bearer {self.session}"} if self.session else {}
        method = "GET" if body is None else "POST"
        async with self.http.request(method, self.base + path, json=body,
                                     headers=headers) as answer:
            return answer.status, await answer.json()

    async def sign_in(self, fake, user, instance: str) -> dict:
        status, token = await self.call("token", {"code": fake.oauth_code(user)})
        assert status == 200, token
        status, signed = await self.call("session", {"access_token": token["access_token"],
                                                     "instance_id": instance})
        assert status == 200, signed
        self.session = signed["session"]
        return signed


async def test_no_activity_without_the_secret(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            lobby = await fake.slash(users["alice"], channel, "reversi new")
            board = board_message(await fake.click(users["bob"], lobby.message, label="Join"))
            assert board.find_component(label="Watch live") is not None
            assert board.find_component(label="Open board") is None
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{bot.web.port}/activity/") as page:
                    assert page.status == 404


async def test_open_board_launches_and_moves_from_the_activity_are_the_commands(tmp_path):
    async with fake_world("reversi", ("alice", "bob", "cleo")) as (fake, guild, channel, users):
        alice, bob, cleo = users["alice"], users["bob"], users["cleo"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            launched = await fake.click(alice, board, label="Open board")
            assert launched.response_type == 12  # LAUNCH_ACTIVITY
            assert not fake.schema_violations

            black = alice if mentioned_ids(board.content)[0] == alice.id else bob
            white = bob if black is alice else alice
            instance = fake.launch_activity(channel, [alice, bob, cleo])
            base = f"http://127.0.0.1:{bot.web.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/activity/") as page:
                    assert page.status == 200
                    csp = page.headers["Content-Security-Policy"]
                    assert "frame-ancestors 'self' https://discord.com" in csp
                    assert "*.discordsays.com" in csp and "X-Frame-Options" not in page.headers
                    html = await page.text()
                    assert f'data-client-id="{fake.application_id}"' in html
                    assert fake.client_secret not in html
                async with http.get(base + "/m/no-such-token-here") as other:
                    assert other.headers["X-Frame-Options"] == "DENY"

                player, spectator = Activity(http, base), Activity(http, base)
                await player.sign_in(fake, black, instance)
                await spectator.sign_in(fake, cleo, instance)
                status, shown = await player.call("match")
                match = await bot.service.current(channel.id)
                assert status == 200 and shown["token"] == await bot.store.match_token(match.id)
                assert shown["seat"]["to_act"] and "d3" in shown["seat"]["squares"]
                status, watched = await spectator.call("match")
                assert status == 200 and watched["seat"] is None

                # refused in words, nothing changed
                version = match.row.version
                status, said = await spectator.call("act", {"move": "d3"})
                assert status == 409 and said["error"] == "You are not playing in this match."
                white_player = Activity(http, base)
                await white_player.sign_in(fake, white, instance)
                status, said = await white_player.call("act", {"move": "d3"})
                assert status == 409 and "turn" in said["error"]
                status, said = await player.call("act", {"move": "a1"})
                assert status == 409 and said["error"]
                status, said = await player.call("act", {"move": "zz"})
                assert status == 409 and said["error"]
                assert (await bot.service.current(channel.id)).row.version == version

                # a legal move: committed, and the board posted in the channel
                before = len(fake.messages(channel))
                status, said = await player.call("act", {"move": "d3"})
                assert status == 200, said
                moved = await bot.service.current(channel.id)
                assert moved.row.version > version and moved.current_seat() != black
                await fake.wait_idle()
                posted = fake.messages(channel)[before:]
                assert any("d3" in m.text() and m.attachments for m in posted), \
                    [m.text() for m in posted]  # the board, as after /reversi move
                status, shown = await player.call("match")
                assert not shown["seat"]["to_act"]

                # a session that is not signed by this server is refused
                player.session = player.session[:-4] + "AAAA"
                status, said = await player.call("match")
                assert status == 401 and "sign" in said["error"]


async def test_the_token_exchange_refuses_a_bad_code_and_a_stranger(tmp_path):
    async with fake_world("reversi", ("alice", "bob", "dan")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            base = f"http://127.0.0.1:{bot.web.port}"
            instance = fake.launch_activity(channel, [users["alice"]])
            async with aiohttp.ClientSession() as http:
                activity = Activity(http, base)
                status, said = await activity.call("token", {"code": "not-a-code"})
                assert status == 403 and fake.client_secret not in str(said)
                code = fake.oauth_code(users["dan"])
                status, token = await activity.call("token", {"code": code})
                assert status == 200
                status, again = await activity.call("token", {"code": code})
                assert status == 403  # a code works once
                status, said = await activity.call("session", {
                    "access_token": token["access_token"], "instance_id": instance})
                assert status == 403 and "activity" in said["error"]  # dan is not in it
                status, said = await activity.call("token", {})
                assert status == 400


async def test_a_move_from_the_activity_brings_an_away_player_back(tmp_path):
    """As any slash command does (TurnClocks.back_by_command), even a move refused as out of
    turn: the seat is the person's again, so no computer takes their next turn."""
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True, computer_executor=InlineExecutor()) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            await fake.click(bob, lobby.message, label="Join")
            match = await bot.service.current(channel.id)
            black_seat = match.current_seat()
            black, white = (alice, bob) if match.player(black_seat).user_id == alice.id \
                else (bob, alice)
            white_seat = match.seat_of(white.id)
            await bot.store.set_away(match.id, match.row.version, white_seat, "away")
            assert await bot.store.away_in(channel.id, white.id) == match.id

            instance = fake.launch_activity(channel, [alice, bob])
            async with aiohttp.ClientSession() as http:
                player = Activity(http, f"http://127.0.0.1:{bot.web.port}")
                await player.sign_in(fake, white, instance)
                status, said = await player.call("act", {"move": "c3"})
                assert status == 409 and "turn" in said["error"]  # refused, but back
                assert await bot.store.away_in(channel.id, white.id) is None
                assert (await bot.service.current(channel.id)).player(white_seat).away is None

                await fake.slash(black, channel, "reversi move", square="d3")
                await fake.wait_idle()
                match = await bot.service.current(channel.id)
                assert match.current_seat() == white_seat  # no computer took white's turn
                square = str(reversi.legal_moves(match.state, white_seat)[0])
                status, said = await player.call("act", {"move": square})
                assert status == 200, said
            moves = await bot.store.moves(match.id)
            assert [(m.seat, m.actor) for m in moves] == [(black_seat, "person"),
                                                          (white_seat, "person")]


async def test_the_activity_names_the_channels_next_match_once_one_is_over(tmp_path):
    """The page asks again while its match is over: the answer then names the new match."""
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            instance = fake.launch_activity(channel, [alice, bob])
            async with aiohttp.ClientSession() as http:
                player = Activity(http, f"http://127.0.0.1:{bot.web.port}")
                await player.sign_in(fake, bob, instance)
                status, said = await player.call("match")
                assert status == 404 and "no game" in said["error"]

                lobby = await fake.slash(alice, channel, "reversi new")
                await fake.click(bob, lobby.message, label="Join")
                first = await bot.service.current(channel.id)
                status, shown = await player.call("match")
                assert status == 200 and shown["open"]
                assert shown["token"] == await bot.store.match_token(first.id)

                await fake.slash(alice, channel, "match cancel")
                status, over = await player.call("match")
                assert status == 200 and not over["open"] and over["token"] == shown["token"]
                assert over["seat"] is not None and not over["seat"]["to_act"]

                await fake.slash(bob, channel, "reversi new")
                second = await bot.service.current(channel.id)
                status, new = await player.call("match")
                assert status == 200 and new["open"] and new["token"] != shown["token"]
                assert new["token"] == await bot.store.match_token(second.id)
                assert new["version"] == second.row.version


async def test_a_seated_player_sees_their_own_rack_as_a_picture(tmp_path):
    from i18n import voice
    from render.scrabble import render_rack

    async with fake_world("scrabble", ("alice", "bob", "cleo")) as (fake, guild, channel, users):
        alice, bob, cleo = users["alice"], users["bob"], users["cleo"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            lobby = await fake.slash(alice, channel, "scrabble new")
            await fake.click(bob, lobby.message, label="Join")
            await fake.click(alice, lobby.message, label="Start")
            match = await bot.service.current(channel.id)
            instance = fake.launch_activity(channel, [alice, bob, cleo])
            root = f"http://127.0.0.1:{bot.web.port}"
            base = root + "/activity/"  # the page's picture addresses are relative to it
            async with aiohttp.ClientSession() as http:
                player, spectator = Activity(http, root), Activity(http, root)
                await player.sign_in(fake, bob, instance)
                await spectator.sign_in(fake, cleo, instance)
                _status, shown = await player.call("match")
                rack = match.engine.view(match.state, match.seat_of(bob.id)).rack
                seat = shown["seat"]
                assert seat["hand"] == f"Your rack: {' '.join(rack)}"
                assert seat["alt"] and seat["picture"].startswith(f"m/{shown['token']}/s/")
                async with http.get(base + seat["picture"]) as picture:
                    assert picture.status == 200
                    assert picture.headers["Content-Type"] == "image/png"
                    assert "frame-ancestors 'self' https://discord.com" in \
                        picture.headers["Content-Security-Policy"]
                    assert await picture.read() == render_rack(rack, voice("en"))
                _status, watched = await spectator.call("match")
                assert watched["seat"] is None  # no picture of anyone's rack

                forged = seat["picture"].replace("/s/", "/s/x", 1)
                async with http.get(base + forged) as refused:
                    assert refused.status == 404
