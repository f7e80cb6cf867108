"""The fake's own answers are checked against Discord's OpenAPI document
(tests/fakediscord/response_schema.py) on the routes of scheduled events and thread members:
an answer Discord would never give is a fault of the fake, and fails the test that got it."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta, timezone

import aiohttp
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.fakediscord import UNEXPECTED_VIOLATIONS, FakeDiscord, Perm, discord_schema, events
from tests.fakediscord.response_schema import RESPONSE_OVERRIDES, check_response
from tests.fakediscord.world import FakeGuild, FakeUser

EVENT = "/guilds/1/scheduled-events/2"


def an_event() -> events.FakeScheduledEvent:
    start = datetime(2030, 1, 1, 20, tzinfo=timezone.utc)
    guild = FakeGuild(1, "Club", owner_id=3)
    return events.FakeScheduledEvent(2, guild, "Night", start, start + timedelta(hours=3), "Hall",
                                     FakeUser(3, "mod"))


def test_the_fakes_event_matches_the_document_and_a_broken_one_does_not():
    event = an_event()
    assert check_response("GET", EVENT, 200, event.payload(with_user_count=True)) == []
    assert check_response("GET", "/guilds/1/scheduled-events", 200, [event.payload()]) == []
    users = [event.user_payload(FakeUser(4, "alice"), with_member=True)]
    assert check_response("GET", EVENT + "/users", 200, users) == []
    without_status = {k: v for k, v in event.payload().items() if k != "status"}
    assert check_response("GET", EVENT, 200, without_status) != []
    assert check_response("GET", EVENT, 200, {**event.payload(), "entity_metadata": None}) != []
    assert [p.code for p in check_response("DELETE", EVENT, 204, {"id": "2"})] == ["UNEXPECTED_BODY"]
    assert check_response("DELETE", EVENT, 204, None) == []
    assert [p.code for p in check_response("GET", EVENT, 302, None)] == ["UNDOCUMENTED_STATUS"]
    assert check_response("GET", EVENT, 503, {"message": "injected failure", "code": 0}) == []


def test_document_fault_form_errors_carry_words_as_codes():
    """The document gives the reasons under a field of a 400 50035 the top-level error's
    integer code; Discord's carry words (its own example: BASE_TYPE_REQUIRED). Without the
    override in RESPONSE_OVERRIDES every Invalid Form Body would count as an answer Discord
    never gives."""
    answer = {"code": 50035, "message": "Invalid Form Body",
              "errors": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED",
                                                "message": "This field is required"}]}}}
    raw = json.loads(gzip.decompress(discord_schema.DOCUMENT.read_bytes()))
    registry = Registry().with_resource("urn:raw", Resource(raw, DRAFT202012))
    as_published = Draft202012Validator({"$ref": "urn:raw#/components/schemas/ErrorResponse"},
                                        registry=registry)
    assert not as_published.is_valid(answer)
    assert check_response("POST", "/guilds/1/scheduled-events", 400, answer) == []
    assert check_response("POST", "/guilds/1/scheduled-events", 400, {"code": "x"}) != []
    assert set(RESPONSE_OVERRIDES) == {"InnerErrors"}  # each one shown by a test here


async def test_a_wrong_answer_of_the_fake_is_recorded_and_fails(monkeypatch):
    broken = lambda self, **kw: {"id": str(self.id)}  # noqa: E731
    async with FakeDiscord(bot_permissions=Perm.BOT_DEFAULT | Perm.MANAGE_EVENTS) as fake:
        guild = fake.add_guild("Club")
        mod = fake.add_user("mod")
        fake.add_member(guild, mod, permissions=Perm.MANAGE_EVENTS)
        start = datetime.now(timezone.utc) + timedelta(days=1)
        event = await fake.add_scheduled_event(guild, mod, "Night", start=start,
                                               end=start + timedelta(hours=1), location="Hall")
        monkeypatch.setattr(events.FakeScheduledEvent, "payload", broken)
        url = f"{fake.api_base}/guilds/{guild.id}/scheduled-events/{event.id}"
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
            async with http.get(url) as answer:
                assert answer.status == 200
        [violation] = fake.schema_violations
        assert "(its 200 answer)" in violation.path and UNEXPECTED_VIOLATIONS == [violation]
        assert any("name" in str(p) for p in violation.problems)
        assert any("never answers" in e for e in fake.errors)
    UNEXPECTED_VIOLATIONS.clear()  # made on purpose
