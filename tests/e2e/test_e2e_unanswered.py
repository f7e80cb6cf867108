"""Nothing goes unanswered: a seeded fuzz of what the bot cannot read (mutated custom ids of
every component it makes, buttons of an older version, wrong component types, menu values not
on offer, slash commands with unknown, missing, extra or mistyped options, stale commands, odd
autocompletes) from seated and unseated users, in channels and DMs, against matches of every
game in several states. Each input gets exactly one ephemeral answer (or autocomplete
choices), the log stays free of errors and tracebacks, and no match changes."""

from __future__ import annotations

import logging
import random
import string

import pytest

from bot.adapters.doudizhu.controls import ActionButton, PlaySelect
from bot.ui.lobby import LobbyButton
from bot.ui.opening import RematchButton
from tests.e2e_helpers import fake_world, running_bot

pytestmark = pytest.mark.e2e

SEED = 20261125
INPUTS = 3000
BATCH = 10
TEMPLATES = [item.__discord_ui_compiled_template__
             for item in (LobbyButton, RematchButton, PlaySelect, ActionButton)]
NO_MATCH = 10**9  # match ids from here on do not exist
CHANNELS = ("reversi-lobby", "reversi", "patchwork", "scrabble", "scrabble-lobby", "auction",
            "tricks", "finished")


class TracebackLog(logging.Handler):
    """Every record at WARNING or above that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
async def world():
    async with fake_world("reversi-lobby", ("alice", "bob", "carol", "dave")) as world:
        yield world


async def set_the_tables(fake, guild, users, bot):
    """A match of every game, in lobbies, in play (auction and tricks for Dou Dizhu), finished
    and cancelled; returns the channels by name."""
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    channels = {"reversi-lobby": guild.channel("reversi-lobby")}
    for name in CHANNELS[1:]:
        channels[name] = fake.add_channel(guild, name)
    await fake.slash(alice, channels["reversi-lobby"], "reversi new")
    await fake.slash(bob, channels["scrabble-lobby"], "scrabble new", players=4)
    for game in ("reversi", "patchwork", "finished"):
        game_name = "reversi" if game == "finished" else game
        lobby = await fake.slash(alice, channels[game], f"{game_name} new")
        await fake.click(bob, lobby.message, label="Join")
    await fake.slash(bob, channels["finished"], "match resign")
    lobby = await fake.slash(alice, channels["scrabble"], "scrabble new", players=2)
    await fake.click(bob, lobby.message, label="Join")
    for name in ("auction", "tricks"):
        lobby = await fake.slash(alice, channels[name], "doudizhu new", players=3)
        for user in (bob, carol):
            await fake.click(user, lobby.message, label="Join")
    match = await bot.service.current(channels["tricks"].id)
    bidder = next(u for u in users.values() if u.id == match.player(match.state.turn).user_id)
    await fake.slash(bidder, channels["tricks"], "doudizhu bid", amount="3")
    return channels


async def snapshot(bot, channels):
    """Every match's id, status and version."""
    rows = await bot.store.open_matches()
    for channel in channels.values():
        latest = await bot.store.latest_match_in(channel.id)
        if latest is not None:
            rows.append(latest)
    return sorted({(row.id, row.status, row.version) for row in rows})


# --------------------------------------------------------------------------- the generator


def junk(rng: random.Random, *, length: int = 12) -> str:
    """A string no command or control takes: always with a character outside the notations."""
    alphabet = string.ascii_letters + string.digits + ":_-!?#é💥 "
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, length)))
    return text + rng.choice("!#é💥:")


def mutate(rng: random.Random, custom_id: str) -> str:
    kind = rng.randrange(7)
    if kind == 0 and custom_id:  # drop a character
        i = rng.randrange(len(custom_id))
        return custom_id[:i] + custom_id[i + 1:]
    if kind == 1:  # insert one
        i = rng.randint(0, len(custom_id))
        return custom_id[:i] + rng.choice("x9:é!0 -") + custom_id[i:]
    if kind == 2:  # a number no longer a number
        return "".join(rng.choice("abcé") if c.isdigit() and rng.random() < .5 else c
                       for c in custom_id)
    if kind == 3:  # an id far too large, or of a match that does not exist
        parts = custom_id.split(":")
        digits = [i for i, part in enumerate(parts) if part.isdigit()]
        if digits:
            parts[rng.choice(digits)] = rng.choice(
                ["9" * rng.randint(19, 60), str(NO_MATCH + rng.randrange(1000)), "-1", "0x1f"])
        return ":".join(parts)
    if kind == 4:  # cut short
        return custom_id[:rng.randint(0, max(0, len(custom_id) - 1))]
    if kind == 5:  # an extra field, as a newer or older version might have
        return custom_id + ":" + rng.choice(["1", "x", "", "v2"])
    return rng.choice(["", "gn:", "gn:lobby", "gn:ddz:play", "join", "reversi:join:1",
                       "gn:unknown:1", "gn:lobby:join:1:2:3", junk(rng, length=100)])


