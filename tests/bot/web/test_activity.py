"""The Activity's settings and sessions (bot/web/activity.py, bot/app/config.py): the secret
needs the pages and never shows; a session is signed, names its user and channel, expires, and
a changed one is refused."""

from __future__ import annotations

import pytest

from bot.app.config import ConfigError, Settings
from bot.app.config import Secret
from bot.web.activity import Activity, Refused, Session

BASE = {"DISCORD_TOKEN": "t", "GAMENIGHT_DB": ":memory:"}
PAGES = {"GAMENIGHT_WEB_PORT": "8080", "GAMENIGHT_PUBLIC_URL": "https://games.example.org"}


def test_the_activity_is_on_with_the_pages_and_the_secret():
    assert not Settings.from_mapping({**BASE, **PAGES}).activity
    settings = Settings.from_mapping({**BASE, **PAGES, "DISCORD_CLIENT_SECRET": "s3cret-value"})
    assert settings.activity and settings.client_id is None
    assert "s3cret-value" not in repr(settings)
    assert Settings.from_mapping({**BASE, **PAGES, "DISCORD_CLIENT_SECRET": "x",
                                  "DISCORD_CLIENT_ID": "123"}).client_id == 123


def test_a_secret_without_pages_or_a_bad_client_id_stops_start_up():
    with pytest.raises(ConfigError, match="GAMENIGHT_WEB_PORT") as found:
        Settings.from_mapping({**BASE, "DISCORD_CLIENT_SECRET": "s3cret-value"})
    assert "s3cret-value" not in str(found.value)
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_ID"):
        Settings.from_mapping({**BASE, **PAGES, "DISCORD_CLIENT_ID": "my-app"})


class Pages:
    now = 1_000_000.0

    def clock(self) -> float:
        return self.now


class Request:
    def __init__(self, session: str) -> None:
        self.headers = {"Authorization": f"Bearer {session}"}


def activity(pages: Pages, secret: str = "s3cret-value") -> Activity:
    return Activity(pages, None, api_base="http://x", client_id=lambda: 1,  # type: ignore[arg-type]
                    client_secret=Secret(secret), bot_token=Secret("t"))


def test_sessions_are_signed_and_expire():
    pages = Pages()
    signer = activity(pages)
    signed = signer.sign(Session(11, 22))
    assert signer.verify(Request(signed)) == Session(11, 22)  # type: ignore[arg-type]
    with pytest.raises(Refused):
        activity(pages, "another-secret").verify(Request(signed))  # type: ignore[arg-type]
    body, mac = signed.split(".")
    forged = signer.sign(Session(99, 22)).split(".")[0] + "." + mac
    with pytest.raises(Refused):
        signer.verify(Request(forged))  # type: ignore[arg-type]
    with pytest.raises(Refused):
        signer.verify(Request("nonsense"))  # type: ignore[arg-type]
    pages.now += 12 * 3600 + 1
    with pytest.raises(Refused):
        signer.verify(Request(signed))  # type: ignore[arg-type]
