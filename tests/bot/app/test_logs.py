"""LOG_FORMAT: readable text by default, or one JSON object a line with the ids of the match,
server and channel a line is about; secrets redacted in both, and only known fields written."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys

import pytest

from bot.app import logs
from bot.app.config import ConfigError, Settings
from bot.matches import log_context

TOKEN = "MTIzNDU2Nzg5.sekrit.token"


def logged(log_format: str, emit) -> str:
    """What `emit(logger)` writes through the bot's handler in `log_format`."""
    out = io.StringIO()
    handler = logs.handler(log_format, TOKEN)
    handler.setStream(out)
    logger = logging.getLogger("gamenight.test")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        emit(logger)
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_the_format_is_text_unless_set_to_json():
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).log_format == "text"
    for value, wanted in (("json", "json"), (" JSON ", "json"), ("text", "text"), ("", "text")):
        assert Settings.from_mapping({"DISCORD_TOKEN": "t", "LOG_FORMAT": value}).log_format \
            == wanted
    with pytest.raises(ConfigError, match="LOG_FORMAT must be text .* or json"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "LOG_FORMAT": "logfmt"})


def test_an_unknown_format_stops_the_bot_with_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "t", "LOG_FORMAT": "xml",
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "LOG_FORMAT must be" in done.stderr


def test_a_json_line_holds_time_level_logger_message_and_the_ids_it_is_about():
    def emit(logger):
        logger.info("before any match")
        token = log_context.only(guild_id=10, channel_id=20)
        log_context.about(match_id=30)
        logger.warning("moved %s", "d3", extra={"hand": "3 4 5 6 7", "rack": "QUIZ"})
        log_context.forget(token)
        logger.info("after")

    first, moved, after = lines(logged("json", emit))
    assert set(first) == {"time", "level", "logger", "message"}
    assert first["time"].endswith("Z") and first["time"][:2] == "20"
    assert (first["level"], first["logger"], first["message"]) == ("INFO", "gamenight.test",
                                                                  "before any match")
    assert moved == {"time": moved["time"], "level": "WARNING", "logger": "gamenight.test",
                     "message": "moved d3", "match_id": 30, "guild_id": 10, "channel_id": 20}
    assert set(after) == set(first)  # the ids belonged to that interaction only


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_secrets_never_show_in_messages_or_tracebacks(log_format):
    def emit(logger):
        logger.info("logged in with %s", TOKEN)
        logger.info("database postgresql://gamenight:hunter2@db:5432/gamenight")
        logger.info("POST https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb24/callback")
        try:
            raise RuntimeError(f"refused {TOKEN} at postgresql://u:hunter2@db/x")
        except RuntimeError:
            logger.exception("it failed")

    text = logged(log_format, emit)
    assert TOKEN not in text and "hunter2" not in text and "aW50ZXJhY3Rpb24" not in text
    assert "[token]" in text and "gamenight:***@db" in text
    assert "/interactions/123/[token]/callback" in text
    assert "Traceback" in text and "RuntimeError: refused [token]" in text
    if log_format == "json":
        *_, failed = lines(text)
        assert failed["message"] == "it failed" and "RuntimeError" in failed["exc_info"]
    else:
        assert text.splitlines()[0].split()[2:] == ["INFO", "gamenight.test:", "logged", "in",
                                                    "with", "[token]"]


def test_discord_py_logs_no_debug_lines_their_bodies_hold_hands():
    root, library = logging.getLogger(), logging.getLogger("discord")
    kept = root.handlers[:], root.level, library.level
    try:
        logs.configure("json", "DEBUG", TOKEN)
        assert root.level == logging.DEBUG and library.level == logging.INFO
        logs.configure("text", "WARNING", TOKEN)
        assert library.level == logging.WARNING
    finally:
        root.handlers[:], _, _ = kept
        root.setLevel(kept[1])
        library.setLevel(kept[2])