def old_component(rng: random.Random, matches: list[tuple[int, str, int]]
                  ) -> tuple[dict, list[dict]]:
    """A control an older version of the bot left on a message: its data and the message's
    components, with ids that fit today's templates but name no match, a stale version, or a
    lobby that has started since."""
    match_id, _, version = rng.choice(matches)
    started = rng.choice([row for row in matches if row[1] == "active"])[0]
    stale = rng.choice([version - 1, version + 50, 0])
    nowhere = NO_MATCH + rng.randrange(1000)
    custom_id = rng.choice([
        f"gn:lobby:{rng.choice(['join', 'leave', 'start', 'cancel'])}:{nowhere}",
        f"gn:lobby:{rng.choice(['join', 'leave', 'start', 'cancel'])}:{started}",
        f"gn:rematch:{started}",
        f"gn:rematch:{nowhere}",
        f"gn:ddz:{rng.choice(['pass', 'bid0', 'bid1', 'bid3', 'next', 'stop'])}:{match_id}:{stale}",
        f"gn:ddz:pass:{nowhere}:1", f"gn:ddz:play:{match_id}:{stale}",
        f"reversi:move:{match_id}", f"doudizhu:play:{match_id}", junk(rng, length=40),
    ])
    if rng.random() < .3:  # either kind, whatever today's control of that id is
        component = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                     "options": [{"label": "33", "value": "33"}]}
        data = {"custom_id": custom_id, "component_type": 3, "values": ["33"]}
    else:
        component = {"type": 2, "style": 1, "label": "Old", "custom_id": custom_id}
        data = {"custom_id": custom_id, "component_type": 2}
    return data, [{"type": 1, "components": [component]}]


def component_input(rng, messages, users, matches):
    """(user, message, data, components or None) for one malformed component interaction."""
    user = rng.choice(users)
    message = rng.choice(messages)
    controls = [c for c in message.all_components() if c.get("custom_id")]
    if rng.random() < .25 or not controls:  # (a message may have lost its controls)
        data, components = old_component(rng, matches)
        return user, message, data, components
    known = {c["custom_id"] for c in controls}
    component = rng.choice(controls)
    custom_id = component["custom_id"]
    kind = component["type"]
    roll = rng.random()
    if roll < .5:  # a custom id that does not parse or that no current control knows
        while custom_id in known:
            custom_id = mutate(rng, custom_id)
    elif roll < .75:  # the right id with the wrong component type
        kind = rng.choice([t for t in (2, 3, 4, 5, 6, 7, 8, 99) if t != kind])
    elif kind == 3:  # values not among the options
        data = {"custom_id": custom_id, "component_type": 3,
                "values": [junk(rng) for _ in range(rng.randint(1, 2))]}
        return user, message, data, None
    else:
        kind = 3
    data: dict = {"custom_id": custom_id, "component_type": kind}
    if kind in (3, 5, 6, 7, 8) or rng.random() < .2:
        data["values"] = rng.choice([[junk(rng)], [], [str(user.id)], [1, None], "33"])
    return user, message, data, None


def bad_value(rng: random.Random, option_type: int):
    """A value of the wrong JSON type, or one out of range, for an option of `option_type`."""
    wrong = [[], {"a": 1}, None, True, 1.5, 10**30, -1, 99, "", junk(rng),
             "123456789012345678901234567890"]
    if option_type == 3:
        wrong = [w for w in wrong if not isinstance(w, str)] + ["sideways", "x" * 7000]
    return rng.choice(wrong)


def leaf_commands(synced: list[dict]):
    """(path of names, options) of every invocable command."""
    for command in synced:
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if not subs:
            yield [command["name"]], command.get("options", [])
        for sub in subs:
            yield [command["name"], sub["name"]], sub.get("options", [])


def nest(path: list[str], options: list[dict], synced: dict) -> dict:
    data = {"id": synced[path[0]]["id"] if path[0] in synced else str(NO_MATCH), "type": 1,
            "name": path[0], "options": options}
    if len(path) > 1:
        data["options"] = [{"name": path[1], "type": 1, "options": options}]
    return data


def good_options(rng, options, users, *, garbage: bool) -> list[dict]:
    """Well-formed values for every option (garbage in the strings when `garbage`)."""
    built = []
    for option in options:
        if not option.get("required") and rng.random() < .5:
            continue
        if option.get("choices"):
            value = rng.choice(option["choices"])["value"]
        elif option["type"] == 4:
            value = rng.randint(option.get("min_value", 1), option.get("max_value", 3))
        elif option["type"] == 6:
            value = str(rng.choice(users).id)
        else:
            value = junk(rng) if garbage else "a1"
        built.append({"name": option["name"], "type": option["type"], "value": value})
    return built


