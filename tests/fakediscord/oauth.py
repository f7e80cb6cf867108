"""What an Activity's server asks of Discord: the OAuth2 code exchange (POST /oauth2/token, a
form, as Discord's OAuth2 documentation has it: that endpoint is not in the OpenAPI document,
so its form is checked here), the signed-in user (GET /users/@me with a Bearer token, the
answer checked against the document's get_my_user), and an activity instance (GET
/applications/{app}/activity-instances/{id} with the bot's token, in the document).

A test plays the Discord client: `oauth_code(user)` is what the SDK's AUTHORIZE gives that
user, `launch_activity(channel, users)` an instance of the app's Activity in a channel."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from aiohttp import web

from tests.fakediscord import response_schema
from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.schema_check import UNEXPECTED_VIOLATIONS, SchemaViolation

TOKEN_SECONDS = 604800


class OAuth:
    """The OAuth2 and activity instance routes, and their test helpers."""

    client_secret = "fake-client-secret-" + "x" * 13

    def _oauth(self) -> dict[str, dict[str, Any]]:
        state = self.__dict__.get("_oauth_state")
        if state is None:
            state = self.__dict__["_oauth_state"] = {"codes": {}, "tokens": {}, "instances": {}}
        return state

    def oauth_code(self, user: Any, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code the SDK's AUTHORIZE answers `user` with (one use)."""
        code = secrets.token_urlsafe(18)
        self._oauth()["codes"][code] = (user.id, " ".join(scopes))
        return code

    def launch_activity(self, channel: Any, users: list[Any]) -> str:
        """An instance of the app's Activity in `channel` with `users` in it: its id."""
        instance = f"i-{self.new_id()}-gc-{channel.guild.id if channel.guild else 0}-{channel.id}"
        self._oauth()["instances"][instance] = (channel, [user.id for user in users])
        return instance

    def _oauth_routes(self, S: str) -> list[tuple[str, str, Any, bool]]:
        return [("GET", f"/applications/{S.format('app')}/activity-instances/(?P<instance>[^/]+)",
                 self._r_activity_instance, True)]

    @staticmethod
    def _oauth_error(status: int, error: str, description: str) -> web.Response:
        return web.json_response({"error": error, "error_description": description},
                                 status=status)

    async def _r_oauth_token(self, request, payload, files):
        """Discord's token exchange: grant_type=authorization_code, the code, and the client's
        id and secret in the form or as HTTP Basic; a code works once."""
        form = payload if isinstance(payload, dict) else {}
        if request.content_type != "application/x-www-form-urlencoded":
            return self._oauth_error(400, "invalid_request", "a form is expected")
        client, secret = form.get("client_id"), form.get("client_secret")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        if client != str(self.application_id) or secret != self.client_secret:
            return self._oauth_error(401, "invalid_client", "unknown client or wrong secret")
        if form.get("grant_type") != "authorization_code":
            return self._oauth_error(400, "unsupported_grant_type", "authorization_code only")
        found = self._oauth()["codes"].pop(form.get("code", ""), None)
        if found is None:
            return self._oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        user_id, scope = found
        access = secrets.token_urlsafe(24)
        self._oauth()["tokens"][access] = user_id
        return {"access_token": access, "token_type": "Bearer", "expires_in": TOKEN_SECONDS,
                "refresh_token": secrets.token_urlsafe(24), "scope": scope}

    def _bearer_me(self, request) -> dict[str, Any] | None:
        """GET /users/@me with a Bearer token: that user (None: not a Bearer request)."""
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        user_id = self._oauth()["tokens"].get(header.removeprefix("Bearer "))
        if user_id is None:
            raise _HTTPError(401, 0, "401: Unauthorized")
        body = {**self.users[user_id].payload(), "locale": "en-US", "mfa_enabled": False}
        problems = response_schema.check_response("GET", "/users/@me", 200, body)
        if problems:
            violation = SchemaViolation("GET", "/users/@me (its Bearer answer)", body, problems)
            self.schema_violations.append(violation)
            UNEXPECTED_VIOLATIONS.append(violation)
        return body

    async def _r_activity_instance(self, request, payload, files, app, instance):
        found = self._oauth()["instances"].get(instance)
        if int(app) != self.application_id or found is None:
            raise _HTTPError(404, 10_000 + 107, "Unknown activity instance")
        channel, users = found
        location: dict[str, Any] = {"id": f"gc-{channel.id}", "kind": "gc",
                                    "channel_id": str(channel.id)}
        if channel.guild is not None:
            location["guild_id"] = str(channel.guild.id)
        return {"application_id": str(self.application_id), "instance_id": instance,
                "launch_id": str(self.new_id()), "location": location,
                "users": [str(user) for user in users]}
