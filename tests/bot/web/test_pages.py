"""The web pages (bot/web/): each game's live page and replay from the public view only, the
event stream a commit wakes, unknown tokens, the headers, the language, the rate limit."""

from __future__ import annotations

import asyncio
import re
from html import unescape

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage.links import TOKEN_BYTES
from bot.web.language import page_language
from bot.web.limits import RateLimit, client_address, trusted_proxies
from bot.web.pictures import alt_text, table_png
from bot.web.server import WebPages
from bot.web.showing import show
from games.replay import final_state
from i18n import voice
from render.doudizhu import cards_words
from bot.matches.model import Player
from tests.bot.matches.test_records import play

# Discord-like ids, which no page may show
PEOPLE = [Player(804412345678901230 + i, name) for i, name in enumerate(("ana", "ben", "cho"))]

GAMES = {"reversi": 2, "scrabble": 2, "patchwork": 2, "doudizhu": 3}


@pytest.fixture
async def pages(store):
    return WebPages(store)


@pytest.fixture
async def client(pages):
    async with TestClient(TestServer(pages.app())) as client:
        yield client


async def started(service, game: str, channel: int, guild: int = 7):
    """A match of `game` dealt and a few actions in."""
    people = PEOPLE[:GAMES[game]]
    lobby = await service.open_lobby(game, guild_id=guild, channel_id=channel, creator=people[0],
                                     seed=4, options={"players": len(people)})
    match = lobby
    for person in people[1:]:
        match = await service.join(lobby.id, person)
    from importlib import import_module
    ai = import_module(f"games.{game}.ai")
    for ply in range(3):
        seat = match.current_seat()
        move = str(ai.choose_move(match.state, seat, "easy", seed=ply))
        match = (await service.act(channel, match.player(seat).user_id, move)).match
    return match


def alt_of(html: str) -> str:
    found = re.search(r'<img src="[^"]*board\.png[^"]*" alt="([^"]*)"', html)
    assert found, html
    return unescape(found[1])


