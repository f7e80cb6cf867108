"""A server's page (bot/web/server_pages.py): off by default, at an unguessable token once the
server turns its pages on; its open matches, a game night's round and standings, leaderboards
and recent results with links to their pages; its event stream woken by the server's commits;
turning the pages off takes the server page and its matches' pages away at once."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from html import unescape

import pytest
import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from bot.matches.service import MatchService
from bot.nights.model import Night
from bot.storage.rows import GuildSettings, NightTable
from bot.storage.store import Store
from bot.web.server import WebPages
from tests.bot.matches.test_records import play
from tests.bot.web.test_pages import PEOPLE, started

GUILD = 7  # the server `started` and `play` open their matches in


@pytest.fixture
async def pages(store):
    return WebPages(store, public_url="https://games.example")


@pytest.fixture
async def client(pages):
    async with TestClient(TestServer(pages.app())) as client:
        yield client


async def turn_on(store, guild: int = GUILD) -> None:
    settings = await store.guild_settings(guild)
    await store.set_guild_settings(guild, replace(settings, web_pages=True))


async def server_path(pages) -> str:
    link = await pages.servers.link(GUILD)
    assert link is not None and link.startswith("https://games.example/s/")
    return link.removeprefix("https://games.example")


def links(html: str) -> list[str]:
    return [unescape(href) for href in re.findall(r'href="([^"]*)"', html)]


def no_user_id(html: str, people=PEOPLE) -> None:
    for person in people:
        assert str(person.user_id) not in html


async def test_off_by_default_no_server_page(store, pages, client):
    assert (await store.guild_settings(GUILD)).web_pages is None
    assert await pages.servers.link(GUILD) is None
    for path in ("/s/" + "A" * 24, "/s/" + "A" * 24 + "/part", "/s/short"):
        answer = await client.get(path)
        assert answer.status == 404
    assert "This link opens no page" in await (await client.get("/s/" + "A" * 24)).text()


async def test_the_page_lists_the_open_matches_with_links_to_them(service, store, pages,
                                                                 client):
    reversi = await started(service, "reversi", channel=30)
    scrabble = await started(service, "scrabble", channel=31)
    await turn_on(store)
    path = await server_path(pages)
    assert len(path.removeprefix("/s/")) >= 22  # >= 128 bits
    answer = await client.get(path + "?lang=en")
    assert answer.status == 200
    html = await answer.text()
    assert "Open matches" in html and "Reversi" in html and "Scrabble" in html
    for match in (reversi, scrabble):
        token = await store.match_token(match.id)
        assert f"../m/{token}?lang=en" in links(html)
        to_act = match.player(match.current_seat()).name
        assert f"{to_act} to act." in unescape(html)
        assert all(seat.name in html for seat in match.seats)
    no_user_id(html)
    watched = await client.get(f"/m/{await store.match_token(reversi.id)}")
    assert watched.status == 200


async def running_night(store, service) -> tuple[int, object]:
    """A game night in its second round: round 1 played, round 2's table 1 a live match."""
    match = await started(service, "reversi", channel=40)
    ana, ben, cho = PEOPLE
    night = await store.create_night(guild_id=GUILD, channel_id=60, host_id=ana.user_id,
                                     game="reversi", format="swiss", options={"rounds": 3},
                                     start_at=1.8e9, seed=11)
    for person in PEOPLE:
        await store.put_player(night, person.user_id, person.name, checked_in=True,
                               state="playing", joined_round=1)
    row = await store.get_night(night)
    await store.start_round(night, row.version, [
        NightTable(1, 1, (ana.user_id, ben.user_id), "done",
                   result={"places": [1, 2], "scores": [1.0, 0.0], "margins": [10, -10]}),
        NightTable(1, 2, (cho.user_id,), "bye")], round=1, status="running")
    row = await store.get_night(night)
    await store.start_round(night, row.version, [
        NightTable(2, 1, (cho.user_id, ana.user_id), "playing", match_id=match.id),
        NightTable(2, 2, (ben.user_id,), "bye")], round=2)
    return night, match