def command_input(rng, synced_list, users):
    """(autocomplete?, data) for one malformed command or odd autocomplete: every command has
    at least one defect, so none may be carried out."""
    synced = {c["name"]: c for c in synced_list}
    path, options = rng.choice(list(leaf_commands(synced_list)))
    built = good_options(rng, options, users, garbage=True)
    required = [o for o in built if any(d["name"] == o["name"] and d.get("required")
                                         for d in options)]
    kind = rng.randrange(10)
    if kind in (7, 8):  # autocomplete, sometimes for an option that has none
        chosen = dict(rng.choice(options)) if options else {"name": "x", "type": 3}
        built = [o for o in built if o["name"] != chosen["name"]]
        focused = {"name": chosen["name"], "type": chosen["type"], "focused": True,
                   "value": rng.choice([junk(rng), "", "d", "1", "a", "3", "33"])}
        if kind == 8:
            focused.update(rng.choice([{"name": junk(rng, length=5)}, {"focused": False},
                                       {"type": 4, "value": "x"}, {"value": 7}]))
        return True, nest(path, built + [focused], synced)
    if kind == 0:  # an unknown command
        path = [junk(rng, length=8)] + path[1:]
    elif kind == 1:  # an unknown subcommand, or a group without one
        path = [path[0]] + ([junk(rng, length=8)] if rng.random() < .5 else [])
    elif kind == 2 and required:  # a required option missing
        built.remove(rng.choice(required))
    elif kind == 4 and built:  # the wrong type code, as after a changed option
        option = rng.choice(built)
        option["type"] = rng.choice([t for t in (3, 4, 5, 6, 7, 8, 10, 11)
                                     if t != option["type"]])
    elif kind == 5 and built:  # a value of the wrong kind, or out of range
        option = rng.choice(built)
        option["value"] = bad_value(rng, option["type"])
    elif kind == 6 and built:  # a member option that names nobody
        option = rng.choice(built)
        option.update(type=6, value=rng.choice(["notanid", "0", str(NO_MATCH), "-5", ""]))
    elif kind == 9:  # options in a shape no version of Discord sends
        built = rng.choice([None, {}, "x", [1], [{"name": ["a"], "type": 3, "value": "x"}],
                            [{"name": "a", "type": 1, "options": None}], [[]]])
    elif kind == 3 or not free_strings(built, options):  # an option this version lacks
        built.append({"name": junk(rng, length=6), "type": rng.choice([3, 4, 5]),
                      "value": rng.choice(["x", 3, True])})
    return False, nest(path, built, synced)


def free_strings(built: list[dict], options: list[dict]) -> bool:
    """Whether junk went into a string option without choices (no command takes it)."""
    free = {o["name"] for o in options if o["type"] == 3 and not o.get("choices")}
    return any(o["name"] in free for o in built)


# --------------------------------------------------------------------------- the test


def send_one(fake, rng, messages, people, places, matches, synced):
    """One malformed input, sent without waiting: half components, half commands, and now and
    then a form no version of the bot shows any more."""
    if rng.random() < .02:
        form = {"custom_id": mutate(rng, "gn:form:1"), "components": []}
        return fake.dispatch_raw(5, rng.choice(people), rng.choice(places), form)
    if rng.random() < .5:
        user, message, data, components = component_input(rng, messages, people, matches)
        return fake.dispatch_raw(3, user, None, data, message=message, components=components)
    autocomplete, data = command_input(rng, synced, people)
    return fake.dispatch_raw(4 if autocomplete else 2, rng.choice(people), rng.choice(places),
                             data)


def problems_with(interaction, requests) -> list[str]:
    """What is wrong with how the bot answered one input."""
    found = []
    callbacks = [r for r in requests if r.method == "POST"
                 and r.path.startswith(f"/interactions/{interaction.id}/")]
    if len(callbacks) != 1 or (callbacks[0].status or 500) >= 400:
        found.append(f"{len(callbacks)} responses ({[r.status for r in callbacks]})")
    if interaction.response_type == 8:
        return found
    if interaction.response_type not in (4, 5):
        found.append(f"response type {interaction.response_type}")
    shown = [interaction.original] + interaction.followups
    if not all(message is None or message.ephemeral for message in shown):
        found.append("an answer others can see")
    return found


def public_messages(fake, places):
    """Every message anyone but its addressee can see, with when it was last edited."""
    return [(m.id, m.edited_at, m.deleted) for place in places for m in fake.messages(place)]


