"""compose.yaml: PostgreSQL and two bot processes that between them run every shard, each
configured as the bot itself accepts, healthy when ready (there is no Docker Compose here to
start it)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.app.config import Settings

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def compose() -> dict:
    text = re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", COMPOSE.read_text())  # the defaults
    return yaml.safe_load(text)


def services() -> dict:
    """The services `docker compose up` starts (not those of a profile such as monitoring)."""
    return {name: service for name, service in compose()["services"].items()
            if not service.get("profiles")}


def test_two_bots_share_one_postgresql_and_run_every_shard_once():
    found = services()
    db = found.pop("db")
    assert db["image"].startswith("postgres:") and "pg_isready" in str(db["healthcheck"])
    settings = [Settings.from_mapping({"DISCORD_TOKEN": "t", **bot["environment"]})
                for bot in found.values()]
    assert len(settings) == 2
    assert {str(s.db_path) for s in settings} == {"postgresql://gamenight:gamenight@db:5432/gamenight"}
    total = {s.shard_count for s in settings}
    assert total == {2}
    ids = sorted(i for s in settings for i in s.shard_ids)
    assert ids == list(range(2))  # every shard, once
    for bot in found.values():
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        assert bot["image"] == "gamenight" and bot["stop_signal"] == "SIGINT"
    assert "build" in found["bot-0"]


def test_the_bots_are_healthy_when_ready_and_the_second_waits_for_the_first():
    found = services()
    for name in ("bot-0", "bot-1"):
        assert found[name]["healthcheck"]["test"] == ["CMD", "gamenight", "health"]
    assert found["bot-1"]["depends_on"]["bot-0"]["condition"] == "service_healthy"
