"""The live DM: one per player per match, kept in the database; closed DMs are reported and
other failures never undo an accepted move."""

import asyncio
from dataclasses import replace
from types import SimpleNamespace

import discord
import pytest

import games.reversi as reversi
from bot.ui.present import Reply
from bot.ui.dms import LiveDMs
from bot.matches.model import Match
from bot.storage.rows import LiveDM, LiveSwap, MatchRow, SeatRow
from bot.storage.store import Store
from i18n import ENGLISH_VOICE

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)


def http_error(kind, status: int, code: int):
    return kind(SimpleNamespace(status=status, reason="x"), {"code": code, "message": "x"})


class EnglishOnly:
    """Every reader's language is English."""

    async def person(self, user_id, guild_id):
        return ENGLISH_VOICE

    async def server(self, guild_id):
        return ENGLISH_VOICE


class Inbox:
    """The DMs of one fake Discord, shared by the fake bots of several processes: ids rise in
    the order messages are sent, as Discord's do."""

    def __init__(self) -> None:
        self.messages: dict[int, dict] = {}  # id -> the latest content sent or edited
        self.sent: list[int] = []
        self.gone: set[int] = set()  # deleted


class FakeBot:
    """Just enough of a bot to send, edit and look at DMs (ids from 1000). `hold`: sends and
    edits wait for it (a process whose requests are slow)."""

    def __init__(self, store: Store, send_error=None, inbox: Inbox | None = None):
        self.store = store
        self.languages = EnglishOnly()
        self.send_error = send_error
        self.inbox = inbox or Inbox()
        self.messages, self.sent, self.gone = self.inbox.messages, self.inbox.sent, self.inbox.gone
        self.hold: asyncio.Event | None = None
        self.dm_channels = SimpleNamespace(of=self._dm_channel)

    async def _dm_channel(self, user_id):
        return SimpleNamespace(send=self._send)

    async def _send(self, **kwargs):
        if self.hold is not None:
            await self.hold.wait()
        if self.send_error is not None:
            raise self.send_error
        message_id = 1000 + len(self.sent)
        self.sent.append(message_id)
        self.messages[message_id] = kwargs
        return SimpleNamespace(id=message_id, channel=SimpleNamespace(id=77))

    def get_partial_messageable(self, channel_id, **kwargs):
        return SimpleNamespace(get_partial_message=lambda message_id: SimpleNamespace(
            edit=lambda **kwargs: self._edit(message_id, kwargs),
            delete=lambda: self._delete(message_id)))

    async def _edit(self, message_id, kwargs):
        if self.hold is not None:
            await self.hold.wait()
        if message_id in self.gone:
            raise http_error(discord.NotFound, 404, 10008)
        self.messages[message_id] = kwargs

    async def _delete(self, message_id):
        if message_id in self.gone:
            raise http_error(discord.NotFound, 404, 10008)
        self.gone.add(message_id)

    def get_guild(self, guild_id):
        return None

    def get_channel(self, channel_id):
        return None


async def a_match(store: Store, version: int = 1) -> Match:
    match_id = await store.create_match(guild_id=1, channel_id=2, game="reversi", options={},
                                        seed=1, creator=SeatRow(0, "user", 10, "a"),
                                        invited_id=None)
    row = MatchRow(id=match_id, guild_id=1, channel_id=2, game="reversi", status="active",
                   options={}, seed=1, state=None, version=version, creator_id=10,
                   invited_id=None, lobby_message_id=None, board_message_id=None, result=None,
                   created_at="", updated_at="",
                   seats=(SeatRow(0, "user", 10, "a"), SeatRow(1, "user", 11, "b")))
    return Match(row, reversi, None)


def at(match: Match, version: int) -> Match:
    return Match(replace(match.row, version=version), match.engine, match.state)