def moves_in(html: str) -> list[str]:
    listed = re.search(r'<ol class="moves">(.*?)</ol>', html, re.S)
    assert listed, html
    return [unescape(re.sub("<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li[^>]*>(.*?)</li>", listed[1], re.S)]


@pytest.mark.parametrize("game", GAMES)
async def test_the_live_page_shows_the_board_with_its_alt_text_and_the_moves(
        service, store, client, game):
    match = await started(service, game, channel=10)
    token = await store.match_token(match.id)
    assert len(token) >= 22  # >= 128 bits
    page = await client.get(f"/m/{token}", headers={"Accept-Language": "en"})
    assert page.status == 200
    html = await page.text()
    view = match.engine.view(match.state, None)
    names = [seat.name for seat in match.seats]
    assert alt_of(html) == alt_text(game, view, names, voice("en")) and alt_of(html)
    assert len(moves_in(html)) == 3 and all(moves_in(html))
    assert all(name in html for name in names)
    for seat in match.seats:  # no user id on the page, nor in its links
        assert str(seat.user_id) not in html
    for url in re.findall(r'(?:href|src|data-events|data-part)="([^"]*)"', html):
        assert str(match.id) not in re.split(r"[/?&=]", unescape(url)), url
    picture = await client.get(re.search(r'<img src="\.\./([^"]+)"', html)[1].replace("&amp;", "&")
                               .join(("/", "")))
    assert picture.status == 200 and picture.content_type == "image/png"
    caption = voice("en")((await show(store, match)).caption())  # the short caption
    assert await picture.read() == table_png(game, view, caption, names, voice("en"))
    if game == "doudizhu":  # the list says each bid in full, as the channel does
        assert all(re.fullmatch(r"\w+ (bids \d|passes without bidding)\.?", line)
                   for line in moves_in(html)), moves_in(html)


async def test_no_hidden_hand_or_rack_is_on_a_page(service, store, client):
    dou = await started(service, "doudizhu", channel=11)
    scrabble = await started(service, "scrabble", channel=12)
    for match in (dou, scrabble):
        token = await store.match_token(match.id)
        html = await (await client.get(f"/m/{token}")).text()
        for seat in range(len(match.seats)):
            mine = match.engine.view(match.state, seat)
            if match.game == "doudizhu":
                assert voice("en")(cards_words(mine.hand)) not in html
                assert "".join(mine.hand) not in html
            else:
                assert mine.rack and mine.rack not in html


async def test_a_commit_wakes_an_open_event_stream(service, store, pages, client):
    service.on_commit = pages.committed
    match = await started(service, "reversi", channel=13)
    token = await store.match_token(match.id)
    stream = await client.get(f"/m/{token}/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")

    async def event() -> dict[str, str]:
        fields: dict[str, str] = {}
        while True:
            line = (await stream.content.readline()).decode().rstrip("\n")
            if not line and "data" in fields:
                return fields
            if line and not line.startswith(":"):
                key, _sep, value = line.partition(": ")
                fields[key] = value

    first = await asyncio.wait_for(event(), 10)
    assert first == {"retry": "2000", "id": str(match.row.version), "event": "version",
                     "data": str(match.row.version)} or first["id"] == str(match.row.version)
    seat = match.current_seat()
    from games.reversi import ai
    move = str(ai.choose_move(match.state, seat, "easy", seed=9))
    after = (await service.act(13, match.player(seat).user_id, move)).match
    woke = await asyncio.wait_for(event(), 10)
    assert woke["id"] == woke["data"] == str(after.row.version) > str(match.row.version)
    part = await (await client.get(f"/m/{token}/live")).text()
    assert f'data-version="{after.row.version}"' in part and len(moves_in(part)) == 4
    stream.close()


async def test_a_commit_as_the_stream_opens_is_sent(service, store, pages, client):
    match = await started(service, "reversi", channel=16)
    token = await store.match_token(match.id)
    read = pages._version_of

    async def then_a_commit(match_id: int) -> int | None:
        version = await read(match_id)
        pages.hub.changed(match_id, version + 1)  # committed just after the version was read
        return version

    pages._version_of = then_a_commit
    stream = await client.get(f"/m/{token}/events")
    sent: list[str] = []
    while len(sent) < 2:
        line = (await asyncio.wait_for(stream.content.readline(), 10)).decode()
        if line.startswith("data: "):
            sent.append(line.split()[1])
    assert sent == [str(match.row.version), str(match.row.version + 1)]
    stream.close()


async def test_viewers_asking_at_once_share_reads_and_all_see_the_commit(
        service, store, pages, client):
    match = await started(service, "reversi", channel=17)
    token = await store.match_token(match.id)
    await client.get(f"/m/{token}/live")
    seat = match.current_seat()
    from games.reversi import ai
    after = (await service.act(17, match.player(seat).user_id,
                               str(ai.choose_move(match.state, seat, "easy", seed=9)))).match
    reads = 0
    get_match = store.get_match

    async def counted(match_id: int):
        nonlocal reads
        reads += 1
        return await get_match(match_id)

    store.get_match = counted
    answers = await asyncio.gather(*(client.get(f"/m/{token}/live") for _ in range(20)))
    parts = [await answer.text() for answer in answers]
    assert all(f'data-version="{after.row.version}"' in part for part in parts)
    assert reads <= 2  # one read under way and one after it, not one each


async def test_a_kept_live_part_carries_the_time_it_is_sent_at_and_its_language(
        service, store):
    now = [1000.0]
    pages = WebPages(store, clock=lambda: now[0])
    match = await started(service, "reversi", channel=19)
    token = await store.match_token(match.id)
    async with TestClient(TestServer(pages.app())) as client:
        first = await (await client.get(f"/m/{token}/live?lang=en")).text()
        now[0] = 1042.5
        again = await (await client.get(f"/m/{token}/live?lang=en")).text()
        chinese = await (await client.get(f"/m/{token}/live?lang=zh-CN")).text()
    assert 'data-now="1000.0"' in first and 'data-now="1042.5"' in again
    assert again.replace("1042.5", "1000.0") == first
    assert moves_in(chinese) != moves_in(first) and 'data-now="1042.5"' in chinese


@pytest.mark.parametrize("game", GAMES)
async def test_the_replay_at_ply_n_is_the_engine_state_after_n_actions(
        service, store, client, game):
    match = await play(service, game, PEOPLE[:GAMES[game]], channel=20, seed=5)
    assert match.status == "finished"
    token = await store.match_token(match.id)
    moves = await store.moves(match.id)
    names = [seat.name for seat in match.seats]
    for ply in (0, 1, len(moves) // 2, len(moves)):
        html = await (await client.get(f"/r/{token}?ply={ply}&lang=en")).text()
        state = final_state(match.engine, len(match.seats), match.row.seed,
                            match.engine_options, [(m.seat, m.action) for m in moves[:ply]])
        view = match.engine.view(state, None)
        assert alt_of(html) == alt_text(game, view, names, voice("en"))
        assert f'value="{ply}"' in html and len(moves_in(html)) == len(moves)
        picture = await client.get(f"/r/{token}/board.png?ply={ply}&lang=en")
        assert picture.status == 200
    if game == "doudizhu":  # hands shown once the match is over
        assert "Hands at this point" in html
        listed = moves_in(html)  # each play with its kind and its cards by name
        leads = [line for line in listed if " leads " in line]
        kind = r"\((single|pair|trio|sequence|pair sequence|trio sequence|bomb|rocket|four)"
        assert leads and all(re.fullmatch(rf"\w+ leads [\w ]+ {kind}[a-z ,0-9]*: .+\)\.", line)
                             for line in leads), leads
        assert any(re.fullmatch(r"\w+ plays \S+ \(.+\)\.", line) for line in listed)
        assert any(line.endswith(" passes.") for line in listed)
    if game == "scrabble":
        assert "Scores after this move" in html


async def test_a_running_match_has_no_replay_yet(service, store, client):
    match = await started(service, "reversi", channel=21)
    token = await store.match_token(match.id)
    answer = await client.get(f"/r/{token}")
    assert answer.status == 404 and "The replay opens when the match ends" in await answer.text()


@pytest.mark.parametrize("path", ["/m/" + "A" * 24, "/m/short", "/r/" + "b" * 24,
                                  "/m/" + "A" * 24 + "/board.png", "/nothing/here"])
async def test_an_unknown_token_is_a_friendly_404(client, path):
    answer = await client.get(path)
    assert answer.status == 404
    assert "This link opens no match" in await answer.text()
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")


async def test_every_answer_carries_the_security_headers(service, store, client):
    match = await started(service, "reversi", channel=22)
    token = await store.match_token(match.id)
    for path in (f"/m/{token}", "/static/web.css", "/static/live.js", "/static/deadlines.js"):
        answer = await client.get(path)
        assert answer.status == 200, path
        csp = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "unsafe-inline" not in csp
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    html = await (await client.get(f"/m/{token}")).text()
    assert "<script>" not in html and "<style" not in html and " style=" not in html
    assert re.search(r"<script type=\"module\" src=\"[^\"]+\.js\"></script>", html)
    assert " on" not in re.sub(r">[^<]*<", "><", html)  # no onclick= and the like


async def test_the_language_follows_accept_language_and_the_switch(service, store, client):
    match = await started(service, "reversi", channel=23)
    token = await store.match_token(match.id)
    gu = await (await client.get(f"/m/{token}", headers={"Accept-Language": "gu-IN,en;q=0.5"})).text()
    assert '<html lang="gu">' in gu
    switched = await (await client.get(f"/m/{token}?lang=zh-TW",
                                       headers={"Accept-Language": "gu"})).text()
    assert '<html lang="zh-TW">' in switched
    assert page_language(None, "fr, zh-HK;q=0.8, en;q=0.5") == "zh-TW"
    assert page_language(None, "zh") == "zh-CN"
    assert page_language("xx", "de") == "en"


async def test_too_many_requests_from_one_address_are_answered_429(store):
    now = [0.0]
    pages = WebPages(store, limit=RateLimit(burst=3, rate=1, clock=lambda: now[0]))
    async with TestClient(TestServer(pages.app())) as client:
        codes = [(await client.get("/static/web.css")).status for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        now[0] += 1.0  # a second later: one more
        assert (await client.get("/static/web.css")).status == 200
        answer = await client.get("/static/web.css")
        assert answer.status == 429 and "Slow down" in await answer.text()


def test_behind_a_local_proxy_the_forwarded_address_counts():
    assert client_address("127.0.0.1", "203.0.113.5, 198.51.100.7") == "198.51.100.7"
    assert client_address("203.0.113.9", "198.51.100.7") == "203.0.113.9"  # not trusted
    assert client_address("::ffff:127.0.0.1", "198.51.100.7") == "198.51.100.7"
    assert client_address("::1", "2001:db8::5") == "2001:db8::5"


def test_behind_docker_the_bridge_proxy_is_trusted_when_named():
    bridge = trusted_proxies("172.16.0.0/12, 10.1.2.3")
    assert client_address("172.17.0.1", "198.51.100.7") == "172.17.0.1"  # by default: one budget
    assert client_address("172.17.0.1", "198.51.100.7", bridge) == "198.51.100.7"
    assert client_address("10.1.2.3", "198.51.100.7", bridge) == "198.51.100.7"
    assert client_address("127.0.0.1", "198.51.100.7", bridge) == "127.0.0.1"  # only those named
    # a proxy in front of the trusted one: the last address that is no trusted proxy counts,
    # and an address the visitor wrote itself (first) does not
    assert client_address("172.17.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", bridge) == \
        "198.51.100.7"
    assert client_address("172.17.0.1", "10.1.2.3", bridge) == "10.1.2.3"  # all trusted: first
    assert trusted_proxies("") == trusted_proxies(" 127.0.0.0/8 , ::1 ")
    with pytest.raises(ValueError, match="172.17.0.300"):
        trusted_proxies("10.0.0.0/8,172.17.0.300")


async def test_the_pages_count_a_visitor_by_the_address_their_trusted_proxy_forwards(store):
    now = [0.0]

    async def codes(pages, addresses):
        async with TestClient(TestServer(pages.app())) as client:  # its peer is 127.0.0.1
            return [(await client.get("/static/web.css",
                                      headers={"X-Forwarded-For": a})).status for a in addresses]

    def limited(**trust):
        return WebPages(store, limit=RateLimit(burst=1, rate=1, clock=lambda: now[0]), **trust)

    visitors = ["203.0.113.5", "203.0.113.6"]
    assert await codes(limited(), visitors) == [200, 200]  # loopback trusted by default
    assert await codes(limited(trusted_proxies=trusted_proxies("172.17.0.1")),
                       visitors) == [200, 429]  # this peer is not the proxy named: one budget


def test_a_token_holds_at_least_128_bits():
    assert TOKEN_BYTES * 8 >= 128



async def test_a_forgotten_player_leaves_every_page_at_once(service, store, client):
    """`/gamenight forget-me` changes names, not versions: what the pages read back by version
    (and the pictures drawn) must not keep the name."""
    zephyrine = Player(804412345678901299, "Zephyrine")
    finished = await play(service, "reversi", [zephyrine, PEOPLE[1]], channel=24, seed=5)
    lobby = await service.open_lobby("reversi", guild_id=7, channel_id=25, creator=zephyrine,
                                     seed=4, options={"players": 2})
    await service.join(lobby.id, PEOPLE[1])
    replay, live = (f"/r/{await store.match_token(finished.id)}?ply=3&lang=en",
                    f"/m/{await store.match_token(lobby.id)}?lang=en")
    pictures = [page.replace("?", "/board.png?") for page in (replay, live)]
    drawn = [await (await client.get(path)).read() for path in pictures]
    addresses = {}
    for page in (replay, live, live.replace("?", "/live?")):  # the live part kept too
        html = await (await client.get(page)).text()
        assert "Zephyrine" in html
        addresses[page] = re.search(r'src="([^"]*board\.png[^"]*)"', html)[1]
    await store.forget_person(zephyrine.user_id, -12345)  # what forget-me does to the store
    for page in (replay, live, live.replace("?", "/live?")):
        html = await (await client.get(page)).text()
        assert "Zephyrine" not in html and "a former player" in html, page
        # A new address: a browser's kept picture with the name is not shown again.
        assert re.search(r'src="([^"]*board\.png[^"]*)"', html)[1] != addresses[page], page
    for path, before in zip(pictures, drawn):
        assert await (await client.get(path)).read() != before, path
