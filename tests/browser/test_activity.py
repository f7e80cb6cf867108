"""The Discord Activity in Chromium with the real SDK (bot/web/static/activity-sdk.js, built
from web/), inside a test page that plays the Discord client around its frame: the SDK's
handshake and commands over postMessage (HANDSHAKE answered with the READY dispatch, AUTHORIZE
with a code the fake Discord issued, AUTHENTICATE with the user), against the real bot and the
fake Discord. The page signs in, shows the channel's match, and a click on a legal square makes
the move the bot commits and posts; the move of a slash command shows up without a reload."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.browser.harness import NODE_MODULES, REQUIRED, ROOT, axe_violations, describe, record_errors
from tests.e2e_helpers import board_message, fake_world, mentioned_ids, running_bot

# Discord's side of the SDK's protocol (@discord/embedded-app-sdk, output/Discord.mjs):
# opcodes HANDSHAKE 0 and FRAME 1; commands answered by nonce; events with cmd DISPATCH.
PARENT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Discord, as the test plays it</title></head>
<body><iframe id="activity" title="Gamenight" width="1200" height="760"></iframe>
<script>
const world = %(world)s;
const seen = window.seen = [];
const frame = document.getElementById("activity");
function send(payload) { frame.contentWindow.postMessage([1, payload], "*"); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode === 0) {
    seen.push({handshake: data});
    send({cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"},
      user: {id: world.user.id, username: world.user.username, discriminator: "0"}}});
  } else if (opcode === 1) {
    seen.push({cmd: data.cmd, args: data.args});
    if (data.cmd === "AUTHORIZE") {
      send({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: world.code}});
    } else if (data.cmd === "AUTHENTICATE") {
      send({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
        access_token: data.args.access_token, scopes: ["identify"],
        expires: new Date(Date.now() + 604800000).toISOString(),
        user: {id: world.user.id, username: world.user.username, discriminator: "0",
               public_flags: 0},
        application: {id: world.client_id, name: "Gamenight", description: ""}}});
    }
  }
});
frame.src = world.src;
</script></body></html>"""


def test_the_committed_sdk_bundle_is_what_web_builds(tmp_path):
    """bot/web/static/activity-sdk.js is esbuild's bundle of the pinned SDK (npm run build)."""
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    if not esbuild.exists():
        (pytest.fail if REQUIRED else pytest.skip)("web/node_modules has no esbuild: npm ci --prefix web")
    scripts = json.loads((ROOT / "web" / "package.json").read_text())["scripts"]
    command = scripts["build"].replace("../bot/web/static/activity-sdk.js",
                                       str(tmp_path / "sdk.js"))
    subprocess.run(command, shell=True, cwd=ROOT / "web", check=True, capture_output=True,
                   env={"PATH": f"{NODE_MODULES / '.bin'}:/usr/bin:/bin"})
    built = (tmp_path / "sdk.js").read_bytes()
    assert built == (ROOT / "bot" / "web" / "static" / "activity-sdk.js").read_bytes()


async def open_in_discord(page, base: str, fake, user, instance: str, channel) -> None:
    """The test's Discord page (served at the bot's own origin, as the SDK's allowed origins
    and the Activity's frame-ancestors 'self' allow) framing the Activity."""
    query = (f"frame_id=frame-1&instance_id={instance}&platform=desktop"
             f"&guild_id={channel.guild.id}&channel_id={channel.id}")
    world = {"code": fake.oauth_code(user), "client_id": str(fake.application_id),
             "user": {"id": str(user.id), "username": user.name},
             "src": f"{base}/activity/?{query}"}
    parent = PARENT % {"world": json.dumps(world)}

    async def serve(route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=parent)

    await page.route(f"{base}/discord-test/parent", serve)
    await page.goto(f"{base}/discord-test/parent")


