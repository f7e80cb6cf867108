"""What the fake raises: at a test (the bot failed or never went idle) and inside its HTTP
handlers (an error Discord would answer with)."""

from __future__ import annotations

from typing import Any


class BotError(AssertionError):
    """The bot logged an error / leaked a task exception while handling something."""


class IdleTimeout(AssertionError):
    """The bot did not become idle within the guard timeout."""


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def form_error(where: str, code: str, message: str) -> _HTTPError:
    """Discord's 400 50035 with one reason under ``where`` (dotted)."""
    node: dict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(where.split(".")):
        node = {key: node}
    return _HTTPError(400, 50035, "Invalid Form Body", node)
