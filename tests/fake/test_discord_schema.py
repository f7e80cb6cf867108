"""The fake Discord refuses what Discord would refuse: request bodies are checked against Discord's
OpenAPI document (tests/fakediscord/discord_schema.py), and a refused body fails the test that
sent it."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import discord
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import bot.ui.error_replies
from tests.e2e_helpers import fake_world, running_bot
from tests.fakediscord import UNEXPECTED_VIOLATIONS, BotError, discord_schema
from tests.fakediscord.discord_schema import check_request, form_errors

CALLBACK = "/interactions/1/itoken.1.abc/callback"
MESSAGES = "/channels/2/messages"


def button(custom_id: str = "reversi:join:1", **extra) -> dict:
    return {"type": 2, "style": 1, "label": "Join", "custom_id": custom_id, **extra}


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def reply(**data) -> dict:
    return {"type": 4, "data": data}


def where(problems) -> list[str]:
    return [".".join(map(str, p.where)) for p in problems]


GOOD_BOARD = reply(
    content="<@101> to move", allowed_mentions={"parse": ["users"]},
    embeds=[{"title": "Reversi", "description": "Black 2 · White 2", "color": 0x2B7A4B,
             "image": {"url": "attachment://board.png"}, "fields": [{"name": "Turn", "value": "black"}]}],
    attachments=[{"id": 0, "filename": "board.png", "description": "The board"}],
    components=[row(button("a"), button("b"), {**button(), "style": 5, "custom_id": None,
                                               "url": "https://discord.com/channels/1/2/3"}),
                row({"type": 3, "custom_id": "pick", "min_values": 1, "max_values": 1,
                     "options": [{"label": str(i), "value": str(i)} for i in range(25)]})],
)


def test_a_good_message_is_accepted_on_every_route_the_bot_uses():
    data = GOOD_BOARD["data"]
    assert check_request("POST", CALLBACK, GOOD_BOARD) == []
    assert check_request("POST", CALLBACK, {"type": 7, "data": data}) == []
    assert check_request("POST", MESSAGES, data) == []
    assert check_request("PATCH", f"{MESSAGES}/3", data) == []
    assert check_request("POST", "/webhooks/1/itoken.1.abc", {**data, "flags": 64}) == []
    assert check_request("PATCH", "/webhooks/1/itoken.1.abc/messages/@original", data) == []
    assert check_request("POST", "/users/@me/channels", {"recipient_id": "101"}) == []
    assert check_request("POST", "/channels/2/typing", None) == []


def test_too_long_is_refused_with_discords_error_path():
    too_long = check_request("POST", CALLBACK, reply(content="x" * 2001))
    assert where(too_long) == ["data.content"]
    assert form_errors(too_long) == {"data": {"content": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}}
    # a channel message: the document allows 4000 (Nitro users); a bot still gets 2000
    assert where(check_request("POST", MESSAGES, {"content": "x" * 2001})) == ["content"]
    assert check_request("POST", MESSAGES, {"content": "x" * 2000}) == []
    title = check_request("POST", MESSAGES, {"embeds": [{"title": "t" * 257}]})
    assert where(title) == ["embeds.0.title"]
    six_thousand = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert where(check_request("POST", MESSAGES, {"embeds": six_thousand})) == ["embeds"]
    label = check_request("POST", CALLBACK, reply(components=[row(button(label="L" * 81))]))
    assert where(label) == ["data.components.0.components.0.label"]


def test_wrong_types_are_refused():
    assert where(check_request("POST", MESSAGES, {"content": 5})) == ["content"]
    assert where(check_request("POST", CALLBACK, reply(flags="ephemeral"))) == ["data.flags"]
    assert where(check_request("POST", CALLBACK, reply(tts="yes"))) == ["data.tts"]
    assert [p.code for p in check_request("POST", CALLBACK, {"type": 3})] == ["UNION_TYPE_CHOICES"]
    assert where(check_request("POST", CALLBACK, {"data": {"content": "hi"}})) != []
    assert where(check_request("POST", MESSAGES, {"embeds": {"title": "not a list"}})) == ["embeds"]
    commands = [{"name": "reversi", "description": "Play", "options": [{"type": 1, "name": "new"}]}]
    assert where(check_request("PUT", "/applications/1/guilds/2/commands", commands)) == ["0.options.0"]


@pytest.mark.parametrize("components, at", [
    ([row(button(str(i))) for i in range(6)], "data.components"),
    ([row(*(button(str(i)) for i in range(6)))], "data.components.0.components"),
    ([row(button(), {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]})],
     "data.components.0.components"),
    ([row({"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]})],
     "data.components.0.components.0.options"),
    ([row(button("c" * 101))], "data.components.0.components.0.custom_id"),
    ([row(button("same"), button("same"))], "data.components.0.components.1.custom_id"),
    ([row(button(url="https://example.com"))], "data.components.0.components.0"),
    ([row({"type": 2, "style": 5, "label": "Open"})], "data.components.0.components.0"),
    ([row({"type": 3, "custom_id": "s", "max_values": 2, "options": [{"label": "a", "value": "a"}]})],
     "data.components.0.components.0"),
    ([button()], "data.components.0"),
])
def test_components_discord_would_refuse(components, at):
    assert at in where(check_request("POST", CALLBACK, reply(components=components)))


def test_command_sync_rules_beyond_the_schema():
    route = "/applications/1/guilds/2/commands"
    good = {"name": "reversi", "description": "Play Reversi", "options": [
        {"type": 1, "name": "move", "description": "Place a disc", "options": [
            {"type": 3, "name": "square", "description": "Like d3", "required": True, "autocomplete": True},
            {"type": 5, "name": "quiet", "description": "Only tell me"}]}]}
    assert check_request("PUT", route, [good]) == []
    late = [{**good, "options": [{**good["options"][0], "options": good["options"][0]["options"][::-1]}]}]
    assert where(check_request("PUT", route, late)) == ["0.options.0.options.1.required"]
    assert where(check_request("PUT", route, [{**good, "name": "Reversi"}])) == ["0.name"]
    assert where(check_request("PUT", route, [{**good, "description": ""}])) == ["0.description"]


def test_command_localizations_follow_the_same_rules():
    route = "/applications/1/guilds/2/commands"
    options = [{"type": 3, "name": "square", "description": "Like d3",
                "name_localizations": {"zh-TW": "格子"}},
               {"type": 5, "name": "quiet", "description": "Only tell me",
                "name_localizations": {"zh-TW": "安靜"}}]
    good = {"name": "reversi", "description": "Play Reversi", "options": options,
            "name_localizations": {"zh-TW": "黑白棋"},
            "description_localizations": {"zh-TW": "下黑白棋"}}
    assert check_request("PUT", route, [good]) == []
    spaced = {**good, "name_localizations": {"zh-TW": "黑白 棋"}}
    assert where(check_request("PUT", route, [spaced])) == ["0.name_localizations.zh-TW"]
    long = {**good, "description_localizations": {"zh-CN": "长" * 101}}
    assert where(check_request("PUT", route, [long])) == ["0.description_localizations.zh-CN"]
    twins = {**good, "options": [options[0], {**options[1], "name_localizations": {"zh-TW": "格子"}}]}
    assert where(check_request("PUT", route, [twins])) == ["0.options"]


def test_routes_are_matched_by_the_documents_paths_and_methods():
    find = discord_schema.find_operation
    assert find("PATCH", "/webhooks/1/tok/messages/@original").template.endswith("/@original")
    assert find("PATCH", "/webhooks/1/tok/messages/55").template.endswith("/{message_id}")
    assert find("PUT", "/applications/1/commands").template == "/applications/{application_id}/commands"
    assert find("POST", "/interactions/1/tok/callback").template.endswith("/callback")
    assert find("PUT", "/channels/1/messages") is None
    assert [p.code for p in check_request("GET", "/channels/1/nonsense", None)] == ["UNKNOWN_ROUTE"]
    assert [p.code for p in check_request("POST", MESSAGES, None)] == ["BASE_TYPE_REQUIRED"]


def test_schemas_are_compiled_once_per_process():
    assert discord_schema.operations() is discord_schema.operations()


def test_document_fault_snowflakes_sent_as_integers():
    """The document types every snowflake as a string. Discord reads integers too, and discord.py
    relies on it: every upload is described as {"id": <index of its file part>}, an integer. Without
    the override in SCHEMA_OVERRIDES every message with an image would be refused."""
    upload = discord.File(io.BytesIO(b"png"), filename="board.png").to_dict(0)
    assert upload == {"id": 0, "filename": "board.png"}
    body = {"content": "the board", "attachments": [upload]}
    raw = json.loads(gzip.decompress(discord_schema.DOCUMENT.read_bytes()))
    registry = Registry().with_resource("urn:raw", Resource(raw, DRAFT202012))
    as_published = Draft202012Validator({"$ref": "urn:raw#/components/schemas/MessageCreateRequest"},
                                        registry=registry)
    assert [e.json_path for e in as_published.iter_errors(body)] == ["$.attachments[0].id"]
    assert check_request("POST", MESSAGES, body) == []
    assert where(check_request("POST", MESSAGES, {**body, "attachments": [{"id": -1}]})) == ["attachments.0.id"]
    assert set(discord_schema.SCHEMA_OVERRIDES) == {"SnowflakeType"}  # each one shown by a test here


async def test_a_reply_discord_would_refuse_is_refused_recorded_and_fails(tmp_path, monkeypatch):
    """A bot reply of 2001 characters: the fake answers 400 50035 with the error path, records it,
    and the interaction fails (the autouse fixture would fail the test as well; see below)."""
    monkeypatch.setattr(bot.ui.error_replies, "MAX_REPLY", 5000)
    monkeypatch.setattr(bot.ui.error_replies, "explain", lambda error, presenters=None: "N" * 2001)
    async with fake_world("reversi", ("alice",)) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id):
            with pytest.raises(BotError, match=r"Discord would refuse POST /interactions/.*"
                                               r"data\.content: Must be 2000 or fewer in length"):
                await fake.slash(users["alice"], channel, "reversi move", square="d3")
            refused = [r for r in fake.request_log if r.status == 400]
            assert [r.path.endswith("/callback") for r in refused] == [True]
            [violation] = fake.schema_violations
            assert len(violation.body["data"]["content"]) == 2001
            assert UNEXPECTED_VIOLATIONS == [violation]
            with fake.expect_invalid_requests() as seen:  # for a test that means to send one
                result = await fake.slash(users["alice"], channel, "reversi move", square="d3")
            assert [v.expected for v in seen] == [True] and not result.errors
            assert result.response_type is None and UNEXPECTED_VIOLATIONS == [violation]
    UNEXPECTED_VIOLATIONS.clear()  # this test sent it on purpose


def test_a_refused_request_fails_the_test_even_when_errors_are_expected(tmp_path):
    """Run a test that hides bot errors (expect_errors) in a fresh pytest: the shared fixture still
    fails it, so a test that drives the bot cannot skip the check."""
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    (tmp_path / "conftest.py").write_text("from tests.conftest import discord_accepts_every_request  # noqa\n")
    (tmp_path / "test_inner.py").write_text(textwrap.dedent("""
        import bot.ui.error_replies
        from tests.e2e_helpers import fake_world, running_bot

        async def test_long_reply(tmp_path, monkeypatch):
            monkeypatch.setattr(bot.ui.error_replies, "MAX_REPLY", 5000)
            monkeypatch.setattr(bot.ui.error_replies, "explain",
                                lambda error, presenters=None: "N" * 2001)
            async with fake_world("reversi", ("alice",)) as (fake, guild, channel, users):
                async with running_bot(fake, tmp_path / "g.db", guild.id):
                    with fake.expect_errors():
                        await fake.slash(users["alice"], channel, "reversi move", square="d3")
    """))
    env = {**os.environ, "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_inner.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "ERROR test_inner.py::test_long_reply" in run.stdout
    assert "Discord would refuse these requests" in run.stdout
    assert "data.content: Must be 2000 or fewer in length." in run.stdout


def test_a_oneof_becomes_anyof_only_where_no_value_matches_two_branches():
    """The speed-up keeps the document's meaning: anyOf and oneOf accept the same values exactly
    when no value can match two branches."""
    def union(*branches):
        doc = {"components": {"schemas": {"Snowflake": {"type": "string"}}}, "x": {"oneOf": list(branches)}}
        return discord_schema._for_speed(doc)["x"]

    tagged = [{"type": "object", "properties": {"type": {"enum": [2]}}},
              {"type": "object", "properties": {"type": {"enum": [3, 4]}}}]
    assert "anyOf" in union(*tagged) and union(*tagged)[discord_schema.TAGS] == {"2": 0, "3": 1, "4": 1}
    assert "anyOf" in union({"type": "null"}, {"$ref": "#/components/schemas/Snowflake"})
    assert "anyOf" in union({"const": 1}, {"const": 2})
    assert "oneOf" in union({"type": "object"}, {"type": "object", "properties": {"type": {"enum": [2]}}})
    assert "oneOf" in union({"type": "integer"}, {"type": "number"})
    assert "oneOf" in union({"const": "a"}, {"type": "string"})
    assert "oneOf" in union({"minimum": 1}, {"type": "null"})
