"""Every request body checked against Discord's OpenAPI document (discord_schema.py): a
body Discord would refuse is refused, recorded and, unless a test expects it, fails the test;
a body that passes is checked for words that did not come through the catalogs
(tests/pseudo.py)."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Iterator

from tests import pseudo
from tests.fakediscord import discord_schema, response_schema
from tests.fakediscord.errors import _HTTPError

log = logging.getLogger("fakediscord")

# Requests that are forms, outside the OpenAPI document: their handler checks them (oauth.py).
FORM_ROUTES = {("POST", "/oauth2/token")}


@dataclass
class SchemaViolation:
    """A request body the fake refused because Discord would (discord_schema.py)."""

    method: str
    path: str
    body: Any
    problems: list
    expected: bool = False

    def __str__(self) -> str:
        return f"{self.method} {self.path}: " + "; ".join(map(str, self.problems))


# Every unexpected violation of any fake in this process; tests/conftest.py fails the test that
# caused one and empties the list, so no test that drives the bot can skip the check.
UNEXPECTED_VIOLATIONS: list[SchemaViolation] = []


class SchemaCheck:
    """The check of every request body, and the names a message may show as they are."""

    def _check_schema(self, method: str, sub: str, payload: Any) -> None:
        """Refuse, record and report a body Discord would refuse (see discord_schema.py)."""
        if (method, sub) in FORM_ROUTES:
            return  # not in the OpenAPI document: its handler checks the form (oauth.py)
        problems = discord_schema.check_request(method, sub, payload)
        if not problems:
            pseudo.check(method, sub, payload, self._names())
            return
        violation = SchemaViolation(method, sub, payload, problems, expected=bool(self._expect_invalid))
        self.schema_violations.append(violation)
        if not violation.expected:
            UNEXPECTED_VIOLATIONS.append(violation)
            log.error("fakediscord: Discord would refuse %s", violation)
        raise _HTTPError(400, 50035, "Invalid Form Body", discord_schema.form_errors(problems))

    def _check_answer(self, handler: Any, method: str, sub: str, status: int, body: Any) -> None:
        """Report an answer of the fake's that Discord's document says it would never give
        (for the routes in ``_answers_checked``): a fault of the fake, failing the test."""
        if handler not in self._answers_checked and not self.check_every_answer:
            return
        problems = response_schema.check_response(method, sub, status, body)
        if problems:
            violation = SchemaViolation(method, f"{sub} (its {status} answer)", body, problems)
            self.schema_violations.append(violation)
            UNEXPECTED_VIOLATIONS.append(violation)
            log.error("fakediscord: Discord never answers %s", violation)

    def _names(self) -> list[str]:
        """The names a message may show as they are: people's, servers' and channels'."""
        names = [n for u in self.users.values() for n in (u.name, u.global_name) if n]
        names += [m.nick for g in self.guilds.values() for m in g.members.values()
                  if getattr(m, "nick", None)]
        names += [g.name for g in self.guilds.values()] + [c.name for c in self.channels.values()]
        return names

    @contextlib.contextmanager
    def expect_invalid_requests(self) -> Iterator[list["SchemaViolation"]]:
        """Within this block a body Discord would refuse is still refused and recorded (in the
        yielded list, filled when the block ends) but neither logged as a bot error nor failing
        the test."""
        self._expect_invalid += 1
        first = len(self.schema_violations)
        seen: list[SchemaViolation] = []
        try:
            yield seen
        finally:
            self._expect_invalid -= 1
            seen.extend(self.schema_violations[first:])