async def test_the_activity_signs_in_shows_the_match_and_a_click_moves(page, tmp_path):
    from playwright.async_api import expect

    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            black = alice if mentioned_ids(board.content)[0] == alice.id else bob
            white = bob if black is alice else alice
            instance = fake.launch_activity(channel, [alice, bob])
            base = f"http://127.0.0.1:{bot.web.port}"
            errors = record_errors(page)
            await open_in_discord(page, base, fake, black, instance, channel)

            activity = page.frame_locator("#activity")
            await expect(activity.locator("#activity")).to_have_attribute("data-signed-in", "true")
            await expect(activity.locator("#live img")).to_be_visible()
            seen = await page.evaluate("() => window.seen")
            assert seen[0]["handshake"]["client_id"] == str(fake.application_id)
            assert seen[0]["handshake"]["frame_id"] == "frame-1"
            assert [s.get("cmd") for s in seen[1:]] == ["AUTHORIZE", "AUTHENTICATE"]
            assert seen[1]["args"]["scope"] == ["identify"]

            square = activity.locator('#grid button[data-square="d3"]')
            await expect(square).to_be_enabled()
            assert await activity.locator("#grid button:enabled").count() == 4
            match = await bot.service.current(channel.id)
            version = match.row.version
            await square.click()
            await expect(activity.locator("#answer")).to_have_text("Done: your move is on the board.")
            moved = await bot.service.current(channel.id)
            assert moved.row.version > version and moved.current_seat() != moved.seat_of(black.id)
            await expect(activity.locator("#live .moves li")).to_have_count(1)
            await expect(activity.locator("#grid button:enabled")).to_have_count(0)
            await fake.wait_idle()
            assert any("d3" in m.text() and m.attachments for m in fake.messages(channel))

            # the other player's slash command shows up in the frame without a reload
            await fake.slash(white, channel, "reversi move", square="c3")
            await expect(activity.locator("#live .moves li")).to_have_count(2)
            await expect(activity.locator("#grid button:enabled").first).to_be_enabled()

            frame = page.frames[1]
            found = await axe_violations(frame)
            assert not found, describe(found)
            assert not [e for e in errors if "Content Security Policy" in e or "uncaught" in e], errors


async def test_the_activity_follows_the_channels_next_match(page, tmp_path):
    """Once the shown match is over the page asks again (timers on Playwright's clock, not a
    real wait): a new lobby in the channel is shown without a reload."""
    from playwright.async_api import expect

    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            await fake.click(bob, lobby.message, label="Join")
            instance = fake.launch_activity(channel, [alice, bob])
            base = f"http://127.0.0.1:{bot.web.port}"
            await page.clock.install()
            await open_in_discord(page, base, fake, bob, instance, channel)
            activity = page.frame_locator("#activity")
            await expect(activity.locator("#activity")).to_have_attribute("data-signed-in", "true")
            await expect(activity.locator("#seat")).to_be_visible()

            await fake.slash(alice, channel, "match cancel")
            await expect(activity.locator("#live")).to_contain_text("cancelled")
            await fake.slash(alice, channel, "reversi new")
            new = await bot.service.current(channel.id)
            await page.clock.run_for(6000)
            await expect(activity.locator("#live .match")).to_have_attribute(
                "data-version", str(new.row.version))
            await expect(activity.locator("#notice")).to_have_text("You are watching this match.")


async def test_a_seated_player_sees_their_own_hand_drawn(page, tmp_path):
    """Dou Dizhu in the Activity: the seated player's hand as its DMs draw it, with its alt
    text, and axe finds nothing serious."""
    from playwright.async_api import expect

    people = ("alice", "bob", "cleo")
    async with fake_world("doudizhu", people) as (fake, guild, channel, users):
        alice, bob, cleo = (users[name] for name in people)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0",
                               activity=True) as bot:
            lobby = await fake.slash(alice, channel, "doudizhu new", players=3)
            for user in (bob, cleo):
                await fake.click(user, lobby.message, label="Join")
            instance = fake.launch_activity(channel, [alice, bob, cleo])
            errors = record_errors(page)
            await open_in_discord(page, f"http://127.0.0.1:{bot.web.port}", fake, cleo,
                                  instance, channel)
            activity = page.frame_locator("#activity")
            await expect(activity.locator("#activity")).to_have_attribute("data-signed-in", "true")
            mine = activity.locator("#mine")
            await expect(mine).to_be_visible()
            await expect(mine).to_have_attribute("alt", re.compile(r"^Your hand: \w"))
            drawn = await mine.evaluate("i => i.complete && i.naturalWidth")
            assert drawn and drawn > 300, drawn
            clock = activity.locator("#live time.deadline")
            await expect(clock).to_have_text(re.compile(r"^\d+(:\d\d)+$"))  # counting down
            found = await axe_violations(page.frames[1])
            assert not found, describe(found)
            assert not [e for e in errors if "Content Security Policy" in e or "uncaught" in e], errors
