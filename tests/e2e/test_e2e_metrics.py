"""The metrics endpoint, read over HTTP by a Prometheus-like scrape after a short Reversi game
played through the real bot and the fake Discord."""

from __future__ import annotations

from collections import Counter

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app.metrics import route_template
from tests.e2e_helpers import board_message, fake_world, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e


async def scrape(bot) -> tuple[str, dict[tuple[str, tuple], float]]:
    """The endpoint's text, and each sample's value by (name, sorted labels)."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{bot.metrics.port}/metrics") as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            text = await response.text()
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    return text, samples


def requests(samples, route: str, method: str = "POST") -> dict[str, float]:
    """Requests made on `route`, by status."""
    return {dict(labels)["status"]: value for (name, labels), value in samples.items()
            if name == "gamenight_discord_requests_total" and dict(labels)["route"] == route
            and dict(labels)["method"] == method}


def served(fake) -> Counter:
    """What the fake Discord answered, by (method, route template, status)."""
    return Counter(("GET", "/gateway", "101") if r.method == "WS"  # the websocket upgrade
                   else (r.method, route_template(r.path), str(r.status))
                   for r in fake.request_log)


def counted(samples) -> Counter:
    """What the bot counted, the same way."""
    return Counter({(dict(labels)["method"], dict(labels)["route"], dict(labels)["status"]): value
                    for (name, labels), value in samples.items()
                    if name == "gamenight_discord_requests_total"})


async def test_metrics_after_a_short_reversi_game(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0") as bot:
            _, before = await scrape(bot)
            assert before[("gamenight_matches_open", (("game", "reversi"),
                                                      ("status", "active")))] == 0
            lobby = await fake.slash(alice, channel, "reversi new")
            _, waiting = await scrape(bot)
            assert waiting[("gamenight_matches_open", (("game", "reversi"),
                                                       ("status", "lobby")))] == 1
            joined = await fake.click(bob, lobby.message, label="Join")
            black = users["alice"] if mentioned_ids(board_message(joined).content)[0] == alice.id \
                else users["bob"]
            illegal = await fake.slash(black, channel, "reversi move", square="a1")
            assert illegal.ephemeral
            moved = await fake.slash(black, channel, "reversi move", square="d3")
            assert not moved.ephemeral
            text, during = await scrape(bot)
            assert during[("gamenight_matches_open", (("game", "reversi"),
                                                      ("status", "active")))] == 1
            assert during[("gamenight_matches_open", (("game", "reversi"),
                                                      ("status", "lobby")))] == 0
            await fake.slash(alice, channel, "match resign")
            text, after = await scrape(bot)
            assert counted(after) == served(fake)  # every request, each with its answer

    interactions = 5  # new, Join, the refused move, the move, resign: each answered once
    assert requests(after, "/interactions/{id}/{token}/callback") == {"200": interactions}
    assert after[("gamenight_interaction_reply_seconds_count", ())] == interactions
    assert after[("gamenight_interaction_reply_seconds_sum", ())] > 0
    assert requests(after, "/applications/{id}/guilds/{id}/commands", "PUT") == {"200": 1}
    assert after[("gamenight_matches_open", (("game", "reversi"), ("status", "active")))] == 0
    assert after[("gamenight_discord_refused_last_10m", ())] == 0
    assert after[("gamenight_dms_refused_total", ())] == 0
    writes = after[("gamenight_db_write_seconds_count", (("operation", "record_action"),))]
    assert writes == 2  # the move and the resignation
    assert ("gamenight_event_loop_lag_seconds", ()) in after
    assert fake.token not in text and "{token}" in text
    for _, labels in after:
        assert not [v for k, v in labels if k not in ("status", "shard") and v.isdigit()]  # no ids


async def test_refused_dms_are_counted(tmp_path):
    async with fake_world("words", ("alice", "carol"), dms_closed=("carol",)) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0") as bot:
            lobby = await fake.slash(users["alice"], channel, "scrabble new", players=2)
            await fake.click(users["carol"], lobby.message, label="Join")
            _, samples = await scrape(bot)
            answered = served(fake)
    refused_dms = answered[("POST", "/channels/{id}/messages", "403")]
    assert refused_dms >= 1
    assert counted(samples) == answered
    assert samples[("gamenight_dms_refused_total", ())] == refused_dms
    refused = sum(n for (_, _, status), n in answered.items() if status in ("401", "403", "429"))
    assert samples[("gamenight_discord_refused_last_10m", ())] == refused
    assert samples[("gamenight_matches_open", (("game", "scrabble"), ("status", "active")))] == 1
