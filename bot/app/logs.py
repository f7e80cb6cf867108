"""The bot's log lines: readable text (the default), or with LOG_FORMAT=json one JSON object a
line for a log search (time, level, logger, message, and the ids of the match, server and
channel the line is about: bot/matches/log_context.py).

Whatever the format, the token, any password in a URL and interactions' tokens are replaced,
in the message and in a traceback alike. A JSON line holds only the fields above (and a
traceback): attributes a library puts on a record are left out, so nothing a match holds (a
hand, a rack) can slip in; nor do discord.py's DEBUG lines, which carry request bodies."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timezone
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from bot.matches import log_context

TEXT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
FIELDS = {"asctime": "time", "levelname": "level", "name": "logger", "message": "message"}
KEPT = (*FIELDS.values(), "exc_info", "stack_info")
URL_PASSWORD = re.compile(r"(//[^:/@\s]+:)[^@\s]*@")
# an interaction's token, in the URLs of its callback and follow-ups (valid for 15 minutes)
INTERACTION_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+")


class RedactToken(logging.Filter):
    """Replaces the token, the password of any URL and interactions' tokens in every log
    record (its traceback too), should a library ever print them."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def redact(self, text: str) -> str:
        if self._token:
            text = text.replace(self._token, "[token]")
        return INTERACTION_TOKEN.sub(r"\1[token]", URL_PASSWORD.sub(r"\1***@", text))

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info:  # formatted once here, redacted: both formats print exc_text
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the ids the line
    is about, and a traceback if any."""

    def __init__(self) -> None:
        super().__init__(list(FIELDS), rename_fields=FIELDS)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, timezone.utc).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        for key in [k for k in log_data if k not in KEPT]:
            del log_data[key]  # a library's extras: never written
        log_data.update(log_context.current())


def configure(log_format: str, level: str, token: str) -> None:
    """The root logger writes `log_format` at `level`. discord.py's own lines stay at INFO or
    above: its DEBUG lines carry the bodies of requests and gateway events (what a player's
    DM shows of their hand or rack)."""
    root = logging.getLogger()
    root.handlers[:] = [handler(log_format, token)]
    root.setLevel(level)
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))


def handler(log_format: str, token: str) -> logging.Handler:
    """A handler on stderr writing `log_format` ("text" or "json"), secrets redacted."""
    out = logging.StreamHandler()
    out.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT))
    out.addFilter(RedactToken(token))
    return out