async def test_a_change_edits_the_live_dm_and_a_turn_sends_a_new_one(store):
    bot = FakeBot(store)
    dms = LiveDMs(bot.store, bot, "hand")
    match = await a_match(store)
    assert await dms.show(match, 0, Reply(content="first"), prompt=False)
    assert await dms.show(at(match, 2), 0, Reply(content="second"), prompt=False)
    assert bot.sent == [1000] and bot.messages[1000]["content"] == "second"
    assert await dms.show(at(match, 3), 0, Reply(content="your turn"), prompt=True)
    assert bot.sent == [1000, 1001]
    assert "newer message below" in bot.messages[1000]["content"]  # shrunk to one line
    assert bot.messages[1000]["view"] is None and bot.messages[1000]["attachments"] == []
    # Still its turn (say, someone challenged): the notice is edited, not sent again.
    assert await dms.show(at(match, 4), 0, Reply(content="still yours"), prompt=True)
    assert bot.sent == [1000, 1001] and bot.messages[1001]["content"] == "still yours"
    live = await store.live_dm(match.id, 0)
    assert (live.message_id, live.version, live.prompt) == (1001, 4, True)


async def test_a_late_announcement_leaves_a_newer_dm_alone(store):
    bot = FakeBot(store)
    dms = LiveDMs(bot.store, bot, "hand")
    match = await a_match(store)
    await dms.show(at(match, 5), 1, Reply(content="version 5"), prompt=True)
    await dms.show(at(match, 4), 1, Reply(content="version 4"), prompt=False)
    await dms.show(at(match, 4), 1, Reply(content="version 4"), prompt=True)
    assert bot.sent == [1000] and bot.messages[1000]["content"] == "version 5"
    await dms.close(at(match, 6), "over")
    await dms.show(at(match, 5), 1, Reply(content="late"), prompt=True)  # no hand comes back
    assert bot.sent == [1000] and bot.messages[1000]["content"].endswith("over")


async def test_a_deleted_live_dm_is_replaced_by_a_new_one(store, caplog):
    caplog.set_level("INFO", logger="bot.ui.dms")
    bot = FakeBot(store)
    dms = LiveDMs(bot.store, bot, "rack")
    match = await a_match(store)
    await dms.show(match, 0, Reply(content="one"), prompt=False)
    bot.gone.add(1000)
    assert await dms.show(at(match, 2), 0, Reply(content="two"), prompt=False)
    assert bot.sent == [1000, 1001] and (await store.live_dm(match.id, 0)).message_id == 1001
    assert "could not edit the live DM of seat 0" in caplog.text


async def test_closed_dms_are_reported(store):
    bot = FakeBot(store, http_error(discord.Forbidden, 403, 50007))
    match = await a_match(store)
    dms = LiveDMs(bot.store, bot, "hand")
    assert await dms.show(match, 0, Reply(content="hi"), prompt=True) is False
    assert await store.live_dm(match.id, 0) is None


async def test_other_failures_are_logged_not_raised(store, caplog):
    match = await a_match(store)
    for error in (http_error(discord.Forbidden, 403, 50001),
                  http_error(discord.NotFound, 404, 10013),
                  http_error(discord.DiscordServerError, 500, 0)):
        dms = LiveDMs(store, FakeBot(store, error), "hand")
        assert await dms.show(match, 1, Reply(content="hi"), prompt=True) is True
    assert caplog.text.count("DM to seat 1 of match 1 failed") == 3


async def test_the_store_never_replaces_a_newer_live_dm(store):
    match = await a_match(store)
    assert await store.keep_live_dm(LiveDM(match.id, 0, 77, 5, 5, True))
    assert not await store.keep_live_dm(LiveDM(match.id, 0, 77, 4, 4, False))
    assert await store.keep_live_dm(LiveDM(match.id, 0, 77, 6, 5, False))  # same version: ok
    assert await store.live_dm(match.id, 0) == LiveDM(match.id, 0, 77, 6, 5, False)
    assert await store.live_dm(match.id, 1) is None


# -- two processes replacing one live DM at once --------------------------------------------

async def race(first: FakeBot, second: FakeBot, first_show, second_show) -> None:
    """Both processes read the live DM before either changes anything; `second`'s requests
    to Discord go out only once `first` is done (its requests were slow)."""
    both_read = asyncio.Barrier(2)
    for bot in (first, second):
        read, waited = bot.store.live_dm, []

        async def gated(match_id, seat, read=read, waited=waited):
            live = await read(match_id, seat)
            if not waited:
                waited.append(True)
                await both_read.wait()
            return live

        bot.store.live_dm = gated
    second.hold = asyncio.Event()

    async def first_then_release():
        await first_show()
        second.hold.set()

    await asyncio.gather(first_then_release(), second_show())


