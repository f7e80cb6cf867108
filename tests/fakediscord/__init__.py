"""A fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of a real discord.py bot.

The whole "Discord world" (users, guilds, channels, roles, messages with attachment bytes,
synced application commands) lives in memory in a :class:`FakeDiscord`.  The bot under test
is the real discord.py client running in the *same event loop*, pointed at the fake through
``discord.http.Route.BASE``.  Nothing leaves 127.0.0.1.

Typical use::

    fake = FakeDiscord()                      # or: async with FakeDiscord() as fake:
    await fake.start()                        # fake.api_base == "http://127.0.0.1:PORT/api/v10"
    guild = fake.add_guild("Game Night Club")
    chan = fake.add_channel(guild, "games")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", dms_open=False)            # DMs to bob -> 403, code 50007
    mod = fake.add_user("mod")
    fake.add_member(guild, alice); fake.add_member(guild, bob)
    fake.add_member(guild, mod, permissions=Perm.MANAGE_MESSAGES)

    async with run_bot(make_bot(), fake) as bot:          # start, wait READY+guilds+idle, stop
        res = await fake.slash(alice, chan, "reversi move", square="d3")
        res.response_type, res.content, res.embeds, res.files, res.ephemeral, res.components
        res.followups, res.new_messages, res.dms, res.errors
        choices = await fake.autocomplete(alice, chan, "reversi move", "square", square="d")
        msg = fake.messages(chan)[-1]
        res = await fake.click(alice, msg, "reversi:join:42")  # or fake.click(alice, msg, label="Join")
        res = await fake.select(alice, msg, "pick", ["a", "b"])
        fake.dm_messages(alice)
    await fake.stop()

Driving API (all ``await``-able ones wait until the bot is idle again, see below):

* ``add_user(name, *, dms_open=True, bot=False, global_name=None, locale="en-US") -> FakeUser``
* ``add_guild(name, *, owner=None) -> FakeGuild`` (the bot is a member automatically)
* ``add_channel(guild, name, *, topic=None) -> FakeChannel`` (text channel)
* ``add_role(guild, name, permissions=0) -> FakeRole``
* ``add_member(guild, user, *, roles=(), nick=None, permissions=None) -> FakeMember``
  (``permissions`` = int / ``discord.Permissions`` / ``Perm`` flags; a personal role is made for it)
* ``dm_channel(user) -> FakeChannel``
* ``set_bot_permissions(guild, permissions)``: what the bot's own role in ``guild`` allows from
  now on (GUILD_ROLE_UPDATE); ``FakeDiscord(bot_permissions=...)`` sets it for every guild
* ``set_bot_overwrite(channel, *, allow=0, deny=0)``: a channel permission overwrite for the bot
  (its threads inherit it); channel posts, thread creation, ``app_permissions`` in interactions
  and the channel's ``permission_overwrites`` (CHANNEL_UPDATE) all follow it
* ``await slash(user, channel, "group sub cmd", **options) -> InteractionResult``
  Builds an APPLICATION_COMMAND interaction from the commands the bot *synced*.  Options are
  typed per the synced definition (user/member options get ``resolved`` data; pass FakeUser,
  FakeChannel, FakeRole, FakeAttachment from ``fake.make_attachment``).  ``channel`` may be a
  FakeUser for a DM-channel invocation.  Option names that are Python keywords:
  ``**{"from": "a1"}``.
* ``await autocomplete(user, channel, "cmd", focused_name, **options) -> list[dict]`` (choices)
* ``await click(user, message, custom_id=None, *, label=None) -> InteractionResult``
* ``await select(user, message, custom_id, values) -> InteractionResult``
* ``await submit_modal(user, result, values: {custom_id: str}) -> InteractionResult``
* ``await raw_component(user, message, data, *, components=None)`` and
  ``await raw_command(user, channel, data, *, autocomplete=False)``: interactions with any data,
  unchecked (for fuzzing the bot with what stale clients or old messages send);
  ``await dispatch_raw(type, user, channel, data, *, message=None, components=None)`` sends one
  without waiting (many at once, then ``wait_idle()``) and returns the FakeInteraction;
  ``await slash_nowait(user, channel, "cmd", **options)`` likewise sends a slash command (for a
  bot in another process: ``await interaction.answered.wait()``, ``interaction.answered_at``)
* ``await gateway_event(event, data, *, guild=None)`` sends one raw gateway dispatch with any
  data, unchecked (a malformed event: ``interaction_payload(type, user, channel, data,
  message=None)`` builds an interaction's payload to alter first), and waits until idle
* ``await send(user, channel, content) -> FakeMessage`` (a user message, dispatched as MESSAGE_CREATE)
* Scheduled events (``event_driving``): ``await add_scheduled_event(guild, creator, name, *,
  start, end, location, description=None)`` (a member makes an EXTERNAL event in the client),
  ``await remove_scheduled_event(event)``, ``await mark_interested(user, event)`` /
  ``await mark_uninterested(user, event)`` (USER_ADD / USER_REMOVE), ``await
  start_scheduled_event(event)`` / ``await end_scheduled_event(event)`` (what Discord does at an
  EXTERNAL event's start and end times: the test says when), ``scheduled_events(guild)``,
  ``scheduled_event(id)`` -> :class:`FakeScheduledEvent` (``.status .interested .user_count
  .creator .start .end .location``); ``fake.clock`` is the "now" Discord judges start times by
* ``thread_members(thread) -> [FakeUser]`` (a thread's members; its creator is the first)
* ``messages(channel_or_user, *, include_ephemeral=False)``, ``dm_messages(user)``,
  ``get_message(id)``, ``commands(guild=None)``, ``search(text)`` (where a string appears)
* ``requests`` -> ``[(method, path), ...]`` (path without ``/api/v10``); ``request_log`` full records
* ``await wait_idle()``; ``expect_errors()`` context manager; ``raise_bot_errors`` flag;
  ``await disconnect_bot(code=4000)`` (drop the gateway; the bot RESUMEs, events are replayed);
  ``await drop_gateway(code=4000, refuse_resume=False)`` then ``await restore_gateway()``: the
  gateway stays down in between (interactions sent meanwhile wait for the resume; a refused
  resume, op 9, loses them and the bot identifies anew).
* Result objects: :class:`InteractionResult` (``.response_type .message .content .embeds .files
  .attachments .components .buttons .ephemeral .followups .choices .modal .new_messages .edited
  .deleted .dms .channel_messages .all_messages .errors .requests``) and :class:`FakeMessage`
  (``.content .embeds .attachments .files .components .buttons .selects .flags .ephemeral
  .author .channel .find_component() .attachment(name) .text()``); attachments keep their bytes
  (``.data .is_png .image_size``) and are downloadable from their ``.url``.

Waiting for the bot: after dispatching a gateway event the fake waits until (1) the bot's
websocket has processed every event sent (checked via the bot's ``ws.sequence`` when the bot
was started with :func:`run_bot` / ``fake.attach(bot)``), (2) no HTTP request is in flight, and
(3) every asyncio task created since ``fake.start()`` is finished or *idle*: waiting on a
queue/event/lock/view, reading the gateway, or sleeping longer than ``fake.busy_sleep_limit``
(1 s; a turn timer or a view timeout counts as idle, a 0.3 s "thinking" pause does not).
Timeouts (``fake.idle_timeout``) are only failure guards; they raise with the busy task stacks.
A long-lived bot task waiting on something else (e.g. a bare future) can be declared idle with
``fake.idle_predicates.append(lambda task: task.get_name() == "my-worker")``.

Errors: any log record at ERROR or above (e.g. discord.py's "Ignoring exception in command")
and any unretrieved task exception during an interaction is put in ``result.errors`` and, with
``fake.raise_bot_errors`` (default True), raised as :class:`BotError`.  Unknown REST routes
answer 404 JSON, are logged at ERROR and therefore also fail the interaction.

Starting the bot: ``async with run_bot(bot, fake) as bot:`` sets ``Route.BASE`` and the default
gateway URL, starts ``bot.start(fake.token)`` as a task, waits for on_ready, all guilds and
idleness, and on exit closes the bot and restores the globals.  A second bot instance can be
run against the same fake afterwards (restart tests): the world, messages and commands persist.
``Route.BASE`` is process-global: run one bot per process at a time.

Behaviour modelled on Discord: DM to a user with ``dms_open=False`` -> 403 code 50007; sending
without SEND_MESSAGES/ATTACH_FILES (after the bot's channel overwrite) -> 403 50013, while
interaction responses and follow-ups need no channel permission; a second interaction callback -> 400 40060;
every request body is checked against Discord's OpenAPI document and the limits it lacks
(``discord_schema.py`` here): a refused body -> 400 50035 and a failed test (``tests/conftest.py``;
``expect_invalid_requests()`` for a test that means to send one); the first followup
after a "thinking" defer replaces the loading message; ephemeral messages are invisible to the
channel routes; commands keep their ids across bulk overwrites; MESSAGE_CONTENT intent respected.

Guild scheduled events (``events``, ``event_routes``): list / create / get / modify / delete and the
interested users (ascending by user id, ``before``/``after``/``limit`` <= 100, ``with_member``);
an EXTERNAL event needs a location and an end, a start in the past or an end before the start
-> 400 50035, status moves only SCHEDULED -> ACTIVE -> COMPLETED and SCHEDULED -> CANCELED
(others 400 50035), a finished event -> 400 180000, at most 100 SCHEDULED or ACTIVE events
(400 30038), creating needs Create Events or Manage Events and changing Manage Events (or
Create Events on the bot's own event), else 403 50013. GUILD_SCHEDULED_EVENT_* reach only
sessions with the GUILD_SCHEDULED_EVENTS intent; GUILD_CREATE carries the guild's events.
Thread members (``thread_members``): add (Send Messages in Threads), remove (Manage Threads),
join/leave ``@me``, get and list (paged ``with_member``, as in API v10); THREAD_MEMBERS_UPDATE to
every session for the bot itself, else only with GUILD_MEMBERS. The answers of these routes are
checked against the document too (``response_schema``: a wrong one fails the test like a refused
request; ``fake.check_every_answer`` extends it to every route, which some older answers fail).

Shards: each IDENTIFY names its shard ``[id, count]``; a session hears of the guilds on its shard
(``(guild_id >> 22) % count == id``) and of their events and interactions, and shard 0 also of
everything in DMs, so several bots (processes) may share one fake, each on some shards.

Per-route rate limits (X-RateLimit-* headers, 429 when a client ignores them) only with
``FakeDiscord(rate_limits=RateLimits(limit, per))``; off by default.

Not covered: overwrites other than the bot's own, voice (so no voice or stage events),
recurring events, archived threads, user reactions, polls, the global rate limit, ETF encoding,
the 3-second / 15-minute interaction deadlines, user-installed-app contexts.

Where things are: :class:`FakeDiscord` (``core``: its state, start and stop) is composed of one
mixin per part: ``building`` (building the world), ``queries`` (reading it back), ``driving``
(what users do, and raw interactions), ``idleness`` (waiting for the bot), ``gateway`` (sessions
and events), ``message_store`` (messages made, edited and announced), ``rest`` (routing, the
request log, injected failures), ``schema_check`` (every request body checked), ``routes``,
``event_routes``, ``thread_members`` and ``callbacks`` (the REST handlers), ``event_driving``
(scheduled events as people and Discord change them). The objects are in ``world``,
``events``, ``messages`` and ``interactions``; the rest in ``flags``, ``errors``,
``query_params``, ``ratelimits`` and ``running`` (run_bot). ``discord_schema`` checks request
bodies against Discord's OpenAPI document (in ``data/``), ``response_schema`` the fake's answers.
"""

from __future__ import annotations

from tests.fakediscord.core import FakeDiscord
from tests.fakediscord.errors import BotError, IdleTimeout
from tests.fakediscord.events import FakeScheduledEvent
from tests.fakediscord.flags import Intent, Perm
from tests.fakediscord.interactions import FakeInteraction, InteractionResult
from tests.fakediscord.messages import FakeAttachment, FakeMessage, walk_components
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.rest import RequestRecord
from tests.fakediscord.running import run_bot
from tests.fakediscord.schema_check import UNEXPECTED_VIOLATIONS, SchemaViolation
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

__all__ = [
    "UNEXPECTED_VIOLATIONS",
    "BotError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeScheduledEvent",
    "FakeUser",
    "IdleTimeout",
    "Intent",
    "InteractionResult",
    "Perm",
    "RateLimits",
    "RequestRecord",
    "SchemaViolation",
    "run_bot",
    "walk_components",
]
