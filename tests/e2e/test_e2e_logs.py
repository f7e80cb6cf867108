"""LOG_FORMAT=json through the real bot and the fake Discord: a line logged while a move is
handled names the match, server and channel, and no line holds the token."""

from __future__ import annotations

import io
import json
import logging

import pytest

import games.reversi as reversi
from bot.app import logs
from tests.e2e_helpers import board_message, fake_world, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e


async def test_a_line_logged_while_a_move_is_saved_names_its_match_server_and_channel(tmp_path):
    out = io.StringIO()
    root = logging.getLogger()
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        handler = logs.handler("json", fake.token)
        handler.setStream(out)
        root.addHandler(handler)
        level, root.level = root.level, logging.INFO
        try:
            async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
                record_action = bot.store.record_action

                async def saving(match_id, *args, **kwargs):
                    logging.getLogger("tests.probe").info("saving a move of match %s", match_id)
                    return await record_action(match_id, *args, **kwargs)

                bot.store.record_action = saving

                async def arrived(interaction):
                    logging.getLogger("tests.probe").info("an interaction arrived")

                bot.add_listener(arrived, "on_interaction")
                lobby = await fake.slash(users["alice"], channel, "reversi new")
                joined = await fake.click(users["bob"], lobby.message, label="Join")
                black = next(u for u in users.values()
                             if u.id == mentioned_ids(board_message(joined).content)[0])
                match = await bot.service.current(channel.id)
                square = str(reversi.legal_moves(match.state, match.seat_of(black.id))[0])
                moved = await fake.slash(black, channel, "reversi move", square=square)
                assert not moved.ephemeral
                logging.getLogger("tests.probe").info("outside any interaction")
        finally:
            root.removeHandler(handler)
            root.setLevel(level)
    text = out.getvalue()
    assert fake.token not in text
    lines = [json.loads(line) for line in text.splitlines()]  # every line is one object
    probe = [line for line in lines if line["logger"] == "tests.probe"]
    arrivals = [line for line in probe if line["message"] == "an interaction arrived"]
    assert len(arrivals) == 3  # new, Join, the move: each names where it came from, no match
    for line in arrivals:  # (the match is known once the service reads it)
        assert (line["guild_id"], line["channel_id"]) == (guild.id, channel.id)
        assert "match_id" not in line
    saved = [line for line in probe if line["message"].startswith("saving")]
    assert saved[0] == {"time": saved[0]["time"], "level": "INFO", "logger": "tests.probe",
                        "message": f"saving a move of match {match.id}", "match_id": match.id,
                        "guild_id": guild.id, "channel_id": channel.id}
    assert "match_id" not in probe[-1] and "channel_id" not in probe[-1]
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line) <= {
            "time", "level", "logger", "message", "exc_info", "match_id", "guild_id",
            "channel_id"}