def one_live_dm(inbox: Inbox, live: LiveDM) -> str:
    """The live DM's content, checking that every other DM is deleted, or shrunk to a line
    pointing to the live one below it."""
    for message_id, kwargs in inbox.messages.items():
        if message_id in inbox.gone or message_id == live.message_id:
            continue
        assert "newer message below" in kwargs["content"], (message_id, kwargs["content"])
        assert kwargs["view"] is None and message_id < live.message_id
    assert live.message_id not in inbox.gone
    return inbox.messages[live.message_id]["content"]


@pytest.mark.parametrize("newer_first", [False, True])
@pytest.mark.parametrize(("older", "newer"), [(2, 3), (2, 2)])
async def test_two_processes_sending_a_new_dm_at_once_leave_one_live(
        pg_location, newer_first, older, newer):
    """Two processes announce a turn of the same seat at once, each with a new DM: whichever
    swaps second learns it lost (and retires its own DM) or what it replaced (and retires
    that), so one DM shows the newest view."""
    stores_ = [await Store.open(pg_location), await Store.open(pg_location)]
    try:
        inbox = Inbox()
        a, b = (FakeBot(s, inbox=inbox) for s in stores_)
        match = await a_match(stores_[0])
        await LiveDMs(a.store, a, "hand").show(match, 0, Reply(content="version 1"),
                                               prompt=False)
        show_a = lambda: LiveDMs(a.store, a, "hand").show(  # noqa: E731
            at(match, older), 0, Reply(content=f"A {older}"), prompt=True)
        show_b = lambda: LiveDMs(b.store, b, "hand").show(  # noqa: E731
            at(match, newer), 0, Reply(content=f"B {newer}"), prompt=True)
        if newer_first:
            await race(b, a, show_b, show_a)
        else:
            await race(a, b, show_a, show_b)
        live = await stores_[0].live_dm(match.id, 0)
        assert live.version == newer and live.prompt
        shown = one_live_dm(inbox, live)
        assert shown == f"B {newer}" or (older == newer and shown == f"A {older}")
    finally:
        for store in stores_:
            await store.close()


async def test_an_edit_that_lost_to_a_new_dm_of_another_process_is_shrunk_again(pg_location):
    """One process edits the live DM (its seat need not act) while another replaces it with a
    new DM (the seat must act now) and shrinks it; the edit landing last would show the old
    hand again, so the editor, learning that it lost, shrinks it once more."""
    stores_ = [await Store.open(pg_location), await Store.open(pg_location)]
    try:
        inbox = Inbox()
        a, b = (FakeBot(s, inbox=inbox) for s in stores_)
        match = await a_match(stores_[0])
        await LiveDMs(a.store, a, "hand").show(match, 0, Reply(content="version 1"),
                                               prompt=False)
        await race(b, a,
                   lambda: LiveDMs(b.store, b, "hand").show(
                       at(match, 3), 0, Reply(content="your turn"), prompt=True),
                   lambda: LiveDMs(a.store, a, "hand").show(
                       at(match, 2), 0, Reply(content="version 2"), prompt=False))
        live = await stores_[0].live_dm(match.id, 0)
        assert (live.version, live.prompt) == (3, True)
        assert one_live_dm(inbox, live) == "your turn"
    finally:
        for store in stores_:
            await store.close()


async def test_the_live_dm_swap_says_what_it_replaced_or_what_stands(store):
    match = await a_match(store)
    first = LiveDM(match.id, 0, 77, 5, 5, True)
    assert await store.swap_live_dm(first) == LiveSwap(True, None)
    newer = LiveDM(match.id, 0, 77, 6, 6, True)
    assert await store.swap_live_dm(newer) == LiveSwap(True, first)
    assert await store.swap_live_dm(LiveDM(match.id, 0, 77, 7, 5, True)) == LiveSwap(False, newer)
    edit = replace(first, version=7)  # an edit of message 5, which is no longer live
    assert await store.swap_live_dm(edit, same_message=True) == LiveSwap(False, newer)
    assert await store.swap_live_dm(replace(newer, version=7),
                                    same_message=True) == LiveSwap(True, newer)
