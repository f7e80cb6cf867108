"""Operators' metrics without Discord: the 10-minute window of refusals and its warning, the
route labels, and the GAMENIGHT_METRICS_PORT setting."""

import logging
import os
import subprocess
import sys

import pytest
import yarl

from bot.app.config import ConfigError, Settings
from bot.app.metrics import Metrics, MetricsUnavailable, RefusalWindow, route_template


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_window_counts_only_the_last_ten_minutes():
    clock = FakeClock()
    window = RefusalWindow(clock=clock)
    for _ in range(3):
        window.add()
    clock.now += 300
    window.add()
    assert window.count() == 4
    clock.now += 300  # the first three are exactly 10 minutes old: out
    assert window.count() == 1
    clock.now += 301
    assert window.count() == 0


def test_the_warning_comes_once_per_crossing_of_1000(caplog):
    clock = FakeClock()
    window = RefusalWindow(clock=clock)
    caplog.set_level(logging.WARNING, logger="bot.app.metrics")
    for _ in range(1000):
        window.add()
    assert caplog.records == []  # 1,000 is not past 1,000
    for _ in range(50):
        window.add()
    assert len(caplog.records) == 1
    assert "1001 requests in the last 10 minutes" in caplog.records[0].getMessage()
    clock.now += 601  # the window empties, then fills past the limit again: a second warning
    assert window.count() == 0
    for _ in range(1001):
        window.add()
    assert len(caplog.records) == 2


def test_refused_statuses_feed_the_gauge_and_labels_hold_no_token():
    clock = FakeClock()
    metrics = Metrics("http://127.0.0.1:9/api/v10", clock=clock)
    base = "http://127.0.0.1:9/api/v10"
    metrics.responded("POST", yarl.URL(f"{base}/channels/42/messages"), 403)
    metrics.responded("POST", yarl.URL(f"{base}/channels/42/messages"), 429)
    metrics.responded("POST", yarl.URL(f"{base}/channels/43/messages"), 200)
    metrics.responded("POST", yarl.URL(f"{base}/interactions/7/aW50ZXJhY3Rpb246c2VrcmV0/callback"),
                      204)
    value = metrics.registry.get_sample_value
    assert value("gamenight_discord_refused_last_10m") == 2
    assert value("gamenight_discord_requests_total", {
        "method": "POST", "route": "/channels/{id}/messages", "status": "403"}) == 1
    assert value("gamenight_discord_requests_total", {
        "method": "POST", "route": "/interactions/{id}/{token}/callback", "status": "204"}) == 1
    clock.now += 600
    assert value("gamenight_discord_refused_last_10m") == 0


@pytest.mark.parametrize("path, template", [
    ("/api/v10/webhooks/1/tok.en/messages/@original", "/webhooks/{id}/{token}/messages/@original"),
    ("/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me",
     "/channels/{id}/messages/{id}/reactions/{emoji}/@me"),
    ("/api/v10/users/@me/channels", "/users/@me/channels"),
    ("/api/v10/applications/5/guilds/6/commands", "/applications/{id}/guilds/{id}/commands"),
])
def test_route_templates(path, template):
    assert route_template(path, "/api/v10") == template