async def test_a_nights_round_and_standings_appear(service, store, pages, client):
    night_id, match = await running_night(store, service)
    await turn_on(store)
    html = unescape(await (await client.get(await server_path(pages) + "?lang=en")).text())
    assert f"Game night #{night_id}: Reversi" in html
    assert "Round 2 of 3 is being played." in html
    assert "Table 1" in html and "cho and ana" in html and "ben has a bye." in html
    assert f"../m/{await store.match_token(match.id)}?lang=en" in links(html)
    night = Night(await store.get_night(night_id), tuple(await store.night_players(night_id)),
                  tuple(await store.night_tables(night_id)))
    standings = night.standings()  # the night's own computation, as the page shows it
    ranks = re.search(r"<h3>Standings</h3>.*?<tbody>(.*?)</tbody>", html, re.S)[1]
    rows = re.findall(r"<tr><td>(\d+)</td><th scope=\"row\">([^<]+)</th><td>([^<]+)</td></tr>",
                      ranks)
    assert rows == [(str(s.rank), night.name(s.player), f"{s.points:g}") for s in standings]
    assert rows[0][1] == "ana"  # won round 1
    no_user_id(html)


async def test_leaderboards_and_recent_results_appear(service, store, pages, client):
    finished = [await play(service, "reversi", PEOPLE[:2], channel=50 + i, seed=5 + i)
                for i in range(2)]
    await turn_on(store)
    html = unescape(await (await client.get(await server_path(pages) + "?lang=en")).text())
    assert "Leaderboards" in html and re.search(r"<caption>Reversi, this season \(\d{4}-Q\d\)",
                                                html)
    board = re.search(r"<caption>Reversi.*?<tbody>(.*?)</tbody>", html, re.S)[1]
    from bot.matches.ratings import season_of
    from datetime import UTC, datetime
    rows, total = await store.leaderboard(GUILD, "reversi", season_of(datetime.now(UTC)))
    assert total == 2
    shown = re.findall(r"<th scope=\"row\">([^<]+)</th><td>([^<]+)</td>", board)
    assert shown == [(row.name, f"{row.display:,}") for row in rows]
    assert "Recent results" in html
    for match in finished:
        replay = f"../r/{await store.match_token(match.id)}?lang=en"
        assert replay in links(html)
        assert (await client.get(replay.removeprefix(".."))).status == 200
    assert "won by" in html or "draw" in html
    no_user_id(html)


async def next_event(stream) -> str:
    while True:
        line = (await stream.content.readline()).decode().strip()
        if line.startswith("data: "):
            return line.removeprefix("data: ")