async def test_a_few_thousand_unreadable_inputs_each_get_one_quiet_answer(world, tmp_path):
    fake, guild, _, users = world
    people = list(users.values())  # dave is seated nowhere
    log = TracebackLog()
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        channels = await set_the_tables(fake, guild, users, bot)
        places = list(channels.values()) + people
        messages = [m for place in places for m in fake.messages(place)
                    if any(c.get("custom_id") for c in m.all_components())]
        kinds = {c["custom_id"].split(":")[1] for m in messages for c in m.all_components()
                 if c.get("custom_id", "").startswith("gn:")}
        assert {"lobby", "rematch", "ddz"} <= kinds, kinds
        before, posted = await snapshot(bot, channels), public_messages(fake, places)
        synced = fake.commands(guild)
        rng = random.Random(SEED)
        errors, failures = len(fake.errors), []
        logging.getLogger().addHandler(log)
        try:
            for first in range(0, INPUTS, BATCH):  # a few at once, as a busy server sends them
                sent_from = len(fake.request_log)
                sent = [await send_one(fake, rng, messages, people, places, before, synced)
                        for _ in range(min(BATCH, INPUTS - first))]
                await fake.wait_idle()
                for number, interaction in enumerate(sent, first):
                    found = problems_with(interaction, fake.request_log[sent_from:])
                    if found:
                        failures.append(f"#{number} {interaction.data}: {found}")
        finally:
            logging.getLogger().removeHandler(log)
        assert not failures, f"{len(failures)} of {INPUTS} badly answered:\n" + "\n".join(
            failures[:15])
        assert fake.errors[errors:] == [] and log.records == []
        assert public_messages(fake, places) == posted
        assert await snapshot(bot, channels) == before


# --------------------------------------------------------------------------- one of each


async def test_a_button_from_an_older_version_is_answered_quietly(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "reversi new")
        old = [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Join", "custom_id": "reversi:join:1"}]}]
        result = await fake.raw_component(bob, lobby.message, {
            "custom_id": "reversi:join:1", "component_type": 2}, components=old)
        assert result.ephemeral and "older version of this message" in result.content
        wrong_type = await fake.raw_component(bob, lobby.message, {
            "custom_id": lobby.message.buttons[0]["custom_id"], "component_type": 3,
            "values": ["x"]})
        assert wrong_type.ephemeral and "older version" in wrong_type.content
        match = await bot.service.current(channel.id)
        assert len(match.seats) == 1 and match.row.version == 0
        assert not result.channel_messages and not wrong_type.edited


async def test_a_command_that_changed_since_the_client_synced_is_answered(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        synced = {c["name"]: c for c in fake.commands(guild)}

        def command(name, sub, options):
            return {"id": synced[name]["id"], "type": 1, "name": name,
                    "options": [{"name": sub, "type": 1, "options": options}]}

        missing = await fake.raw_command(alice, channel, command("reversi", "move", []))
        typed = await fake.raw_command(alice, channel, command(
            "scrabble", "exchange", [{"name": "tiles", "type": 4, "value": 3}]))
        gone = await fake.raw_command(alice, channel, command("match", "undo", []))
        for reply in (missing, typed, gone):
            assert reply.ephemeral and "changed since your Discord app" in reply.content
        assert not missing.errors and not typed.errors and not gone.errors


async def test_a_value_out_of_range_names_the_range_and_dms_hear_where_commands_work(
        world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        synced = {c["name"]: c for c in fake.commands(guild)}
        buy = {"id": synced["patchwork"]["id"], "type": 1, "name": "patchwork", "options": [
            {"name": "buy", "type": 1, "options": [
                {"name": "patch", "type": 4, "value": 7},
                {"name": "square", "type": 3, "value": "a1"},
                {"name": "orientation", "type": 3, "value": "0"}]}]}
        far = await fake.raw_command(alice, channel, buy)
        assert far.ephemeral and far.content == "`patch` takes 1 to 3."
        new = {"id": synced["reversi"]["id"], "type": 1, "name": "reversi",
               "options": [{"name": "new", "type": 1, "options": []}]}
        in_dm = await fake.raw_command(alice, alice, new)
        assert in_dm.ephemeral
        assert in_dm.content == "That command works in a server channel, not here."
        assert await bot.store.latest_match_in(fake.dm_channel(alice).id) is None


async def test_an_odd_autocomplete_gets_an_empty_list(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        synced = {c["name"]: c for c in fake.commands(guild)}
        no_autocomplete = {"id": synced["reversi"]["id"], "type": 1, "name": "reversi",
                           "options": [{"name": "new", "type": 1, "options": [
                               {"name": "opponent", "type": 6, "value": "b", "focused": True}]}]}
        unknown = {"id": "1", "type": 1, "name": "chess", "options": [
            {"name": "move", "type": 3, "value": "e4", "focused": True}]}
        for data in (no_autocomplete, unknown):
            result = await fake.raw_command(alice, channel, data, autocomplete=True)
            assert result.response_type == 8 and result.choices == [] and not result.errors
