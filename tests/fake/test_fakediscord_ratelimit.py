"""The fake Discord's rate limits: per-route buckets and 429s for a client that ignores them,
and busy 4-player tables whose bot waits out every bucket (no 429, nothing lost, in order)."""

from __future__ import annotations

import re
from contextlib import asynccontextmanager

import aiohttp

import games.doudizhu as ddz
import games.scrabble as scrabble
from tests.e2e.test_e2e_doudizhu import bid_round, open_table, play_greedy
from tests.e2e.test_e2e_scrabble import live_dm, shown_rack
from tests.e2e_helpers import fix_match_seeds, running_bot
from tests.fakediscord import FakeDiscord, RateLimits


async def post(session, fake, channel_id: int, content: str):
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with session.post(url, json={"content": content}, headers=headers) as response:
        return response.status, dict(response.headers), await response.json()


async def test_a_client_that_ignores_the_headers_gets_429_per_bucket():
    # A window of a minute: the test sends far faster, so nothing here depends on timing.
    async with FakeDiscord(rate_limits=RateLimits(limit=3, per=60.0)) as fake:
        guild = fake.add_guild("Game Night Club")
        games, other = fake.add_channel(guild, "games"), fake.add_channel(guild, "other")
        async with aiohttp.ClientSession() as session:
            answers = [await post(session, fake, games.id, f"post {n}") for n in range(4)]
            elsewhere = await post(session, fake, other.id, "another channel")

        assert [status for status, _, _ in answers] == [200, 200, 200, 429]
        assert [h["X-RateLimit-Remaining"] for _, h, _ in answers] == ["2", "1", "0", "0"]
        first = answers[0][1]
        assert first["X-RateLimit-Limit"] == "3"
        assert 0 < float(first["X-RateLimit-Reset-After"]) <= 60
        assert float(first["X-RateLimit-Reset"]) > 1.7e9  # epoch seconds
        status, headers, body = answers[3]
        assert body["global"] is False and 0 < body["retry_after"] <= 60
        assert int(headers["Retry-After"]) >= body["retry_after"]
        assert headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
        assert [m.content for m in fake.messages(games)] == ["post 0", "post 1", "post 2"]
        # the channel id is a major parameter: another channel has its own bucket
        assert elsewhere[0] == 200 and elsewhere[1]["X-RateLimit-Remaining"] == "2"
        assert elsewhere[1]["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
        assert fake.rate_limiter.refused == [("POST", f"/channels/{games.id}/messages")]


async def test_without_rate_limits_the_fake_sends_no_headers():
    async with FakeDiscord() as fake:
        channel = fake.add_channel(fake.add_guild("Game Night Club"), "games")
        async with aiohttp.ClientSession() as session:
            answers = [await post(session, fake, channel.id, f"post {n}") for n in range(8)]
        assert {status for status, _, _ in answers} == {200}
        assert not any("X-RateLimit-Limit" in headers for _, headers, _ in answers)
        assert fake.rate_limiter is None


def trick_lines(fake, channel) -> list[str]:
    """Each public table post's "This trick" line, in the order the posts were made."""
    lines = []
    for message in fake.messages(channel):
        text = message.text().splitlines()
        if "This trick" in text:
            lines.append(text[text.index("This trick") + 1])
    return lines


@asynccontextmanager
async def limited_world(channel_name: str):
    """A fake Discord allowing one request per bucket per 20 ms, with four players.

    Every answer says Remaining 0, so discord.py waits out Reset-After before each next request
    of that bucket (real sleeps of 20 ms on its loop clock, a few seconds in all). With a limit
    of 1, discord.py never has two requests of one bucket in flight, so "no 429" does not
    depend on timing.
    """
    async with FakeDiscord(rate_limits=RateLimits(limit=1, per=0.02)) as fake:
        guild = fake.add_guild("Game Night Club")
        channel = fake.add_channel(guild, channel_name)
        players = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave")]
        for user in players:
            fake.add_member(guild, user)
        yield fake, guild, channel, players


async def test_a_busy_four_player_table_waits_out_every_bucket_and_loses_nothing(
        tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 7)
    async with limited_world("doudizhu") as (fake, guild, channel, players):
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, started = await open_table(fake, channel, bot, players, players=4)
            assert len(started.dms) == 4
            await bid_round(table, fake, channel, ["3"])
            await play_greedy(table, via="dm")
            state = await table.state()
            moves = await bot.service.store.moves(table.match_id)

        assert fake.rate_limiter.refused == []
        assert fake.rate_limiter.exhausted > 100  # the waiting was exercised, not skipped
        assert state.phase == ddz.ROUND_OVER and not any(fake.errors)
        # every action was applied: the log holds the bid and every card played
        assert moves[0].action == "bid 3"
        played = "".join(ddz.Play.parse(m.action).ranks for m in moves[1:] if m.action != "pass")
        assert sorted(played) == sorted(card[0] for card in state.played)
        # and announced in order: the table posts, read top to bottom, tell the move log
        names = [user.name for user in players]
        told = [entry for line in trick_lines(fake, channel) for entry in line.split(" · ")]
        log = [f"{names[m.seat]} {m.action}" for m in moves[1:]]
        assert told == log[:-1]
        # the play that ended the round is told in the round's last post
        last = fake.messages(channel)[-1].text()
        ender = moves[-1]
        assert "Round 1 is over" in last and f"**{names[ender.seat]}** plays {ender.action} (" in last


async def test_a_four_player_scrabble_game_under_rate_limits_tells_every_play_in_order(
        tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 14)
    async with limited_world("word-games") as (fake, guild, channel, players):
        by_id = {user.id: user for user in players}
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            lobby = await fake.slash(players[0], channel, "scrabble new", players=4)
            for user in players[1:]:
                await fake.click(user, lobby.message, label="Join")
            match_id = (await bot.service.store.latest_match_in(channel.id)).id
            for _ in range(8):  # two rounds of the best play
                match = await bot.service.get(match_id)
                (_, play), *_ = scrabble.scored_plays(match.state, match.state.turn)
                user = by_id[match.player(match.state.turn).user_id]
                result = await fake.slash(user, channel, "scrabble play", word=play.word,
                                          square=play.square, direction=play.direction)
                assert not result.ephemeral, result.content
            match = await bot.service.get(match_id)
            moves = await bot.service.store.moves(match_id)

        assert fake.rate_limiter.refused == []
        assert fake.rate_limiter.exhausted > 20  # the waiting was exercised, not skipped
        assert not any(fake.errors) and len(moves) == 8
        # every play applied and told on the board posts, in the order of the move log
        names = [by_id[match.player(seat).user_id].name for seat in range(4)]
        played = re.compile(r"\*\*(\w+)\*\* played (.+?) for \d+")
        told = [played.search(message.text()) for message in fake.messages(channel)]
        assert [t.groups() for t in told if t] == [(names[m.seat], m.action) for m in moves]
        # and every rack DM shows the rack its reader holds now
        for seat, name in enumerate(names):
            user = next(u for u in players if u.name == name)
            assert shown_rack(live_dm(fake, user)) == match.state.racks[seat]