async def test_a_commit_in_the_server_wakes_its_event_stream(service, store, pages, client):
    service.on_commit = pages.committed
    match = await started(service, "reversi", channel=32)
    await turn_on(store)
    path = await server_path(pages)
    stream = await client.get(path + "/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    first = await asyncio.wait_for(next_event(stream), 10)
    part = await (await client.get(path + "/part")).text()
    assert f'data-stamp="{first}"' in part
    from games.reversi import ai
    seat = match.current_seat()
    move = str(ai.choose_move(match.state, seat, "easy", seed=9))
    await service.act(32, match.player(seat).user_id, move)
    woke = await asyncio.wait_for(next_event(stream), 10)
    assert woke != first
    part = await (await client.get(path + "/part")).text()
    assert f'data-stamp="{woke}"' in part and "<html" not in part
    stream.close()


async def test_another_servers_commit_does_not_wake_the_stream(service, store, pages, client):
    await turn_on(store)
    path = await server_path(pages)
    stream = await client.get(path + "/events")
    await asyncio.wait_for(next_event(stream), 10)
    lobby = await service.open_lobby("reversi", guild_id=GUILD + 1, channel_id=90,
                                     creator=PEOPLE[0], seed=1)
    pages.committed(lobby)
    await asyncio.sleep(0)  # the hub reads stamps only of watched servers: none here
    assert not pages.servers.hub._tasks
    stream.close()


async def test_turning_the_pages_off_takes_every_page_away_at_once(service, store, pages,
                                                                  client):
    running = await started(service, "reversi", channel=33)
    done = await play(service, "reversi", PEOPLE[:2], channel=34, seed=3)
    await turn_on(store)
    path = await server_path(pages)
    live = f"/m/{await store.match_token(running.id)}"
    replay = f"/r/{await store.match_token(done.id)}"
    paths = (path, path + "/part", live, live + "/live", live + "/board.png", live + "/events",
             replay, replay + "/part")
    for each in paths[:-4] + (replay,):
        assert (await client.get(each)).status == 200, each
    stream = await client.get(path + "/events")
    await asyncio.wait_for(next_event(stream), 10)
    match_stream = await client.get(live + "/events")
    await asyncio.wait_for(next_event(match_stream), 10)
    elsewhere = await started(service, "reversi", channel=37, guild=GUILD + 1)
    other_stream = await client.get(f"/m/{await store.match_token(elsewhere.id)}/events")
    await asyncio.wait_for(next_event(other_stream), 10)

    settings = await store.guild_settings(GUILD)
    await store.set_guild_settings(GUILD, replace(settings, web_pages=False))
    pages.pages_off(GUILD)
    for each in (stream, match_stream):  # read to their end: both streams ended
        rest = await asyncio.wait_for(each.content.read(), 10)
        assert rest.strip() == b""
    assert not other_stream.content.at_eof()  # another server's match page stays
    assert pages.hub.watching(elsewhere.id) == 1
    other_stream.close()
    for each in paths:
        answer = await client.get(each)
        assert answer.status == 404, each
    assert await pages.servers.link(GUILD) is None

    await store.set_guild_settings(GUILD, replace(settings, web_pages=True))
    again = await server_path(pages)
    assert again != path  # a new token: the old link stays dead
    assert (await client.get(path)).status == 404
    assert (await client.get(again)).status == 200 and (await client.get(live)).status == 200


async def test_the_page_is_in_the_viewers_language(service, store, pages, client):
    await started(service, "reversi", channel=35)
    await turn_on(store)
    path = await server_path(pages)
    english = await (await client.get(path, headers={"Accept-Language": "en"})).text()
    for lang in ("gu", "zh-CN", "zh-TW"):
        html = await (await client.get(path, headers={"Accept-Language": lang})).text()
        assert f'<html lang="{lang}">' in html
        assert "Open matches" in english and "Open matches" not in html
        assert "Leaderboards" not in html and "Recent results" not in html


async def test_a_server_that_chose_nothing_keeps_its_match_pages(service, store, client):
    match = await started(service, "reversi", channel=36)
    await store.set_guild_settings(GUILD, GuildSettings(language="gu"))  # web_pages unset
    assert (await client.get(f"/m/{await store.match_token(match.id)}")).status == 200


async def test_a_forgotten_name_leaves_the_page(service, store):
    now = [1_000.0]
    pages = WebPages(store, clock=lambda: now[0])
    await play(service, "reversi", PEOPLE[:2], channel=37, seed=4)
    await turn_on(store)
    async with TestClient(TestServer(pages.app())) as client:
        path = await server_path_of(pages)
        html = unescape(await (await client.get(path + "?lang=en")).text())
        assert '<th scope="row">ana</th>' in html and "ana: " in html
        await store.forget_person(PEOPLE[0].user_id, -1)
        now[0] += 31  # a kept page is read again after KEPT_FOR seconds, commit or not
        html = unescape(await (await client.get(path + "?lang=en")).text())
        assert '<th scope="row">ana</th>' not in html and "ana: " not in html
        assert "a former player: " in html


async def server_path_of(pages) -> str:
    link = await pages.servers.link(GUILD)
    return link[link.index("/s/"):]


async def test_a_commit_in_another_process_wakes_the_page(pg_location):
    """PostgreSQL: the page served by one process hears a move made by another."""
    serving, playing = await Store.open(pg_location), await Store.open(pg_location)
    pages = WebPages(serving)
    try:
        service = MatchService(playing)
        match = await started(service, "reversi", channel=38)
        await turn_on(playing)
        await pages.start("127.0.0.1", 0)
        path = await server_path_of(pages)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{pages.port}{path}/events") as stream:
                first = await asyncio.wait_for(next_event(stream), 10)
                from games.reversi import ai
                seat = match.current_seat()
                move = str(ai.choose_move(match.state, seat, "easy", seed=9))
                await service.act(38, match.player(seat).user_id, move)
                assert await asyncio.wait_for(next_event(stream), 10) != first
    finally:
        await pages.stop()
        await serving.close()
        await playing.close()
