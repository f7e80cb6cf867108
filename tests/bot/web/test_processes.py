"""Several processes on one PostgreSQL database: a move committed through one process's store
reaches the event streams of another's pages (LISTEN/NOTIFY), and a lost listening connection
is opened again."""

from __future__ import annotations

import asyncio

import aiohttp

from bot.matches.service import MatchService
from bot.storage.store import Store
from bot.web.server import WebPages
from tests.bot.web.test_pages import started


async def next_version(stream: aiohttp.ClientResponse) -> int:
    """The data of the stream's next `version` event."""
    fields: dict[str, str] = {}
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if not line and fields.get("event") == "version":
            return int(fields["data"])
        if not line:
            fields = {}
        elif not line.startswith(":"):
            key, _sep, value = line.partition(": ")
            fields[key] = value


async def never(_seconds: float) -> None:
    """The listener's timer, held: the test checks the listener itself."""
    await asyncio.Event().wait()


async def test_a_move_committed_in_one_process_reaches_viewers_of_another(pg_location):
    stores = [await Store.open(pg_location), await Store.open(pg_location)]
    pages = [WebPages(store) for store in stores]
    for page in pages:
        page.listening.wait = never
        await page.start("127.0.0.1", 0)
    service = MatchService(stores[0])
    service.on_commit = pages[0].committed
    try:
        match = await started(service, "reversi", channel=40)
        token = await stores[1].match_token(match.id)
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{pages[1].port}/m/{token}/events"
            async with session.get(url) as stream:
                assert await asyncio.wait_for(next_version(stream), 10) == match.row.version
                match = await move(service, match, channel=40)
                assert await asyncio.wait_for(next_version(stream), 10) == match.row.version

                # B's listening connection is lost: a move now goes unheard until it reopens
                await pages[1].listening.listener._conn.close()
                assert not pages[1].listening.listener.alive
                match = await move(service, match, channel=40)
                assert await pages[1].listening.check()  # opened again, and caught up
                assert pages[1].listening.listener.alive
                assert await asyncio.wait_for(next_version(stream), 10) == match.row.version
                match = await move(service, match, channel=40)  # and heard as before
                assert await asyncio.wait_for(next_version(stream), 10) == match.row.version
            part = await session.get(f"http://127.0.0.1:{pages[1].port}/m/{token}/live")
            assert f'data-version="{match.row.version}"' in await part.text()
    finally:
        for page in pages:
            await page.stop()
        for store in stores:
            await store.close()


async def move(service: MatchService, match, channel: int):
    from games.reversi import ai
    seat = match.current_seat()
    action = str(ai.choose_move(match.state, seat, "easy", seed=match.row.version))
    return (await service.act(channel, match.player(seat).user_id, action)).match


async def test_the_timer_opens_a_lost_listener_again_and_catches_up():
    """Without PostgreSQL: a store whose listener can be lost, a timer the test ticks."""
    from bot.web.listening import Listening

    class Listener:
        alive = True

        async def close(self) -> None:
            self.alive = False

    class Store:
        def __init__(self) -> None:
            self.opened: list[Listener] = []
            self.down = False

        async def listen(self, _heard, _pages_off=None) -> Listener:
            if self.down:
                raise OSError("connection refused")
            self.opened.append(Listener())
            return self.opened[-1]

    ticks: asyncio.Queue[None] = asyncio.Queue()
    waited: list[float] = []

    async def wait(seconds: float) -> None:
        waited.append(seconds)
        await ticks.get()

    async def tick() -> None:
        ticks.put_nowait(None)
        for _ in range(20):  # let the timer's task run (no clock involved)
            await asyncio.sleep(0)

    store, caught = Store(), []
    listening = Listening(store, lambda _match: None, lambda: caught.append(True), wait=wait)
    await listening.start()
    await tick()
    assert len(store.opened) == 1 and not caught  # alive: left alone
    store.opened[0].alive = False
    store.down = True
    await tick()
    assert len(store.opened) == 1 and not caught  # the database is still down: next time
    store.down = False
    await tick()
    assert len(store.opened) == 2 and store.opened[1].alive and caught == [True]
    await listening.stop()
    assert not store.opened[1].alive and waited


async def test_pages_turned_off_in_one_process_end_the_streams_of_another(pg_location):
    from dataclasses import replace

    stores = [await Store.open(pg_location), await Store.open(pg_location)]
    pages = WebPages(stores[1])
    pages.listening.wait = never
    await pages.start("127.0.0.1", 0)
    service = MatchService(stores[0])
    try:
        match = await started(service, "reversi", channel=41)
        other = await started(service, "reversi", channel=42, guild=8)
        base = f"http://127.0.0.1:{pages.port}"
        async with aiohttp.ClientSession() as session:
            streams = [await session.get(f"{base}/m/{await stores[1].match_token(m.id)}/events")
                       for m in (match, other)]
            for stream in streams:
                assert await asyncio.wait_for(next_version(stream), 10) == match.row.version
            settings = await stores[0].guild_settings(7)
            await stores[0].set_guild_settings(7, replace(settings, web_pages=False))
            rest = await asyncio.wait_for(streams[0].content.read(), 10)  # it ended
            assert rest.strip() in (b"", b": still here")
            assert not streams[1].content.at_eof()  # another server's page stays
            token = await stores[1].match_token(match.id)
            assert (await session.get(f"{base}/m/{token}/live")).status == 404
            streams[1].close()
    finally:
        await pages.stop()
        for store in stores:
            await store.close()