def test_metrics_port_setting():
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).metrics_port is None
    assert Settings.from_mapping({"DISCORD_TOKEN": "t",
                                  "GAMENIGHT_METRICS_PORT": " 9108 "}).metrics_port == 9108
    for bad in ("http", "-1", "70000", "91.08"):
        with pytest.raises(ConfigError, match="GAMENIGHT_METRICS_PORT must be a TCP port"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_METRICS_PORT": bad})


def test_metrics_listen_on_this_machine_unless_told_otherwise():
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).metrics_host == "127.0.0.1"
    for host in ("0.0.0.0", "::", "10.1.2.3"):
        settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_METRICS_HOST": host})
        assert settings.metrics_host == host
    for bad in ("everywhere", "127.0.0.1:9108", "300.1.1.1"):
        with pytest.raises(ConfigError, match="GAMENIGHT_METRICS_HOST must be an IP address"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_METRICS_HOST": bad})


def test_a_bad_metrics_port_stops_the_bot_with_one_line(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "t", "GAMENIGHT_METRICS_PORT": "prometheus"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "GAMENIGHT_METRICS_PORT must be a TCP port" in done.stderr
    assert not list(tmp_path.iterdir())  # stopped before opening any database


async def test_a_taken_port_is_a_clear_error():
    first = Metrics("http://127.0.0.1:9/api/v10")

    async def no_matches():
        return {}

    await first.start(0, no_matches)
    try:
        second = Metrics("http://127.0.0.1:9/api/v10")
        with pytest.raises(MetricsUnavailable,
                           match=f"cannot serve metrics on 127.0.0.1 port {first.port}"):
            await second.start(first.port, no_matches)
        await second.stop()
    finally:
        await first.stop()


def test_computer_decisions_are_counted_and_timed():
    metrics = Metrics("https://discord.com/api/v10")
    metrics.computer_decision("reversi", "hard", "played", 0.4)
    metrics.computer_decision("reversi", "hard", "failed", None)
    sample = metrics.registry.get_sample_value
    assert sample("gamenight_computer_decisions_total",
                  {"game": "reversi", "level": "hard", "outcome": "played"}) == 1
    assert sample("gamenight_computer_decisions_total",
                  {"game": "reversi", "level": "hard", "outcome": "failed"}) == 1
    assert sample("gamenight_computer_decision_seconds_count",
                  {"game": "reversi", "level": "hard"}) == 1
    assert sample("gamenight_computer_decision_seconds_sum",
                  {"game": "reversi", "level": "hard"}) == pytest.approx(0.4)


class ScriptedLeases:
    """A shared database whose lease is this process's on the ticks `script` says."""

    dialect = "postgresql"

    def __init__(self, script: list[bool | Exception]) -> None:
        self.script = script

    async def take_lease(self, name: str, owner: str, seconds: float) -> bool:
        answer = self.script.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def release_lease(self, name: str, owner: str) -> None:
        pass

    async def listen(self, heard):
        return None

    async def clock_rows(self):
        return []

    async def computer_matches(self):
        return []


class IdleClocks:
    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def arm(self, row) -> None:
        pass

    async def after_downtime(self, downtime) -> None:
        pass

    async def catch_up_owed(self, before: float, after: float) -> int:
        return 0


class IdleComputers:
    async def resume(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def schedule(self, match, *, retry: bool = False) -> bool:
        return False


class StillClock:
    def now(self) -> float:
        return 1000.0


async def test_the_timekeeper_lease_is_held_and_its_changes_counted():
    from bot.matches.timekeeper import Timekeeper

    metrics = Metrics("http://127.0.0.1:9/api/v10")
    value = metrics.registry.get_sample_value
    changes = {change: lambda c=change: value("gamenight_timekeeper_lease_changes_total",
                                              {"change": c}) for change in ("taken", "lost")}
    assert value("gamenight_timekeeper_lease_held") == 0
    assert {c: n() for c, n in changes.items()} == {"taken": 0, "lost": 0}  # there from start
    # taken, renewed, the database out of reach (still ours until it would lapse), renewed,
    # passed to another process, taken back
    leases = ScriptedLeases([True, True, OSError("gone"), True, False, True])
    keeper = Timekeeper(leases, None, IdleClocks(), IdleComputers(), StillClock(),
                        on_lease=metrics.lease)
    held = []
    for _ in range(6):
        await keeper.tick()
        held.append(value("gamenight_timekeeper_lease_held"))
    assert held == [1, 1, 1, 1, 0, 1]
    assert {c: n() for c, n in changes.items()} == {"taken": 2, "lost": 1}
    await keeper.stop()  # a clean stop gives the lease up
    assert value("gamenight_timekeeper_lease_held") == 0
    assert {c: n() for c, n in changes.items()} == {"taken": 2, "lost": 2}

